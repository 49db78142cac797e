// Runs scenarios modelled on Codex's apply-patch fixtures (codex-rs/apply-patch/tests/fixtures/
// scenarios/, rewritten by hand: files before, patch, files after or an error) through the
// apply_patch tool and counts how many end as Codex expects. Usage:
//   node scripts/eval-apply-patch.mjs [SRC_ROOT]   (default: this checkout's src/)
import { build } from "esbuild";
import { promises as fs } from "node:fs";
import os from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const src = resolve(process.argv[2] ?? join(import.meta.dirname, "..", "src"));
const dir = await fs.mkdtemp(join(os.tmpdir(), "nh-eval-patch-"));
await build({
  entryPoints: [join(src, "tools/apply-patch.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: join(dir, "ap.mjs"),
  logLevel: "error",
  nodePaths: [join(import.meta.dirname, "..", "node_modules")],
});
const { applyPatchTool } = await import(pathToFileURL(join(dir, "ap.mjs")).href);

const P = (...l) => l.join("\n") + "\n";
/** [name, files before, patch, files after (null: Codex refuses and changes nothing), what NanoHermes does differently on purpose] */
const scenarios = [
  [
    "001 add file",
    { "foo.md": "keep\n" },
    P("*** Begin Patch", "*** Add File: bar.md", "+This is a new file", "*** End Patch"),
    { "foo.md": "keep\n", "bar.md": "This is a new file\n" },
  ],
  [
    "002 multiple operations",
    { "delete.txt": "x\n", "modify.txt": "line1\nline2\n" },
    P(
      "*** Begin Patch",
      "*** Add File: nested/new.txt",
      "+created",
      "*** Delete File: delete.txt",
      "*** Update File: modify.txt",
      "@@",
      "-line2",
      "+changed",
      "*** End Patch",
    ),
    { "modify.txt": "line1\nchanged\n", "nested/new.txt": "created\n" },
  ],
  [
    "003 multiple chunks",
    { "multi.txt": "line1\nline2\nline3\nline4\n" },
    P(
      "*** Begin Patch",
      "*** Update File: multi.txt",
      "@@",
      "-line2",
      "+changed2",
      "@@",
      "-line4",
      "+changed4",
      "*** End Patch",
    ),
    { "multi.txt": "line1\nchanged2\nline3\nchanged4\n" },
  ],
  [
    "004 move to new directory",
    { "old/name.txt": "old content\n", "old/other.txt": "other\n" },
    P(
      "*** Begin Patch",
      "*** Update File: old/name.txt",
      "*** Move to: renamed/dir/name.txt",
      "@@",
      "-old content",
      "+new content",
      "*** End Patch",
    ),
    { "old/other.txt": "other\n", "renamed/dir/name.txt": "new content\n" },
  ],
  ["005 rejects empty patch", { "foo.txt": "f\n" }, P("*** Begin Patch", "*** End Patch"), null],
  [
    "006 rejects missing context",
    { "modify.txt": "line1\nline2\n" },
    P("*** Begin Patch", "*** Update File: modify.txt", "@@", "-missing", "+changed", "*** End Patch"),
    null,
  ],
  [
    "007 rejects delete of a missing file",
    { "foo.txt": "f\n" },
    P("*** Begin Patch", "*** Delete File: missing.txt", "*** End Patch"),
    null,
  ],
  [
    "008 rejects an update without hunks",
    { "foo.txt": "f\n" },
    P("*** Begin Patch", "*** Update File: foo.txt", "*** End Patch"),
    null,
  ],
  [
    "009 update needs an existing file",
    { "foo.txt": "f\n" },
    P("*** Begin Patch", "*** Update File: missing.txt", "@@", "-a", "+b", "*** End Patch"),
    null,
  ],
  [
    "010 move overwrites an existing destination",
    { "old/name.txt": "from\n", "old/other.txt": "o\n", "renamed/dir/name.txt": "existing\n" },
    P(
      "*** Begin Patch",
      "*** Update File: old/name.txt",
      "*** Move to: renamed/dir/name.txt",
      "@@",
      "-from",
      "+new",
      "*** End Patch",
    ),
    { "old/other.txt": "o\n", "renamed/dir/name.txt": "new\n" },
    "refuses to overwrite an existing file",
  ],
  [
    "011 add overwrites an existing file",
    { "duplicate.txt": "old content\n" },
    P("*** Begin Patch", "*** Add File: duplicate.txt", "+new content", "*** End Patch"),
    { "duplicate.txt": "new content\n" },
    "refuses: Add File of an existing file is a mistake, Update File says what changes",
  ],
  [
    "012 delete of a directory fails",
    { "dir/foo.txt": "f\n" },
    P("*** Begin Patch", "*** Delete File: dir", "*** End Patch"),
    null,
  ],
  [
    "013 rejects an unknown header",
    { "foo.txt": "f\n" },
    P("*** Begin Patch", "*** Frobnicate File: foo", "*** End Patch"),
    null,
  ],
  [
    "014 update appends the trailing newline",
    { "no_newline.txt": "no newline at end" },
    P(
      "*** Begin Patch",
      "*** Update File: no_newline.txt",
      "@@",
      "-no newline at end",
      "+first line",
      "+second line",
      "*** End Patch",
    ),
    { "no_newline.txt": "first line\nsecond line\n" },
    "keeps the file's own missing final newline",
  ],
  [
    "015 failure after partial success leaves changes",
    {},
    P(
      "*** Begin Patch",
      "*** Add File: created.txt",
      "+hello",
      "*** Update File: missing.txt",
      "@@",
      "-old",
      "+new",
      "*** End Patch",
    ),
    { "created.txt": "hello\n" },
    "all or nothing: nothing is created",
  ],
  [
    "016 pure addition chunk",
    { "input.txt": "line1\nline2\n" },
    P("*** Begin Patch", "*** Update File: input.txt", "@@", "+added line 1", "+added line 2", "*** End Patch"),
    { "input.txt": "line1\nline2\nadded line 1\nadded line 2\n" },
  ],
  [
    "017 whitespace-padded file header",
    { "foo.txt": "old\n" },
    P("*** Begin Patch", "  *** Update File: foo.txt", "@@", "-old", "+new", "*** End Patch"),
    { "foo.txt": "new\n" },
  ],
  [
    "018 whitespace-padded patch markers",
    { "file.txt": "one\n" },
    P(" *** Begin Patch", "*** Update File: file.txt", "@@", "-one", "+two", "*** End Patch "),
    { "file.txt": "two\n" },
  ],
  [
    "019 unicode",
    { "foo.txt": "héllo wörld\nline2\n" },
    P("*** Begin Patch", "*** Update File: foo.txt", "@@", "-héllo wörld", "+こんにちは", " line2", "*** End Patch"),
    { "foo.txt": "こんにちは\nline2\n" },
  ],
  [
    "020 delete file",
    { "keep.txt": "k\n", "obsolete.txt": "o\n" },
    P("*** Begin Patch", "*** Delete File: obsolete.txt", "*** End Patch"),
    { "keep.txt": "k\n" },
  ],
  [
    "020b whitespace-padded marker lines",
    { "file.txt": "one\n" },
    P("*** Begin Patch ", "*** Update File: file.txt", "@@", "-one", "+two", " *** End Patch"),
    { "file.txt": "two\n" },
  ],
  [
    "021 deletion only",
    { "lines.txt": "line1\nline2\nline3\n" },
    P("*** Begin Patch", "*** Update File: lines.txt", "@@", " line1", "-line2", " line3", "*** End Patch"),
    { "lines.txt": "line1\nline3\n" },
  ],
  [
    "022 End of File marker",
    { "tail.txt": "first\nsecond\n" },
    P(
      "*** Begin Patch",
      "*** Update File: tail.txt",
      "@@",
      " first",
      "-second",
      "+second updated",
      "*** End of File",
      "*** End Patch",
    ),
    { "tail.txt": "first\nsecond updated\n" },
  ],
  // The bugs issue 15 names, in the same form.
  [
    "issue 15: missing @@ anchor is an error",
    { "a.py": "def f():\n    x = 1\n" },
    P("*** Begin Patch", "*** Update File: a.py", "@@ def g():", "-    x = 1", "+    x = 2", "*** End Patch"),
    null,
  ],
  [
    "issue 15: identical hunks, successive occurrences",
    { "a.txt": "x\ny\nx\ny\n" },
    P("*** Begin Patch", "*** Update File: a.txt", "@@", "-x", "+z", "@@", "-x", "+z", "*** End Patch"),
    { "a.txt": "z\ny\nz\ny\n" },
  ],
  [
    "issue 15: blank line after End of File",
    { "t.txt": "a\nb\n" },
    P("*** Begin Patch", "*** Update File: t.txt", "@@", " a", "-b", "+c", "*** End of File", "", "*** End Patch"),
    { "t.txt": "a\nc\n" },
  ],
  // The cases issue 36 names.
  [
    "issue 36: a context line whose text is a file header",
    { "a.txt": "Patch notes:\n*** Update File: b.txt\nold\n" },
    P("*** Begin Patch", "*** Update File: a.txt", "@@", " *** Update File: b.txt", "-old", "+new", "*** End Patch"),
    { "a.txt": "Patch notes:\n*** Update File: b.txt\nnew\n" },
  ],
  [
    "issue 36: no Begin Patch marker",
    { "a.txt": "old\n" },
    P("*** Update File: a.txt", "@@", "-old", "+new", "*** End Patch"),
    null,
  ],
];

async function writeTree(root, tree) {
  for (const [p, c] of Object.entries(tree)) {
    await fs.mkdir(dirname(join(root, p)), { recursive: true });
    await fs.writeFile(join(root, p), c);
  }
}
async function readTree(root) {
  const out = {};
  const walk = async (d) => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out[relative(root, p)] = await fs.readFile(p, "utf8");
    }
  };
  await walk(root);
  return out;
}
const same = (a, b) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

let pass = 0;
for (const [name, before, patch, after, why] of scenarios) {
  const ws = await fs.realpath(await fs.mkdtemp(join(os.tmpdir(), "nh-eval-ws-")));
  await writeTree(ws, before);
  let error = null;
  try {
    await applyPatchTool.run({ patch }, { workspace: ws, signal: new AbortController().signal, output: () => {} });
  } catch (e) {
    error = e.message.split("\n")[0];
  }
  const now = await readTree(ws);
  const ok = after === null ? error !== null && same(now, before) : error === null && same(now, after);
  if (ok) pass++;
  else console.log(`  differs: ${name}${why ? ` (on purpose: ${why})` : ""}${error ? `: ${error}` : ""}`);
  await fs.rm(ws, { recursive: true, force: true });
}
await fs.rm(dir, { recursive: true, force: true });
console.log(`${pass} of ${scenarios.length} scenarios end as Codex expects (src: ${src})`);

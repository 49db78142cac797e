// apply_patch end to end on real temp directories: a scenario table (files before, patch, files after
// or an error), then the cases a table cannot hold: real `git diff` output, rollback, abort, registry.
import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import { dirname, join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolError, type ToolContext } from "../../src/tools/define.js";
import { applyPatchTool } from "../../src/tools/apply-patch.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { testGate } from "../helpers/gate.js";

type Tree = Record<string, string>;

interface Scenario {
  name: string;
  files: Tree;
  /** The patch, or a function of the workspace and a sibling "outside" directory. */
  patch: string | ((dirs: Dirs) => string);
  /** The whole workspace afterwards; omitted on errors, where it must equal `files`. */
  after?: Tree;
  /** A substring of the ToolError message. */
  error?: string;
  /** The forModel result, when it matters. */
  result?: string;
  setup?: (dirs: Dirs) => Promise<void>;
}

interface Dirs {
  ws: string;
  outside: string;
}

const P = (...lines: string[]): string => lines.join("\n");
const begin = (...lines: string[]): string => P("*** Begin Patch", ...lines, "*** End Patch");

async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [path, content] of Object.entries(tree)) {
    await fs.mkdir(dirname(join(root, path)), { recursive: true });
    await fs.writeFile(join(root, path), content);
  }
}

/** Every file under root (symlinks as "-> target"), so stray temp files or leftovers fail a test. */
async function readTree(root: string): Promise<Tree> {
  const out: Tree = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.name === ".git") continue;
      if (entry.isSymbolicLink()) out[relative(root, path)] = `-> ${await fs.readlink(path)}`;
      else if (entry.isDirectory()) await walk(path);
      else out[relative(root, path)] = await fs.readFile(path, "utf8");
    }
  };
  await walk(root);
  return out;
}

let dirs: Dirs;
let base: string;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(join(os.tmpdir(), "nh-apply-patch-")));
  dirs = { ws: join(base, "ws"), outside: join(base, "outside") };
  await fs.mkdir(dirs.ws);
  await fs.mkdir(dirs.outside);
  await fs.writeFile(join(dirs.outside, "secret.txt"), "keep\n");
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

function ctxFor(workspace: string, signal = new AbortController().signal): ToolContext {
  return { workspace, signal, output: () => {} };
}

async function runPatch(patch: string, signal?: AbortSignal): Promise<string> {
  const out = await applyPatchTool.run({ patch }, ctxFor(dirs.ws, signal));
  return typeof out === "string" ? out : out.forModel;
}

const twoBlocks = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n";

const scenarios: Scenario[] = [
  // ---- Codex format: the basic operations ----
  {
    name: "add a file",
    files: {},
    patch: begin("*** Add File: hello.txt", "+hello", "+world"),
    after: { "hello.txt": "hello\nworld\n" },
    result: "A hello.txt (+2)",
  },
  {
    name: "add a file in new directories",
    files: {},
    patch: begin("*** Add File: deep/er/x.ts", "+export {};"),
    after: { "deep/er/x.ts": "export {};\n" },
  },
  { name: "add an empty file", files: {}, patch: begin("*** Add File: empty.txt"), after: { "empty.txt": "" } },
  {
    name: "delete a file",
    files: { "old.txt": "bye\n", "keep.txt": "k\n" },
    patch: begin("*** Delete File: old.txt"),
    after: { "keep.txt": "k\n" },
    result: "D old.txt",
  },
  {
    name: "update one line",
    files: { "a.txt": "one\ntwo\nthree\n" },
    patch: begin("*** Update File: a.txt", "@@", " one", "-two", "+TWO", " three"),
    after: { "a.txt": "one\nTWO\nthree\n" },
    result: "M a.txt (+1 -1)",
  },
  {
    name: "update with two hunks",
    files: { "a.txt": "1\n2\n3\n4\n5\n6\n7\n8\n9\n" },
    patch: begin("*** Update File: a.txt", "@@", " 1", "-2", "+two", " 3", "@@", " 7", "-8", "+eight", "+EIGHT", " 9"),
    after: { "a.txt": "1\ntwo\n3\n4\n5\n6\n7\neight\nEIGHT\n9\n" },
    result: "M a.txt (+3 -2)",
  },
  {
    name: "rename and change",
    files: { "src/old.ts": "let x = 1;\nlet y = 2;\n" },
    patch: begin(
      "*** Update File: src/old.ts",
      "*** Move to: lib/new.ts",
      "@@",
      " let x = 1;",
      "-let y = 2;",
      "+let y = 3;",
    ),
    after: { "lib/new.ts": "let x = 1;\nlet y = 3;\n" },
    result: "R src/old.ts -> lib/new.ts (+1 -1)",
  },
  {
    name: "pure rename",
    files: { "a.txt": "same\n" },
    patch: begin("*** Update File: a.txt", "*** Move to: b.txt"),
    after: { "b.txt": "same\n" },
    result: "R a.txt -> b.txt",
  },
  {
    name: "several files in one patch",
    files: { "a.txt": "a\n", "b.txt": "b\n" },
    patch: begin("*** Add File: c.txt", "+c", "*** Update File: a.txt", "-a", "+A", "*** Delete File: b.txt"),
    after: { "a.txt": "A\n", "c.txt": "c\n" },
    result: "A c.txt (+1)\nM a.txt (+1 -1)\nD b.txt",
  },
  {
    name: "hunk without an @@ line",
    files: { "a.txt": "x\ny\n" },
    patch: begin("*** Update File: a.txt", " x", "-y", "+z"),
    after: { "a.txt": "x\nz\n" },
  },
  // ---- Locating hunks ----
  {
    name: "trailing whitespace in the file is tolerated and kept on context lines",
    files: { "a.txt": "keep   \nold\t\nnext\n" },
    patch: begin("*** Update File: a.txt", "@@", " keep", "-old", "+new", " next"),
    after: { "a.txt": "keep   \nnew\nnext\n" },
  },
  {
    name: "different indentation is tolerated",
    files: { "a.py": "def f():\n\tif x:\n\t\treturn 1\n" },
    patch: begin("*** Update File: a.py", "@@", "     if x:", "-        return 1", "+\t\treturn 2"),
    after: { "a.py": "def f():\n\tif x:\n\t\treturn 2\n" },
  },
  {
    name: "typographic quotes and dashes are matched as plain ones",
    files: { "a.md": "He said \u201chi\u201d \u2014 twice\nend\n" },
    patch: begin("*** Update File: a.md", '-He said "hi" - twice', "+He said hello", " end"),
    after: { "a.md": "He said hello\nend\n" },
  },
  {
    name: "an @@ anchor picks the block after it",
    files: { "a.js": twoBlocks },
    patch: begin("*** Update File: a.js", "@@ function b() {", "-  return 1;", "+  return 2;"),
    after: { "a.js": twoBlocks.replace("b() {\n  return 1;", "b() {\n  return 2;") },
  },
  {
    name: "nested anchors narrow step by step",
    files: {
      "a.py":
        "class A:\n    def run(self):\n        pass\nclass B:\n    def go(self):\n        pass\n    def run(self):\n        pass\n",
    },
    patch: begin("*** Update File: a.py", "@@ class B:", "@@     def run(self):", "-        pass", "+        return 1"),
    after: {
      "a.py":
        "class A:\n    def run(self):\n        pass\nclass B:\n    def go(self):\n        pass\n    def run(self):\n        return 1\n",
    },
  },
  {
    name: "a pure insertion goes after its anchor",
    files: { "a.txt": "head\nbody\ntail\n" },
    patch: begin("*** Update File: a.txt", "@@ head", "+inserted"),
    after: { "a.txt": "head\ninserted\nbody\ntail\n" },
  },
  {
    name: "a pure insertion without anchor goes at the end",
    files: { "a.txt": "one\n" },
    patch: begin("*** Update File: a.txt", "@@", "+two", "*** End of File"),
    after: { "a.txt": "one\ntwo\n" },
  },
  {
    name: "End of File pins repeated context to the end",
    files: { "a.txt": "x\nend\nx\nend\n" },
    patch: begin("*** Update File: a.txt", "@@", " x", "-end", "+END", "*** End of File"),
    after: { "a.txt": "x\nend\nx\nEND\n" },
  },
  {
    name: "later hunks are searched after earlier ones",
    files: { "a.txt": "start\nv = 0\nmid\nv = 0\n" },
    patch: begin("*** Update File: a.txt", "@@", " start", "-v = 0", "+v = 1", "@@", "-v = 0", "+v = 2"),
    after: { "a.txt": "start\nv = 1\nmid\nv = 2\n" },
  },
  {
    name: "hunks out of file order are still placed",
    files: { "a.txt": "a\nb\nc\nd\n" },
    patch: begin("*** Update File: a.txt", "@@", " c", "-d", "+D", "@@", " a", "-b", "+B"),
    after: { "a.txt": "a\nB\nc\nD\n" },
  },
  {
    name: "blank context lines that lost their space",
    files: { "a.txt": "a\n\nb\n" },
    patch: begin("*** Update File: a.txt", "@@", " a", "", "-b", "+B", ""),
    after: { "a.txt": "a\n\nB\n" },
  },
  // ---- Line endings ----
  {
    name: "a CRLF file stays CRLF",
    files: { "w.txt": "one\r\ntwo\r\nthree\r\n" },
    patch: begin("*** Update File: w.txt", " one", "-two", "+2", "+2b", " three"),
    after: { "w.txt": "one\r\n2\r\n2b\r\nthree\r\n" },
  },
  {
    name: "a file without final newline keeps it that way when its last line changes",
    files: { "a.txt": "a\nb" },
    patch: begin("*** Update File: a.txt", " a", "-b", "+B"),
    after: { "a.txt": "a\nB" },
  },
  {
    name: "a file without final newline keeps it that way when lines are appended",
    files: { "a.txt": "a\nb" },
    patch: begin("*** Update File: a.txt", "@@", " b", "+c", "*** End of File"),
    after: { "a.txt": "a\nb\nc" },
  },
  {
    name: "a byte-order mark survives a change to the first line",
    files: { "a.txt": "\uFEFFfirst\nsecond\n" },
    patch: begin("*** Update File: a.txt", "-first", "+FIRST", " second"),
    after: { "a.txt": "\uFEFFFIRST\nsecond\n" },
  },
  // ---- Wrappers models put around patches ----
  {
    name: "fenced in ```",
    files: { "a.txt": "x\n" },
    patch: P("```", "*** Begin Patch", "*** Update File: a.txt", "-x", "+y", "*** End Patch", "```"),
    after: { "a.txt": "y\n" },
  },
  {
    name: "inside an apply_patch heredoc",
    files: { "a.txt": "x\n" },
    patch: P("apply_patch <<'EOF'", "*** Begin Patch", "*** Update File: a.txt", "-x", "+y", "*** End Patch", "EOF"),
    after: { "a.txt": "y\n" },
  },
  {
    name: "missing End Patch and blank edges",
    files: { "a.txt": "x\n" },
    patch: P("", "  ", "*** Begin Patch", "*** Update File: a.txt", "-x", "+y", "", ""),
    after: { "a.txt": "y\n" },
  },
  {
    name: "Codex patch with unified-style @@ headers",
    files: { "a.txt": "1\n2\n3\n" },
    patch: begin("*** Update File: a.txt", "@@ -2,1 +2,1 @@", "-2", "+two"),
    after: { "a.txt": "1\ntwo\n3\n" },
  },
  // ---- Unified diffs ----
  {
    name: "unified diff with a/ b/ prefixes",
    files: { "src/m.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n" },
    patch: P(
      "--- a/src/m.ts",
      "+++ b/src/m.ts",
      "@@ -1,3 +1,3 @@",
      " const a = 1;",
      "-const b = 2;",
      "+const b = 20;",
      " const c = 3;",
    ),
    after: { "src/m.ts": "const a = 1;\nconst b = 20;\nconst c = 3;\n" },
    result: "M src/m.ts (+1 -1)",
  },
  {
    name: "unified diff adds and deletes through /dev/null",
    files: { "gone.txt": "x\n" },
    patch: P(
      "--- /dev/null",
      "+++ b/new.txt",
      "@@ -0,0 +1,2 @@",
      "+n1",
      "+n2",
      "--- a/gone.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-x",
    ),
    after: { "new.txt": "n1\nn2\n" },
    result: "A new.txt (+2)\nD gone.txt",
  },
  {
    name: "unified diff with drifted line numbers",
    files: { "a.txt": "intro\nalpha\nbeta\ngamma\n" },
    patch: P("--- a/a.txt", "+++ b/a.txt", "@@ -40,3 +40,3 @@", " alpha", "-beta", "+BETA", " gamma"),
    after: { "a.txt": "intro\nalpha\nBETA\ngamma\n" },
  },
  {
    name: "unified line numbers choose between identical places",
    files: { "a.js": twoBlocks },
    patch: P("--- a/a.js", "+++ b/a.js", "@@ -6,1 +6,1 @@", "-  return 1;", "+  return 5;"),
    after: { "a.js": twoBlocks.replace("b() {\n  return 1;", "b() {\n  return 5;") },
  },
  {
    name: "unified: the drifted number still picks the nearest copy",
    files: { "a.txt": "x\ny\nfill\nfill\nfill\nx\ny\n" },
    patch: P("--- a/a.txt", "+++ b/a.txt", "@@ -9,2 +9,2 @@", " x", "-y", "+Y"),
    after: { "a.txt": "x\ny\nfill\nfill\nfill\nx\nY\n" },
  },
  {
    name: "unified: '\\ No newline' removes the final newline",
    files: { "a.txt": "a\nb\n" },
    patch: P("--- a/a.txt", "+++ b/a.txt", "@@ -1,2 +1,2 @@", " a", "-b", "+b", "\\ No newline at end of file"),
    after: { "a.txt": "a\nb" },
  },
  {
    name: "unified: '\\ No newline' on the old side adds the final newline",
    files: { "a.txt": "a\nb" },
    patch: P("--- a/a.txt", "+++ b/a.txt", "@@ -1,2 +1,2 @@", " a", "-b", "\\ No newline at end of file", "+b"),
    after: { "a.txt": "a\nb\n" },
  },
  {
    name: "unified: rename headers without hunks",
    files: { "a.txt": "same\n" },
    patch: P("diff --git a/a.txt b/d/b.txt", "similarity index 100%", "rename from a.txt", "rename to d/b.txt"),
    after: { "d/b.txt": "same\n" },
    result: "R a.txt -> d/b.txt",
  },
  {
    name: "unified: @@ function header works as an anchor",
    files: { "a.js": twoBlocks },
    patch: P("--- a/a.js", "+++ b/a.js", "@@ -1,1 +1,1 @@ function b() {", "-  return 1;", "+  return 7;"),
    after: { "a.js": twoBlocks.replace("b() {\n  return 1;", "b() {\n  return 7;") },
  },
  {
    name: "unified diff in a ```diff fence, CRLF file",
    files: { "w.txt": "one\r\ntwo\r\n" },
    patch: P("```diff", "--- a/w.txt", "+++ b/w.txt", "@@ -1,2 +1,2 @@", " one", "-two", "+zwei", "```"),
    after: { "w.txt": "one\r\nzwei\r\n" },
  },
  // ---- Errors: nothing may change ----
  {
    name: "ambiguous context",
    files: { "a.js": twoBlocks },
    patch: begin("*** Update File: a.js", "-  return 1;", "+  return 2;"),
    error: "hunk 1 of 1 matches 2 places (starting at lines 2, 6)",
  },
  {
    name: "missing context names file, hunk and lines",
    files: { "a.txt": "one\ntwo\n" },
    patch: begin("*** Update File: a.txt", " one", "-three", "+3"),
    error: "a.txt: hunk 1 of 1 not found: these lines are not in the file:\n  |one\n  |three",
  },
  {
    name: "all or nothing: the second file fails, the first is untouched",
    files: { "a.txt": "a\n", "b.txt": "b\n" },
    patch: begin("*** Update File: a.txt", "-a", "+A", "*** Update File: b.txt", "-nope", "+x"),
    error: "b.txt: hunk 1 of 1 not found",
  },
  {
    name: "add over an existing file",
    files: { "a.txt": "a\n" },
    patch: begin("*** Add File: a.txt", "+x"),
    error: "cannot add a.txt: it already exists",
  },
  {
    name: "update a missing file",
    files: {},
    patch: begin("*** Update File: no.txt", "-a", "+b"),
    error: "cannot update no.txt: it does not exist",
  },
  {
    name: "delete a missing file",
    files: {},
    patch: begin("*** Delete File: no.txt"),
    error: "cannot delete no.txt: it does not exist",
  },
  {
    name: "move onto an existing file",
    files: { "a.txt": "a\n", "b.txt": "b\n" },
    patch: begin("*** Update File: a.txt", "*** Move to: b.txt"),
    error: "cannot move a.txt to b.txt: b.txt already exists",
  },
  {
    name: "a directory is not a file",
    files: { "d/x.txt": "x\n" },
    patch: begin("*** Delete File: d"),
    error: "d is a directory",
  },
  {
    name: "a binary file is refused",
    files: {},
    setup: (d) =>
      fs.writeFile(join(d.ws, "img.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00])),
    patch: begin("*** Update File: img.png", "-x", "+y"),
    error: "binary file (PNG image)",
  },
  {
    name: "a malformed hunk line names its line",
    files: { "a.txt": "a\n" },
    patch: begin("*** Update File: a.txt", "@@", "a", "+b"),
    error: 'invalid patch, line 4: in the changes to "a.txt", every line must start with',
  },
  {
    name: "not a patch at all",
    files: {},
    patch: "please change foo to bar",
    error: 'line 1: expected "*** Begin Patch"',
  },
  // ---- The workspace boundary ----
  {
    name: "../ escapes are refused",
    files: {},
    patch: begin("*** Add File: ../evil.txt", "+x"),
    error: "outside the workspace",
  },
  {
    name: "absolute paths outside are refused",
    files: {},
    patch: (d) => begin(`*** Delete File: ${join(d.outside, "secret.txt")}`),
    error: "outside the workspace",
  },
  {
    name: "a symlink leading outside is refused",
    files: {},
    setup: (d) => fs.symlink(d.outside, join(d.ws, "link")),
    patch: begin("*** Update File: link/secret.txt", "-keep", "+pwned"),
    error: "outside the workspace",
  },
  {
    name: "a move out of the workspace is refused",
    files: { "a.txt": "a\n" },
    patch: (d) => begin("*** Update File: a.txt", `*** Move to: ${join(d.outside, "a.txt")}`),
    error: "outside the workspace",
  },
  {
    name: "a symlink inside the workspace is followed for updates and kept",
    files: { "real.txt": "a\n" },
    setup: (d) => fs.symlink("real.txt", join(d.ws, "alias.txt")),
    patch: begin("*** Update File: alias.txt", "-a", "+b"),
    after: { "real.txt": "b\n", "alias.txt": "-> real.txt" },
    result: "M alias.txt (+1 -1)",
  },
  // ---- Regressions of issue 15 (measured against Codex's apply-patch fixtures) ----
  {
    name: "issue 15: deleting a symlink removes the link, never its target",
    files: { "real.txt": "a\n" },
    setup: (d) => fs.symlink("real.txt", join(d.ws, "alias.txt")),
    patch: begin("*** Delete File: alias.txt"),
    after: { "real.txt": "a\n" },
    result: "D alias.txt (a symbolic link; its target real.txt is kept)",
  },
  {
    name: "issue 15: deleting a symlink to a file outside the workspace keeps that file",
    files: {},
    setup: (d) => fs.symlink(join(d.outside, "secret.txt"), join(d.ws, "out.txt")),
    patch: begin("*** Delete File: out.txt"),
    after: {},
  },
  {
    name: "issue 15: a dangling symlink can be deleted",
    files: { "keep.txt": "k\n" },
    setup: (d) => fs.symlink("missing.txt", join(d.ws, "dangling.txt")),
    patch: begin("*** Delete File: dangling.txt"),
    after: { "keep.txt": "k\n" },
  },
  {
    name: "issue 15: a link deleted in a patch that fails elsewhere stays",
    files: { "real.txt": "a\n", "b.txt": "b\n" },
    setup: (d) => fs.symlink("real.txt", join(d.ws, "alias.txt")),
    patch: begin("*** Delete File: alias.txt", "*** Update File: b.txt", "@@", "-nope", "+x"),
    error: "hunk 1 of 1 not found",
  },
  {
    name: "issue 15: an @@ anchor that is not in the file is an error, not a guess",
    files: { "a.py": "def f():\n    x = 1\n\ndef g():\n    x = 1\n" },
    patch: begin("*** Update File: a.py", "@@ def h():", "-    x = 1", "+    x = 2"),
    error: 'the anchor line "@@ def h():" is not in the file',
  },
  {
    name: "issue 15: a missing anchor in the second file leaves the first file unchanged",
    files: { "a.txt": "one\n", "b.py": "def f():\n    pass\n" },
    patch: begin(
      "*** Update File: a.txt",
      "@@",
      "-one",
      "+ONE",
      "*** Update File: b.py",
      "@@ def nothere():",
      "-    pass",
      "+    return 1",
    ),
    error: "is not in the file",
  },
  {
    name: "issue 15: an anchor that is there still picks the place after it",
    files: { "a.py": "def f():\n    x = 1\n\ndef g():\n    x = 1\n" },
    patch: begin("*** Update File: a.py", "@@ def g():", "-    x = 1", "+    x = 2"),
    after: { "a.py": "def f():\n    x = 1\n\ndef g():\n    x = 2\n" },
  },
  {
    name: "issue 15: two identical hunks without anchors change successive occurrences",
    files: { "a.txt": "x\ny\nx\ny\n" },
    patch: begin("*** Update File: a.txt", "@@", "-x", "+z", "@@", "-x", "+z"),
    after: { "a.txt": "z\ny\nz\ny\n" },
  },
  {
    name: "issue 15: three identical hunks for three occurrences, in order",
    files: { "a.txt": "v=1\n--\nv=1\n--\nv=1\n" },
    patch: begin("*** Update File: a.txt", "@@", " v=1", "+a", "@@", " v=1", "+b", "@@", " v=1", "+c"),
    after: { "a.txt": "v=1\na\n--\nv=1\nb\n--\nv=1\nc\n" },
  },
  {
    name: "issue 15: fewer identical hunks than occurrences is still ambiguous",
    files: { "a.txt": "x\nx\nx\n" },
    patch: begin("*** Update File: a.txt", "@@", "-x", "+z", "@@", "-x", "+z"),
    error: "matches 3 places",
  },
  {
    name: "issue 15: an Update File header with leading spaces is accepted",
    files: { "a.txt": "one\n" },
    patch: P("*** Begin Patch", "  *** Update File: a.txt", "@@", "-one", "+two", "*** End Patch"),
    after: { "a.txt": "two\n" },
  },
  {
    name: "issue 15: Add and Delete headers with leading spaces are accepted too",
    files: { "gone.txt": "g\n" },
    patch: P("*** Begin Patch", "\t*** Add File: new.txt", "+n", " *** Delete File: gone.txt", "*** End Patch"),
    after: { "new.txt": "n\n" },
  },
  {
    name: "issue 15: a blank line after *** End of File is ignored",
    files: { "tail.txt": "first\nsecond\n" },
    patch: P(
      "*** Begin Patch",
      "*** Update File: tail.txt",
      "@@",
      " first",
      "-second",
      "+second updated",
      "*** End of File",
      "",
      "*** End Patch",
    ),
    after: { "tail.txt": "first\nsecond updated\n" },
  },
  {
    name: "issue 15: blank lines between End of File and the next file are ignored",
    files: { "a.txt": "a\n", "b.txt": "b\n" },
    patch: P(
      "*** Begin Patch",
      "*** Update File: a.txt",
      "-a",
      "+A",
      "*** End of File",
      "",
      "",
      "*** Update File: b.txt",
      "-b",
      "+B",
      "*** End Patch",
    ),
    after: { "a.txt": "A\n", "b.txt": "B\n" },
  },
  {
    name: "issue 36: a hunk line whose text is a file header is context, not a new file",
    files: { "a.txt": "Patch notes:\n*** Update File: b.txt\nold\n" },
    patch: begin("*** Update File: a.txt", "@@", " Patch notes:", " *** Update File: b.txt", "-old", "+new"),
    after: { "a.txt": "Patch notes:\n*** Update File: b.txt\nnew\n" },
  },
  {
    name: "issue 36: a patch without *** Begin Patch is refused",
    files: { "a.txt": "old\n" },
    patch: P("*** Update File: a.txt", "@@", "-old", "+new", "*** End Patch"),
    error: 'missing "*** Begin Patch"',
  },
  {
    name: "unified diff: a/../ escapes are refused",
    files: {},
    patch: P("--- /dev/null", "+++ b/../evil.txt", "@@ -0,0 +1 @@", "+x"),
    error: "outside the workspace",
  },
];

describe("apply_patch scenarios", () => {
  it.each(scenarios.map((s) => [s.name, s] as const))("%s", async (_name, s) => {
    await writeTree(dirs.ws, s.files);
    await s.setup?.(dirs);
    const before = await readTree(dirs.ws);
    const patch = typeof s.patch === "string" ? s.patch : s.patch(dirs);
    if (s.error !== undefined) {
      const failure = await runPatch(patch).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ToolError);
      expect((failure as ToolError).message).toContain(s.error);
      expect((failure as ToolError).message).toContain("No file was changed.");
      expect(await readTree(dirs.ws)).toEqual(before);
      expect(await fs.readFile(join(dirs.outside, "secret.txt"), "utf8")).toBe("keep\n");
      return;
    }
    const result = await runPatch(patch);
    expect(await readTree(dirs.ws)).toEqual(s.after);
    if (s.result !== undefined) expect(result).toBe(s.result);
  });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.autocrlf=false", ...args], {
    cwd,
    encoding: "utf8",
  });
}

describe("apply_patch with real git diffs", () => {
  const original: Tree = {
    "src/app.ts": Array.from({ length: 40 }, (_, i) => `line ${i + 1};`).join("\n") + "\n",
    "notes.md": "# Notes\n\nkeep me\n",
    "gone.txt": "delete me\n",
    "tail.txt": "no newline",
  };

  async function editAndDiff(edit: () => Promise<void>, diffArgs: string[]): Promise<{ diff: string; expected: Tree }> {
    await writeTree(dirs.ws, original);
    git(dirs.ws, "init", "-q");
    git(dirs.ws, "add", "-A");
    git(dirs.ws, "commit", "-qm", "base");
    await edit();
    const diff = git(dirs.ws, "diff", ...diffArgs);
    const expected = await readTree(dirs.ws);
    git(dirs.ws, "reset", "-q", "--hard");
    git(dirs.ws, "clean", "-qfd");
    expect(await readTree(dirs.ws)).toEqual(original);
    return { diff, expected };
  }

  it("applies `git diff` output: several hunks, add, delete, final newline", async () => {
    const { diff, expected } = await editAndDiff(async () => {
      const app = original["src/app.ts"]!.replace("line 3;\n", "line three;\nextra;\n")
        .replace("line 30;\n", "")
        .replace("line 40;\n", "line 40;\nline 41;\n");
      await fs.writeFile(join(dirs.ws, "src/app.ts"), app);
      await fs.writeFile(join(dirs.ws, "tail.txt"), "no newline\nnow has one\n");
      await fs.rm(join(dirs.ws, "gone.txt"));
      await writeTree(dirs.ws, { "added/new.md": "fresh\nfile\n" });
      git(dirs.ws, "add", "-N", "added/new.md");
    }, []);
    expect(diff).toContain("@@ -1,6 +1,7 @@");
    expect(diff).toContain("\\ No newline at end of file");
    const result = await runPatch(diff);
    expect(await readTree(dirs.ws)).toEqual(expected);
    expect(result.split("\n").sort()).toEqual([
      "A added/new.md (+2)",
      "D gone.txt",
      "M src/app.ts (+3 -2)",
      "M tail.txt (+1 -0)",
    ]);
  });

  it("applies a staged rename with changes (`git diff --cached -M`)", async () => {
    const { diff, expected } = await editAndDiff(async () => {
      await fs.mkdir(join(dirs.ws, "lib"));
      git(dirs.ws, "mv", "src/app.ts", "lib/main.ts");
      const moved = join(dirs.ws, "lib/main.ts");
      await fs.writeFile(moved, (await fs.readFile(moved, "utf8")).replace("line 20;", "line twenty;"));
      git(dirs.ws, "add", "-A");
    }, ["--cached", "-M"]);
    expect(diff).toContain("rename from src/app.ts");
    expect(await runPatch(diff)).toBe("R src/app.ts -> lib/main.ts (+1 -1)");
    expect(await readTree(dirs.ws)).toEqual(expected);
  });

  it("applies a diff whose line numbers drifted after the file grew", async () => {
    const { diff, expected } = await editAndDiff(async () => {
      await fs.writeFile(join(dirs.ws, "src/app.ts"), original["src/app.ts"]!.replace("line 25;", "line 25 changed;"));
    }, []);
    // Someone added lines at the top meanwhile: the hunk is now 3 lines lower than the diff says.
    const grown = `a;\nb;\nc;\n${original["src/app.ts"]!}`;
    await fs.writeFile(join(dirs.ws, "src/app.ts"), grown);
    await runPatch(diff);
    expect(await fs.readFile(join(dirs.ws, "src/app.ts"), "utf8")).toBe(`a;\nb;\nc;\n${expected["src/app.ts"]!}`);
  });
});

describe("apply_patch writing", () => {
  it("restores written files when a later write fails", async () => {
    await writeTree(dirs.ws, { "a.txt": "a\n", blocker: "I am a file\n" });
    const patch = begin(
      "*** Update File: a.txt",
      "-a",
      "+A",
      "*** Add File: fresh/new.txt",
      "+n",
      "*** Add File: blocker/x.txt",
      "+x",
    );
    const failure = await runPatch(patch).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ToolError);
    expect((failure as ToolError).message).toMatch(
      /^cannot write blocker\/x\.txt: .*No file was changed: the 2 file\(s\) already written were restored\./,
    );
    // The new directory made for fresh/new.txt is gone too.
    expect(await readTree(dirs.ws)).toEqual({ "a.txt": "a\n", blocker: "I am a file\n" });
    expect(await fs.readdir(dirs.ws)).toEqual(expect.not.arrayContaining(["fresh"]));
  });

  it("writes nothing when the turn was stopped before writing", async () => {
    await writeTree(dirs.ws, { "a.txt": "a\n" });
    const stop = new AbortController();
    stop.abort();
    await expect(runPatch(begin("*** Update File: a.txt", "-a", "+b"), stop.signal)).rejects.toThrow(/abort/i);
    expect(await readTree(dirs.ws)).toEqual({ "a.txt": "a\n" });
  });

  it("keeps the permission bits of an updated file", async () => {
    await writeTree(dirs.ws, { "run.sh": "echo a\n" });
    await fs.chmod(join(dirs.ws, "run.sh"), 0o755);
    await runPatch(begin("*** Update File: run.sh", "-echo a", "+echo b"));
    expect((await fs.stat(join(dirs.ws, "run.sh"))).mode & 0o777).toBe(0o755);
    expect(await fs.readFile(join(dirs.ws, "run.sh"), "utf8")).toBe("echo b\n");
  });

  it("treats two spellings of one file as the same file", async () => {
    await writeTree(dirs.ws, { "a.txt": "1\n2\n" });
    await runPatch(
      begin(
        "*** Update File: a.txt",
        "-1",
        "+one",
        " 2",
        `*** Update File: ${join(dirs.ws, "a.txt")}`,
        " one",
        "-2",
        "+two",
      ),
    );
    expect(await readTree(dirs.ws)).toEqual({ "a.txt": "one\ntwo\n" });
  });
});

describe("apply_patch as a tool", () => {
  it("summarizes the files a patch touches", () => {
    const patch = begin(
      "*** Add File: a.txt",
      "+a",
      "*** Delete File: b.txt",
      "*** Update File: c.txt",
      "*** Move to: d.txt",
      "*** Delete File: e.txt",
    );
    expect(applyPatchTool.summarize({ patch })).toBe("4 files: a.txt, b.txt, c.txt -> d.txt, +1 more");
    expect(applyPatchTool.summarize({ patch: begin("*** Delete File: x") })).toBe("1 file: x");
    expect(applyPatchTool.summarize({ patch: "nonsense" })).toBe("invalid patch");
  });

  it("reports a failed hunk to the model as an error result through the registry", async () => {
    await writeTree(dirs.ws, { "a.txt": "a\n" });
    const registry = new ToolRegistry([applyPatchTool]);
    const events: string[] = [];
    const result = await registry.execute(
      {
        id: "c1",
        name: "apply_patch",
        arguments: JSON.stringify({ patch: begin("*** Update File: a.txt", "-zzz", "+b") }),
      },
      {
        workspace: dirs.ws,
        taskId: "t",
        signal: new AbortController().signal,
        emit: (e) => events.push(e.type),
        gate: testGate(),
      },
    );
    expect(result.status).toBe("error");
    expect(result.forModel).toContain("a.txt: hunk 1 of 1 not found");
    // Found by the pre-check, before any approval question: the call never started.
    expect(events).toEqual(["tool.completed"]);
    expect(await readTree(dirs.ws)).toEqual({ "a.txt": "a\n" });
  });

  it("describes both formats to the model", () => {
    expect(applyPatchTool.kind).toBe("edit");
    expect(applyPatchTool.description).toContain("*** Begin Patch");
    expect(applyPatchTool.description).toContain("+++ b/path");
  });
});

#!/usr/bin/env node
// The maintainer's tool for our diffs to dependencies (patches/README.md):
//   check                          every diff against the installed packages, one line each
//   edit <pkg>[@v] [diff|file] [--from <old-version>] [--force]
//                                  copies to edit in .patches-edit/, the diffs applied
//   save <pkg>[@v] [diff] [--file <file>]
//                                  the edited copy written back as a diff in patches/
// `--root <dir>` works on another checkout (the tests use a temp copy with a fake package).
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { editPackage, savePackage } from "./patches-edit.mjs";
import { folderDiffs, headerUnwritten, installedCopies, PatchToolError, parseSpec } from "./patch-tree.mjs";
import { applyDiff, hunkLine, hunkMismatch } from "./unified-diff.mjs";

const USAGE = `usage: node scripts/patches.mjs [--root <dir>] <command>
  check                                 whether every diff of patches/ applies to the installed package
  edit <package>[@<version>] [<diff>|<file>] [--from <old-version>] [--force]
                                        copy the files the diffs touch, diffs applied, into .patches-edit/
  save <package>[@<version>] [<diff>] [--file <file>]
                                        write an edited copy back as patches/<package>@<version>/<diff>.diff
patches/README.md says how to upgrade a dependency with them.`;

/**
 * Contract: one line per diff of `root/patches` (`ok`, `FAIL` for a hunk that no longer applies or
 * a diff that cannot be read, `AFTER` for a diff on top of one that fails, `STALE` when the folder's
 * version is not installed, `HEADER` when the diff does not say why it exists) and whether all are ok.
 * What `npm run build` would hit, without building; it also lists every failing hunk, not the first.
 * @param {string} root
 */
export function check(root) {
  const folders = readdirSync(join(root, "patches"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const specs = folders.map((f) => ({ folder: f, ...parseSpec(f.replace("+", "/")) }));
  const copies = installedCopies(root, new Set(specs.map((s) => s.pkg)));
  const lines = [];
  const line = (status, name, detail) => lines.push({ status, text: `${status.padEnd(6)} ${name}: ${detail}` });
  const where = (dir) => relative(root, dir) || ".";
  for (const { folder, pkg, version } of specs) {
    const diffs = folderDiffs(root, folder);
    const all = copies.get(pkg);
    const mine = all.filter((c) => c.version === version);
    if (mine.length === 0) {
      const installed = all.map((c) => `${c.version} at ${where(c.dir)}`).join(", ") || "none";
      for (const d of diffs)
        line(
          "STALE",
          d.name,
          `${pkg}@${version} is not installed (installed: ${installed}); remake it for the installed version: npm run patches -- edit ${pkg} --from ${version}`,
        );
      continue;
    }
    const files = [...new Set(diffs.map((d) => d.diff?.file ?? null))];
    for (const d of diffs.filter((x) => x.error)) line("FAIL", d.name, d.error);
    for (const file of files.filter((f) => f !== null)) {
      const chain = diffs.filter((d) => d.diff?.file === file);
      /** diff name -> first problem seen at any copy */
      const problems = new Map();
      for (const copy of mine) {
        let text;
        try {
          text = readFileSync(join(copy.dir, file), "utf8");
        } catch {
          for (const d of chain)
            problems.set(
              d.name,
              problems.get(d.name) ?? ["FAIL", `${file} is not in ${pkg} ${version} at ${where(copy.dir)}`],
            );
          continue;
        }
        let broken = null;
        for (const d of chain) {
          if (broken) {
            problems.set(
              d.name,
              problems.get(d.name) ?? ["AFTER", `not checked: it applies on top of ${broken}, which does not apply`],
            );
            continue;
          }
          const failures = hunkFailures(text, d.diff);
          if (failures.length === 0) {
            text = applyDiff(text, d.diff, d.name);
            continue;
          }
          broken = d.name.split("/").at(-1);
          const at = mine.length > 1 ? ` (${pkg} at ${where(copy.dir)})` : "";
          problems.set(d.name, problems.get(d.name) ?? ["FAIL", `${file}${at}: ${failures.join("; ")}`]);
        }
      }
      for (const d of chain) {
        const problem = problems.get(d.name);
        if (problem) line(problem[0], d.name, problem[1]);
        else if (headerUnwritten(d.diff.header))
          line(
            "HEADER",
            d.name,
            "applies, but its header does not say why it exists, what it saves and which test shows it",
          );
        else line("ok", d.name, `${file}, ${d.diff.hunks.length} hunk${d.diff.hunks.length === 1 ? "" : "s"}`);
      }
    }
  }
  return { lines: lines.map((l) => l.text), ok: lines.every((l) => l.status === "ok") };
}

/** Every hunk of `diff` that does not apply to `text`, as "hunk n of m (@@ ... @@) why". */
function hunkFailures(text, diff) {
  const lines = text.split("\n");
  const finalNewline = lines.at(-1) === "";
  if (finalNewline) lines.pop();
  const failures = [];
  let from = 0;
  for (const [n, hunk] of diff.hunks.entries()) {
    const why = hunkMismatch(lines, finalNewline, hunk, from);
    if (why) failures.push(`hunk ${n + 1} of ${diff.hunks.length} (${hunk.at}) ${why}`);
    from = Math.max(from, hunkLine(hunk) + hunk.oldLines.length);
  }
  return failures;
}

/** Splits `argv` into words and `--flag value` options (`--force` takes none). */
function parseArgs(argv) {
  const words = [];
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--force") options.force = true;
    else if (a === "--root" || a === "--from" || a === "--file") {
      if (argv[i + 1] === undefined) throw new PatchToolError(`${a} needs a value\n${USAGE}`);
      options[a.slice(2)] = argv[++i];
    } else if (a.startsWith("-")) throw new PatchToolError(`unknown option ${a}\n${USAGE}`);
    else words.push(a);
  }
  return { words, options };
}

function main(argv) {
  const { words, options } = parseArgs(argv);
  const root = resolve(options.root ?? join(import.meta.dirname, ".."));
  const [command, ...rest] = words;
  if (command === "check" && rest.length === 0) {
    const { lines, ok } = check(root);
    for (const l of lines) console.log(l);
    const bad = lines.filter((l) => !l.startsWith("ok ")).length;
    console.log(
      ok
        ? `${lines.length} diffs apply to the installed packages`
        : `${bad} of ${lines.length} diffs need work (npm run build fails on FAIL, AFTER and STALE; patches/README.md says how to remake one)`,
    );
    return ok ? 0 : 1;
  }
  if (command === "edit" && (rest.length === 1 || rest.length === 2)) {
    for (const l of editPackage(root, rest[0], rest[1], options)) console.log(l);
    return 0;
  }
  if (command === "save" && (rest.length === 1 || rest.length === 2)) {
    for (const l of savePackage(root, rest[0], rest[1], options)) console.log(l);
    return 0;
  }
  throw new PatchToolError(USAGE);
}

// Run as a program (Node gives the module its real path; argv may name it through a symlink).
if (process.argv[1] && import.meta.filename === realpathSync(process.argv[1])) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof PatchToolError)) throw error;
    console.error(`patches: ${error.message}`);
    process.exitCode = 1;
  }
}

// What the maintainer's tool for patches/ (scripts/patches.mjs) reads and computes: the installed
// copies of a package, one folder's diffs, a diff moved onto a changed file hunk by hunk, and a new
// diff between two texts. The build's strict applier stays in scripts/unified-diff.mjs.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { applyOrder } from "./dep-patches.mjs";
import { hunkLine, parseDiff } from "./unified-diff.mjs";

/** A bad command line or a state the tool will not act on: printed without a stack, exit 1. */
export class PatchToolError extends Error {}

/** `@scope/name` + `1.2.3` -> `@scope+name@1.2.3`, the folder of patches/ for that version. */
export function folderOf(pkg, version) {
  return `${pkg.replace("/", "+")}@${version}`;
}

/** `ink@6.8.0` -> { pkg: "ink", version: "6.8.0" }; `@a/b` -> { pkg: "@a/b", version: null }. */
export function parseSpec(spec) {
  const at = spec.lastIndexOf("@");
  return at > 0 ? { pkg: spec.slice(0, at), version: spec.slice(at + 1) } : { pkg: spec, version: null };
}

export const sha = (text) => createHash("sha256").update(text).digest("hex");

/**
 * Every installed copy of each package in `names` under `root/node_modules`, nested ones included
 * (npm puts a second version under its dependant: wrap-ansi's own string-width), as
 * `name -> [{ dir, version }]`.
 * @param {string} root
 * @param {Set<string>} names
 */
export function installedCopies(root, names) {
  /** @type {Map<string, { dir: string, version: string }[]>} */
  const found = new Map([...names].map((n) => [n, []]));
  const seen = new Set();
  const visit = (dir, name) => {
    if (names.has(name)) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
        if (pkg.name === name && typeof pkg.version === "string") found.get(name).push({ dir, version: pkg.version });
      } catch {
        // not a package after all
      }
    }
    walk(join(dir, "node_modules"));
  };
  const walk = (modules) => {
    let real;
    try {
      real = realpathSync(modules);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || !(entry.isDirectory() || entry.isSymbolicLink())) continue;
      if (!entry.name.startsWith("@")) visit(join(modules, entry.name), entry.name);
      else
        for (const inner of readdirSync(join(modules, entry.name)))
          visit(join(modules, entry.name, inner), `${entry.name}/${inner}`);
    }
  };
  walk(join(root, "node_modules"));
  return found;
}

/**
 * The diffs of `patches/<folder>/` in the order they apply, each with its id (`2-cell-writer`),
 * text and parsed form, or the error that keeps it from being read.
 * @param {string} root
 * @param {string} folder
 */
export function folderDiffs(root, folder) {
  const dir = join(root, "patches", folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".diff"))
    .sort(applyOrder)
    .map((f) => {
      const name = `patches/${folder}/${f}`;
      const text = readFileSync(join(dir, f), "utf8");
      try {
        return { id: f.slice(0, -".diff".length), name, text, diff: parseDiff(text, name), error: null };
      } catch (error) {
        return { id: f.slice(0, -".diff".length), name, text, diff: null, error: error.message };
      }
    });
}

/** `2-cell-writer.diff` or `2-cell-writer` -> `2-cell-writer`. */
export const idOf = (name) => name.replace(/\.diff$/, "");

/** The raw text of each hunk of a diff file (its `@@` line and body), for a `.rej` file. */
export function rawHunks(text) {
  const lines = text.split("\n");
  const start = lines.findIndex((l, i) => l.startsWith("--- ") && lines[i + 1]?.startsWith("+++ "));
  const hunks = [];
  for (const line of lines.slice(start + 2)) {
    if (line.startsWith("@@ ")) hunks.push([line]);
    else hunks.at(-1)?.push(line);
  }
  return hunks.map((h) => `${h.join("\n").replace(/\n+$/, "")}\n`);
}

/**
 * Contract: `diff` moved onto `text`, hunk by hunk, for a maintainer after an upgrade (never used
 * by the build): each hunk goes where its removed and context lines stand in `text`, the nearest
 * place to its own line shifted by the hunks before it; a hunk whose lines are nowhere (or only
 * before the previous hunk's end) is left out and reported. Returns the text and, per hunk, the
 * line it went to (`offset` from where the diff said) or null.
 * @param {string} text
 * @param {ReturnType<typeof parseDiff>} diff
 */
export function transplant(text, diff) {
  const lines = text.split("\n");
  let finalNewline = lines.at(-1) === "";
  if (finalNewline) lines.pop();
  const out = [];
  const placed = [];
  let from = 0;
  let shift = 0;
  for (const hunk of diff.hunks) {
    const wanted = hunkLine(hunk) + shift;
    const n = hunk.oldLines.length;
    const fits = (p) =>
      hunk.oldLines.every((l, k) => lines[p + k] === l) &&
      (!hunk.oldNoEol || (p + n === lines.length && !finalNewline));
    let best = null;
    if (n === 0) best = wanted >= from && wanted <= lines.length ? wanted : null;
    else
      for (let p = from; p + n <= lines.length; p++)
        if (fits(p) && (best === null || Math.abs(p - wanted) < Math.abs(best - wanted))) best = p;
    if (best === null) {
      placed.push(null);
      continue;
    }
    placed.push({ line: best + 1, offset: best - hunkLine(hunk) - shift });
    shift = best - hunkLine(hunk);
    out.push(...lines.slice(from, best), ...hunk.newLines);
    from = best + n;
    if (hunk.newNoEol) finalNewline = false;
    else if (hunk.oldNoEol) finalNewline = true;
  }
  out.push(...lines.slice(from));
  return { text: out.join("\n") + (finalNewline ? "\n" : ""), placed };
}

/**
 * Contract: the unified diff (from its `--- a/` line, `context` lines of context) that turns
 * `before` into `after`, for `file` inside its package. The line diff is the `diff` package's, a
 * dependency the program already has (src/ui/render/diff.ts); the result is checked with our
 * applier by the caller before it is written.
 */
export function makeDiff(before, after, file, context = 3) {
  return createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, {
    context,
    headerOptions: FILE_HEADERS_ONLY,
  });
}

/**
 * The lines of context a diff was written with (the most any hunk has before or after its changes),
 * so a remade diff keeps it: yoga's minified lines are diffed with one line, not three.
 * @param {ReturnType<typeof parseDiff>} diff
 */
export function contextOf(diff) {
  let most = 0;
  for (const { oldLines: a, newLines: b } of diff.hunks) {
    let head = 0;
    while (head < a.length && head < b.length && a[head] === b[head]) head++;
    let tail = 0;
    while (tail < a.length - head && tail < b.length - head && a.at(-1 - tail) === b.at(-1 - tail)) tail++;
    most = Math.max(most, head, tail);
  }
  return Math.min(most, 3) || 3;
}

/** The header a new diff gets: `check` fails while any of these placeholders is left in it. */
export const HEADER_TEMPLATE = [
  "Why: <what the package does, why we change it; the upstream issue if there is one>",
  "Measured: <the figure it saves or the bug it fixes, and the command that shows it>",
  "Test: <the test that fails without this diff>",
].join("\n");

/** Whether a diff's header still lacks its reason, figure or test (empty, or the template's placeholders). */
export function headerUnwritten(header) {
  return (
    header.trim() === "" || HEADER_TEMPLATE.split("\n").some((line) => header.includes(line.slice(line.indexOf("<"))))
  );
}

// Unified diffs (as `diff -u` and `git diff` write them) parsed and applied strictly: every hunk
// at the line its header names (shifted only by the hunks before it), its context and removed
// lines exactly as in the file, no fuzz and no search. Used for the dependency patches
// (scripts/dep-patches.mjs), where a hunk that no longer matches must fail the build, not land
// somewhere else.

/**
 * Contract: `parseDiff` reads one file's diff. Text before the `--- ` line is the diff's header
 * (its reason, for people) and is skipped. Throws, naming `name`, on a diff it cannot read.
 * @param {string} text
 * @param {string} name the diff's name in errors
 * @returns {{ file: string, header: string, hunks: { at: string, oldStart: number, oldLines: string[], newLines: string[], oldNoEol: boolean, newNoEol: boolean }[] }}
 */
export function parseDiff(text, name) {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const start = lines.findIndex((l, i) => l.startsWith("--- ") && lines[i + 1]?.startsWith("+++ "));
  if (start < 0) throw new Error(`${name}: no "--- a/file" and "+++ b/file" lines: not a unified diff`);
  const file = fileOf(lines[start + 1].slice(4));
  if (fileOf(lines[start].slice(4)) !== file)
    throw new Error(`${name}: one diff, one file: "${lines[start]}" and "${lines[start + 1]}" differ`);
  const hunks = [];
  let i = start + 2;
  while (i < lines.length) {
    const at = lines[i];
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(at);
    if (!m) throw new Error(`${name}: line ${i + 1}: expected a hunk header "@@ -l,n +l,n @@", found ${quote(at)}`);
    const oldCount = m[2] === undefined ? 1 : Number(m[2]);
    const newCount = m[4] === undefined ? 1 : Number(m[4]);
    const hunk = { at: at.slice(0, at.lastIndexOf("@@") + 2), oldStart: Number(m[1]), oldLines: [], newLines: [] };
    hunk.oldNoEol = false;
    hunk.newNoEol = false;
    i++;
    let last = "";
    while (
      i < lines.length &&
      (hunk.oldLines.length < oldCount || hunk.newLines.length < newCount || lines[i][0] === "\\")
    ) {
      const line = lines[i];
      const kind = line[0];
      if (kind === "\\") {
        // "\ No newline at end of file": the line before it is its file's last, without "\n".
        if (last === " " || last === "-") hunk.oldNoEol = true;
        if (last === " " || last === "+") hunk.newNoEol = true;
      } else if (kind === " " || kind === "-" || kind === "+") {
        if (kind !== "+") hunk.oldLines.push(line.slice(1));
        if (kind !== "-") hunk.newLines.push(line.slice(1));
        last = kind;
      } else if (line === "") {
        // Some tools drop the space of an empty context line.
        hunk.oldLines.push("");
        hunk.newLines.push("");
        last = " ";
      } else throw new Error(`${name}: ${hunk.at}: line ${i + 1} is neither context, removal nor addition`);
      i++;
    }
    if (hunk.oldLines.length !== oldCount || hunk.newLines.length !== newCount)
      throw new Error(
        `${name}: ${hunk.at} announces ${oldCount} old and ${newCount} new lines, holds ${hunk.oldLines.length} and ${hunk.newLines.length}`,
      );
    hunks.push(hunk);
  }
  if (hunks.length === 0) throw new Error(`${name}: no hunks`);
  return { file, header: lines.slice(0, start).join("\n").trim(), hunks };
}

/**
 * Contract: returns `text` with every hunk of `diff` applied, or throws an error that names
 * `where` (the diff, the package and its version), the hunk, and the first line that differs.
 * @param {string} text
 * @param {ReturnType<typeof parseDiff>} diff
 * @param {string} where
 */
export function applyDiff(text, diff, where) {
  const lines = text.split("\n");
  let finalNewline = lines.at(-1) === "";
  if (finalNewline) lines.pop();
  const out = [];
  let from = 0;
  for (const [n, hunk] of diff.hunks.entries()) {
    const why = hunkMismatch(lines, finalNewline, hunk, from);
    if (why) throw new Error(`${where}: hunk ${n + 1} of ${diff.hunks.length} (${hunk.at}) ${why}`);
    const at = hunkLine(hunk);
    out.push(...lines.slice(from, at), ...hunk.newLines);
    from = at + hunk.oldLines.length;
    if (hunk.newNoEol) finalNewline = false;
    else if (hunk.oldNoEol) finalNewline = true;
  }
  out.push(...lines.slice(from));
  return out.join("\n") + (finalNewline ? "\n" : "");
}

/** The index in the file's lines where `hunk` starts: a pure insertion (`-l,0`) goes after line l. */
export function hunkLine(hunk) {
  return hunk.oldLines.length === 0 ? hunk.oldStart : hunk.oldStart - 1;
}

/**
 * Contract: why `hunk` does not apply to `lines` (a file's lines, its last newline split off:
 * `finalNewline` says whether it had one), or null when it does. `from` is the first line the hunks
 * before it left alone. The hunks of a diff sit at fixed lines, so each can be checked alone
 * (scripts/patches.mjs reports every hunk that fails, not only the first).
 * @param {string[]} lines
 * @param {boolean} finalNewline
 * @param {ReturnType<typeof parseDiff>["hunks"][number]} hunk
 * @param {number} from
 * @returns {string | null}
 */
export function hunkMismatch(lines, finalNewline, hunk, from) {
  const at = hunkLine(hunk);
  if (at < from) return "overlaps the hunk before it";
  if (at + hunk.oldLines.length > lines.length)
    return `no longer applies: it reads lines ${at + 1}-${at + hunk.oldLines.length}, the file has ${lines.length}`;
  for (const [k, expected] of hunk.oldLines.entries())
    if (lines[at + k] !== expected)
      return `no longer applies: line ${at + k + 1} reads ${quote(lines[at + k])} where the diff expects ${quote(expected)}`;
  if (hunk.oldNoEol && (finalNewline || at + hunk.oldLines.length !== lines.length))
    return "no longer applies: it ends at the file's last line, without a newline; the file does not";
  return null;
}

/** `a/build/output.js` -> `build/output.js` (a `diff -u` label may carry a date after a tab). */
function fileOf(label) {
  return label.split("\t")[0].replace(/^[ab]\//, "");
}

function quote(s) {
  return JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}...` : s);
}

// Applying parsed hunks to one file's text. Hunks are found by content (exactly, then with looser
// whitespace and punctuation), never by trusting line numbers; line endings and final newline are kept.
import { ToolError } from "./define.js";
import type { Hunk } from "./patch-parse.js";

/** The new text, and how many lines were added and removed (context lines not counted). */
export interface PatchResult {
  text: string;
  added: number;
  removed: number;
}

/** A file split into lines, each with its own terminator, so untouched lines keep theirs. */
interface Doc {
  lines: string[];
  eols: string[];
  /** The file's dominant line ending, given to new lines. */
  eol: string;
  finalNewline: boolean;
}

/** One planned change, in original line coordinates. */
interface Edit {
  at: number;
  length: number;
  hunk: Hunk;
}

type Normalise = (s: string) => string;

/** Looser and looser comparisons: exact, trailing whitespace, all edge whitespace, typographic punctuation. */
const levels: Normalise[] = [(s) => s, (s) => s.trimEnd(), (s) => s.trim(), (s) => plainPunctuation(s.trim())];

function plainPunctuation(s: string): string {
  return s
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\u2026/g, "...")
    .replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, " ");
}

function splitDoc(text: string): Doc {
  const lines: string[] = [];
  const eols: string[] = [];
  let crlf = 0;
  let lf = 0;
  let pos = 0;
  for (const m of text.matchAll(/\r?\n/g)) {
    lines.push(text.slice(pos, m.index));
    eols.push(m[0]);
    if (m[0] === "\r\n") crlf++;
    else lf++;
    pos = m.index + m[0].length;
  }
  if (pos < text.length) {
    lines.push(text.slice(pos));
    eols.push("");
  }
  // An empty file counts as ending with a newline, so lines added to it get one.
  return { lines, eols, eol: crlf > lf ? "\r\n" : "\n", finalNewline: text === "" || text.endsWith("\n") };
}

/**
 * Contract: returns the file text with every hunk applied, or throws a ToolError naming `path`, the
 * hunk number and the lines that could not be found. Never partially applies.
 */
export function applyHunks(text: string, hunks: readonly Hunk[], path: string): PatchResult {
  const doc = splitDoc(text);
  const finder = new Finder(doc.lines);
  const edits: Edit[] = [];
  let cursor = 0;
  hunks.forEach((hunk, index) => {
    const label = `${path}: hunk ${index + 1} of ${hunks.length}`;
    // Identical hunks later in the patch take the next occurrences, as the search goes on after
    // each hunk: with as many copies as places left, the first place is this hunk's.
    const copies = hunks.slice(index).filter((h) => sameHunk(h, hunk)).length;
    const edit =
      locate(finder, hunk, cursor, edits, label, copies) ??
      locate(finder, trimBlankContext(hunk), cursor, edits, label, copies);
    if (!edit) throw new ToolError(notFound(finder, doc.lines, hunk, label));
    edits.push(edit);
    cursor = edit.at + edit.length;
  });
  edits.sort((a, b) => a.at - b.at || a.length - b.length);

  const outLines: string[] = [];
  const outEols: string[] = [];
  let added = 0;
  let removed = 0;
  let pos = 0;
  for (const { at, length, hunk } of edits) {
    for (; pos < at; pos++) {
      outLines.push(doc.lines[pos]!);
      outEols.push(doc.eols[pos]!);
    }
    // Lines the hunk keeps take the file's own text and ending, which may differ in whitespace.
    const kept = alignKept(hunk.oldLines, hunk.newLines);
    hunk.newLines.forEach((line, j) => {
      const k = kept[j] ?? -1;
      outLines.push(k >= 0 ? doc.lines[at + k]! : line);
      outEols.push(k >= 0 ? doc.eols[at + k]! : doc.eol);
    });
    const keptCount = kept.filter((k) => k >= 0).length;
    added += hunk.newLines.length - keptCount;
    removed += hunk.oldLines.length - keptCount;
    // An insertion that landed inside a replaced block goes after it, never re-emitting lines.
    pos = Math.max(pos, at + length);
  }
  for (; pos < doc.lines.length; pos++) {
    outLines.push(doc.lines[pos]!);
    outEols.push(doc.eols[pos]!);
  }

  const stated = hunks.find((h) => h.finalNewline !== undefined)?.finalNewline;
  const finalNewline = stated ?? doc.finalNewline;
  const last = outLines.length - 1;
  const body = outLines.map((line, i) => {
    const eol = outEols[i] ?? "";
    if (i < last) return line + (eol || doc.eol);
    return line + (finalNewline ? eol || doc.eol : "");
  });
  return { text: body.join(""), added, removed };
}

const sameHunk = (a: Hunk, b: Hunk): boolean =>
  a.anchor === b.anchor &&
  a.hintLine === b.hintLine &&
  a.oldLines.length === b.oldLines.length &&
  a.oldLines.every((l, k) => l === b.oldLines[k]);

/**
 * Finds where a hunk goes: after its anchors, after the previous hunk, then anywhere free.
 * `copies` counts this hunk and the identical ones after it in the patch.
 */
function locate(
  finder: Finder,
  hunk: Hunk,
  cursor: number,
  taken: readonly Edit[],
  label: string,
  copies = 1,
): Edit | null {
  const old = hunk.oldLines;
  let from = cursor;
  let anchorAt: number | null = null;
  for (const anchor of [...(hunk.outerAnchors ?? []), ...(hunk.anchor !== undefined ? [hunk.anchor] : [])]) {
    // After the previous hunk first, then anywhere: anchors may come in any order.
    const found = [finder.line(anchor, from), finder.line(anchor, 0)].find((at) => at >= 0) ?? -1;
    if (found < 0) {
      // A Codex `@@ line` names a line the change comes after; applying the hunk elsewhere would be
      // a silent guess. git's truncated function name after `@@ -1,2 +1,2 @@` is only a hint.
      if (hunk.anchorRequired)
        throw new ToolError(
          `${label}: the anchor line "@@ ${anchor}" is not in the file. Read the file again and copy the line exactly, or drop the anchor.`,
        );
      break;
    }
    anchorAt = found;
    from = found + 1;
  }
  const n = finder.length;
  if (old.length === 0) {
    let at = n;
    if (anchorAt !== null) at = anchorAt + 1;
    else if (hunk.hintLine !== undefined && !hunk.endOfFile) at = Math.min(Math.max(hunk.hintLine, 0), n);
    return { at, length: 0, hunk };
  }
  const hint = hunk.hintLine !== undefined ? hunk.hintLine - 1 : undefined;
  const free = (at: number): boolean => taken.every((e) => at + old.length <= e.at || at >= e.at + e.length);
  if (hunk.endOfFile) {
    const at = n - old.length;
    if (at >= cursor && free(at) && finder.matchesAt(old, at)) return { at, length: old.length, hunk };
  }
  const choose = (found: number[], firstWins: boolean): number | null => {
    if (found.length === 0) return null;
    if (hint !== undefined)
      return found.reduce((best, at) => (Math.abs(at - hint) < Math.abs(best - hint) ? at : best));
    if (found.length <= copies || firstWins) return found[0]!;
    const where = found
      .slice(0, 5)
      .map((at) => at + 1)
      .join(", ");
    throw new ToolError(
      `${label} matches ${found.length} places (starting at lines ${where}${found.length > 5 ? ", ..." : ""}). ` +
        `Add more unchanged context lines, or an "@@ <line above the change>" anchor line such as the enclosing function's signature, so it matches exactly one place.`,
    );
  };
  // After an anchor the first match is meant (the Codex reading of `@@ def f():`); a line number picks the nearest.
  const at =
    (anchorAt !== null ? choose(finder.matches(old, anchorAt, free), true) : null) ??
    choose(finder.matches(old, cursor, free), false) ??
    choose(finder.matches(old, 0, free), false);
  return at === null ? null : { at, length: old.length, hunk };
}

/** Searches lines under each comparison level in turn, caching the normalised file per level. */
class Finder {
  private readonly cache = new Map<number, string[]>();
  constructor(private readonly lines: readonly string[]) {}

  get length(): number {
    return this.lines.length;
  }

  private normalised(level: number): string[] {
    let out = this.cache.get(level);
    if (!out) {
      const norm = levels[level]!;
      out = this.lines.map((l) => norm(l));
      this.cache.set(level, out);
    }
    return out;
  }

  /** The first line at or after `from` equal to `text` under the loosest level that finds one. */
  line(text: string, from: number): number {
    for (let level = 0; level < levels.length; level++) {
      const want = levels[level]!(text);
      const at = this.normalised(level).indexOf(want, from);
      if (at >= 0) return at;
    }
    return -1;
  }

  matchesAt(pattern: readonly string[], at: number): boolean {
    return levels.some((norm, level) => this.matchAt(pattern.map(norm), this.normalised(level), at));
  }

  /** Every place for `pattern` at or after `from` (and `ok`), under the strictest level that has any. */
  matches(pattern: readonly string[], from: number, ok: (at: number) => boolean): number[] {
    for (let level = 0; level < levels.length; level++) {
      const want = pattern.map(levels[level]!);
      const lines = this.normalised(level);
      const found: number[] = [];
      for (let at = Math.max(from, 0); at + want.length <= lines.length; at++) {
        if (ok(at) && this.matchAt(want, lines, at)) found.push(at);
      }
      if (found.length > 0) return found;
    }
    return [];
  }

  private matchAt(want: readonly string[], lines: readonly string[], at: number): boolean {
    return at >= 0 && at + want.length <= lines.length && want.every((w, k) => lines[at + k] === w);
  }
}

/** The hunk without blank context at its edges, which models often add or drop around a change. */
function trimBlankContext(hunk: Hunk): Hunk {
  const oldLines = [...hunk.oldLines];
  const newLines = [...hunk.newLines];
  const blank = (a: string | undefined, b: string | undefined): boolean =>
    a !== undefined && b !== undefined && a.trim() === "" && b.trim() === "";
  while (oldLines.length > 1 && blank(oldLines[0], newLines[0])) {
    oldLines.shift();
    newLines.shift();
  }
  while (oldLines.length > 1 && blank(oldLines.at(-1), newLines.at(-1))) {
    oldLines.pop();
    newLines.pop();
  }
  return { ...hunk, oldLines, newLines };
}

/**
 * For each new line, the index of the old line it keeps (-1 for an added line): a longest common
 * subsequence, so context between changes is recognised wherever it sits in the hunk.
 */
function alignKept(oldLines: readonly string[], newLines: readonly string[]): number[] {
  const n = oldLines.length;
  const m = newLines.length;
  const kept = new Array<number>(m).fill(-1);
  if (n === 0 || m === 0) return kept;
  if (n * m > 4_000_000) return kept; // huge hunks: every line counts as changed, which is still correct text
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] =
        oldLines[i] === newLines[j]
          ? table[(i + 1) * width + j + 1]! + 1
          : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (oldLines[i] === newLines[j]) kept[j++] = i++;
    else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) i++;
    else j++;
  }
  return kept;
}

function notFound(finder: Finder, lines: readonly string[], hunk: Hunk, label: string): string {
  const shown = hunk.oldLines.slice(0, 6).map((l) => `  |${l}`);
  const more = hunk.oldLines.length > shown.length ? ` (the first ${shown.length} of ${hunk.oldLines.length})` : "";
  const first = hunk.oldLines.find((l) => l.trim() !== "");
  let clue = "";
  if (first !== undefined) {
    const at = lines.findIndex((l) => plainPunctuation(l.trim()) === plainPunctuation(first.trim()));
    clue =
      at >= 0
        ? `\nIts first line ${JSON.stringify(first.trim())} is at line ${at + 1}, but the lines after it differ from the patch.`
        : `\nEven its first line ${JSON.stringify(first.trim())} is not in the file.`;
  }
  // A model that retries a patch after a timeout often resends one that already went in.
  const changed = hunk.newLines.join("\n") !== hunk.oldLines.join("\n");
  if (changed && hunk.newLines.length > 0 && finder.matches(hunk.newLines, 0, () => true).length > 0) {
    clue += "\nIts new lines are already in the file: the change may have been applied before.";
  }
  return (
    `${label} not found: these lines${more} are not in the file:\n${shown.join("\n")}${clue}\n` +
    "Read the file again and copy the context and removed lines exactly."
  );
}

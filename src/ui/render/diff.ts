// The Changes view's content: unified hunks between two versions of a file, drawn as lines with
// an old/new line-number gutter and word-level highlights inside changed line pairs.
import type { ChalkInstance } from "chalk";
import { diffWordsWithSpace, structuredPatch, type StructuredPatch } from "diff";
import { expandTabs, padToWidth, truncateToWidth, wrapLine } from "./wrap.js";

/** One line of a hunk. */
export interface DiffLine {
  /** "note" is diff's "\ No newline at end of file". */
  kind: "context" | "add" | "del" | "note";
  text: string;
  /** 1-based line numbers in the old and new file, where the line exists. */
  oldNo?: number;
  newNo?: number;
}

/** A unified-diff hunk; a start is the line before the hunk when its range is empty. */
export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

/** What {@link diffFile} found. */
export type FileDiff =
  | { kind: "changes"; status: "modified" | "added" | "deleted"; hunks: DiffHunk[]; added: number; removed: number }
  | { kind: "identical" }
  | { kind: "binary" }
  /** Over {@link DIFF_LIMITS} (or the diff took too long): summarised, not diffed. */
  | { kind: "too-large"; bytes: number; lines: number };

/** Beyond these a diff is slow to compute and useless to read in a pane. */
export const DIFF_LIMITS = { bytes: 1_000_000, lines: 20_000, timeoutMs: 2_000 };
const CONTEXT = 3;
/** Below this share of unchanged characters a line pair is a rewrite: word highlights would be noise. */
const WORD_DIFF_MIN_COMMON = 0.3;

export type StyleFn = (s: string) => string;

/** The looks of the diff view; the app derives them from its theme. */
export interface DiffStyles {
  add: StyleFn;
  del: StyleFn;
  /** The changed words inside an added / removed line, drawn over `add` / `del`. */
  addWord: StyleFn;
  delWord: StyleFn;
  context: StyleFn;
  gutter: StyleFn;
  hunkHeader: StyleFn;
  /** The file line at the top. */
  header: StyleFn;
  /** Notes and summaries. */
  dim: StyleFn;
}

const id: StyleFn = (s) => s;

export const plainDiffStyles: DiffStyles = {
  add: id,
  del: id,
  addWord: id,
  delWord: id,
  context: id,
  gutter: id,
  hunkHeader: id,
  header: id,
  dim: id,
};

export function defaultDiffStyles(chalk: ChalkInstance): DiffStyles {
  return {
    add: chalk.green,
    del: chalk.red,
    addWord: chalk.inverse,
    delWord: chalk.inverse,
    context: id,
    gutter: chalk.dim,
    hunkHeader: chalk.cyan,
    header: chalk.bold,
    dim: chalk.dim,
  };
}

function toHunks(patch: StructuredPatch): DiffHunk[] {
  return patch.hunks.map((h) => {
    let oldNo = h.oldStart;
    let newNo = h.newStart;
    const lines = h.lines.map((raw): DiffLine => {
      const text = raw.slice(1).replace(/\r$/, "");
      switch (raw[0]) {
        case "+":
          return { kind: "add", text, newNo: newNo++ };
        case "-":
          return { kind: "del", text, oldNo: oldNo++ };
        case "\\":
          return { kind: "note", text: text.trim() };
        default:
          return { kind: "context", text, oldNo: oldNo++, newNo: newNo++ };
      }
    });
    // Unified-diff convention: an empty range starts at the line before it ("@@ -0,0 +1,2 @@").
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    return { oldStart, oldLines: h.oldLines, newStart, newLines: h.newLines, lines };
  });
}

/** Unified hunks with three lines of context. No size checks: see {@link diffFile}. */
export function diffLines(oldText: string, newText: string): DiffHunk[] {
  return toHunks(structuredPatch("a", "b", oldText, newText, undefined, undefined, { context: CONTEXT }));
}

function countLines(s: string): number {
  let n = s.length > 0 && !s.endsWith("\n") ? 1 : 0;
  for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

/** Diffs two versions of a file; `null` means the file does not exist on that side. */
export function diffFile(oldText: string | null, newText: string | null): FileDiff {
  if (oldText === newText) return { kind: "identical" };
  const before = oldText ?? "";
  const after = newText ?? "";
  if (before.slice(0, 8000).includes("\0") || after.slice(0, 8000).includes("\0")) return { kind: "binary" };
  const bytes = Math.max(Buffer.byteLength(before), Buffer.byteLength(after));
  const lines = Math.max(countLines(before), countLines(after));
  if (bytes > DIFF_LIMITS.bytes || lines > DIFF_LIMITS.lines) return { kind: "too-large", bytes, lines };
  const patch = structuredPatch("a", "b", before, after, undefined, undefined, {
    context: CONTEXT,
    timeout: DIFF_LIMITS.timeoutMs,
  });
  if (!patch) return { kind: "too-large", bytes, lines };
  const hunks = toHunks(patch);
  const status = oldText === null ? "added" : newText === null ? "deleted" : "modified";
  return { kind: "changes", status, hunks, ...countChanges(hunks) };
}

function countChanges(hunks: readonly DiffHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    for (const l of h.lines) {
      if (l.kind === "add") added++;
      else if (l.kind === "del") removed++;
    }
  }
  return { added, removed };
}

/** Options of {@link renderDiff}. */
export interface DiffRenderOptions {
  /** Columns available; every returned line fits. */
  width: number;
  styles: DiffStyles;
  /** Shown in the header line. */
  path: string;
}

/** The rendered view: `hunkStarts` are the indexes of the hunk header lines (for jumping). */
export interface RenderedDiff {
  lines: string[];
  hunkStarts: number[];
}

/**
 * Word highlights for a removed line followed by its added replacement; `null` when the lines
 * have too little in common for highlights to help.
 */
function wordPair(oldText: string, newText: string, styles: DiffStyles): { del: string; add: string } | null {
  const parts = diffWordsWithSpace(oldText, newText);
  let common = 0;
  for (const p of parts) if (!p.added && !p.removed) common += p.value.length;
  if (common < WORD_DIFF_MIN_COMMON * Math.max(oldText.length, newText.length)) return null;
  let del = "";
  let add = "";
  for (const p of parts) {
    if (p.removed) del += styles.delWord(p.value);
    else if (p.added) add += styles.addWord(p.value);
    else (del += p.value), (add += p.value);
  }
  return { del, add };
}

/** Shows control characters as their Unicode pictures: a file's ESC must not restyle the pane. */
function visibleControls(s: string): string {
  return s.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, (c) =>
    String.fromCharCode(c === "\x7f" ? 0x2421 : 0x2400 + c.charCodeAt(0)),
  );
}

/** The text of each line, with word highlights applied to paired removed/added lines. */
function styledTexts(hunk: DiffHunk, styles: DiffStyles): string[] {
  const out = hunk.lines.map((l) => visibleControls(expandTabs(l.text)));
  const { lines } = hunk;
  for (let i = 0; i < lines.length; ) {
    if (lines[i]?.kind !== "del") {
      i++;
      continue;
    }
    let dels = i;
    while (lines[dels]?.kind === "del") dels++;
    let adds = dels;
    while (lines[adds]?.kind === "add") adds++;
    // Pair the k-th removed line with the k-th added line of the same change.
    for (let k = 0; k < Math.min(dels - i, adds - dels); k++) {
      const pair = wordPair(out[i + k] ?? "", out[dels + k] ?? "", styles);
      if (pair) (out[i + k] = pair.del), (out[dels + k] = pair.add);
    }
    i = adds;
  }
  return out;
}

function summary(diff: FileDiff): string {
  switch (diff.kind) {
    case "identical":
      return "no changes";
    case "binary":
      return "binary file, not shown";
    case "too-large":
      return `too large to diff (${(diff.bytes / 1_000_000).toFixed(1)} MB, ${diff.lines.toLocaleString("en-US")} lines)`;
    case "changes":
      if (diff.hunks.length > 0) return "";
      return diff.status === "added"
        ? "new empty file"
        : diff.status === "deleted"
          ? "deleted empty file"
          : "no changes";
    default:
      return diff satisfies never;
  }
}

/** Draws hunks (or a whole {@link FileDiff}) to lines no wider than `opts.width`. */
export function renderDiff(input: FileDiff | DiffHunk[], opts: DiffRenderOptions): RenderedDiff {
  const { styles } = opts;
  const width = Math.max(1, Math.floor(opts.width));
  const diff: FileDiff = Array.isArray(input)
    ? { kind: "changes", status: "modified", hunks: input, ...countChanges(input) }
    : input;
  const lines: string[] = [];
  const hunkStarts: number[] = [];
  const fit = (s: string): string => truncateToWidth(s, width);
  const note = summary(diff);
  if (diff.kind !== "changes" || note !== "") {
    lines.push(fit(styles.header(opts.path)), fit(styles.dim(note)));
    return { lines, hunkStarts };
  }
  const { added, removed } = diff;
  const status = diff.status === "modified" ? "" : ` (${diff.status === "added" ? "new file" : "deleted"})`;
  lines.push(
    fit(`${styles.header(opts.path)}${styles.dim(status)} ${styles.add(`+${added}`)} ${styles.del(`-${removed}`)}`),
  );

  const maxNo = Math.max(...diff.hunks.map((h) => Math.max(h.oldStart + h.oldLines, h.newStart + h.newLines)));
  const digits = String(maxNo).length;
  // "old new " numbers, then the sign column; dropped to the sign alone in a very narrow pane.
  const numbered = width - (2 * digits + 2) >= 12;
  const gutterWidth = numbered ? 2 * digits + 2 : 0;
  const blankGutter = " ".repeat(gutterWidth);
  const room = Math.max(1, width - gutterWidth);
  for (const hunk of diff.hunks) {
    hunkStarts.push(lines.length);
    lines.push(fit(styles.hunkHeader(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`)));
    const texts = styledTexts(hunk, styles);
    hunk.lines.forEach((line, k) => {
      const text = texts[k] ?? line.text;
      const body =
        line.kind === "add"
          ? styles.add(`+ ${text}`)
          : line.kind === "del"
            ? styles.del(`- ${text}`)
            : line.kind === "note"
              ? styles.dim(`  ${text}`)
              : styles.context(`  ${text}`);
      const no = (n: number | undefined): string => padToWidth(n === undefined ? "" : String(n), digits, "right");
      const gutter = numbered ? styles.gutter(`${no(line.oldNo)} ${no(line.newNo)} `) : "";
      // Continuation lines start under the text, past the sign column.
      wrapLine(body, room, { indent: 2, tokens: true }).forEach((piece, p) =>
        lines.push((p === 0 ? gutter : blankGutter) + piece),
      );
    });
  }
  return { lines, hunkStarts };
}

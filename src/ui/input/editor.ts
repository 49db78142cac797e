// The multi-line composer's editing model: an immutable text-and-cursor value, the edits and
// cursor moves on it (grapheme-aware), and the soft-wrapped layout the composer renders.
import stringWidth from "string-width";
import type { Keymap } from "./keymap.js";

/** Columns a tab takes in the composer (no tab stops: the composer is not a code editor). */
const TAB_WIDTH = 4;

/** Immutable: every function returns a new state (or the same one when nothing changes). */
export interface EditorState {
  /** Never empty; no line contains "\n". */
  readonly lines: readonly string[];
  readonly line: number;
  /** Column in code points within `lines[line]`. */
  readonly col: number;
  /** Display column up/down aim for, kept across a run of vertical moves; null otherwise. */
  readonly goal: number | null;
}

interface Pos {
  line: number;
  col: number;
}

/** A grapheme with its size in code points and its display width. */
interface Seg {
  g: string;
  cps: number;
  width: number;
}

let segmenter: Intl.Segmenter | undefined;
function segments(line: string): Seg[] {
  if (/^[\x20-\x7e]*$/.test(line)) return line.split("").map((g) => ({ g, cps: 1, width: 1 }));
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(segmenter.segment(line), ({ segment: g }) => ({
    g,
    cps: Array.from(g).length,
    width: g === "\t" ? TAB_WIDTH : stringWidth(g),
  }));
}

const cpLength = (s: string) => Array.from(s).length;
const cpSlice = (s: string, start: number, end?: number) => Array.from(s).slice(start, end).join("");
/** Grapheme boundaries of a line, in code points: [0, ..., length]. */
function bounds(line: string): number[] {
  const out = [0];
  for (const s of segments(line)) out.push((out.at(-1) ?? 0) + s.cps);
  return out;
}
const lineAt = (s: EditorState, i: number) => s.lines[i] ?? "";
const isWordChar = (g: string) => /^[\p{L}\p{N}_]/u.test(g);

export function createEditor(text = ""): EditorState {
  const lines = sanitize(text).split("\n");
  const line = lines.length - 1;
  return { lines, line, col: cpLength(lines[line] ?? ""), goal: null };
}

export const editorText = (s: EditorState): string => s.lines.join("\n");
export const isEmpty = (s: EditorState): boolean => s.lines.length === 1 && s.lines[0] === "";
/** Up on the first line and down on the last walk the history instead of moving the cursor. */
export const isFirstLine = (s: EditorState): boolean => s.line === 0;
export const isLastLine = (s: EditorState): boolean => s.line === s.lines.length - 1;

/** CR/CRLF become \n; other control characters (pasted escape codes) would corrupt the screen. */
function sanitize(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, "");
}

/** Inserts typed or pasted text (multi-line included) at the cursor. */
export function insertText(s: EditorState, text: string): EditorState {
  const clean = sanitize(text);
  if (clean === "") return s;
  const cur = lineAt(s, s.line);
  const before = cpSlice(cur, 0, s.col);
  const after = cpSlice(cur, s.col);
  const pieces = clean.split("\n");
  const last = pieces.length - 1;
  const inserted = pieces.map((p, i) => (i === 0 ? before : "") + p + (i === last ? after : ""));
  const lines = [...s.lines.slice(0, s.line), ...inserted, ...s.lines.slice(s.line + 1)];
  const col = (last === 0 ? s.col : 0) + cpLength(pieces[last] ?? "");
  return { lines, line: s.line + last, col, goal: null };
}

export const newline = (s: EditorState): EditorState => insertText(s, "\n");

/** Deletes from `a` to `b` (a before b) and leaves the cursor at `a`. */
function deleteRange(s: EditorState, a: Pos, b: Pos): EditorState {
  if (a.line === b.line && a.col === b.col) return s;
  const joined = cpSlice(lineAt(s, a.line), 0, a.col) + cpSlice(lineAt(s, b.line), b.col);
  const lines = [...s.lines.slice(0, a.line), joined, ...s.lines.slice(b.line + 1)];
  return { lines, line: a.line, col: a.col, goal: null };
}

const here = (s: EditorState): Pos => ({ line: s.line, col: s.col });
const to = (s: EditorState, p: Pos): EditorState =>
  p.line === s.line && p.col === s.col && s.goal === null ? s : { ...s, line: p.line, col: p.col, goal: null };

/** One grapheme left; from a line's start, the end of the line above. */
function leftOf(s: EditorState, p: Pos): Pos {
  if (p.col === 0) return p.line === 0 ? p : { line: p.line - 1, col: cpLength(lineAt(s, p.line - 1)) };
  const b = bounds(lineAt(s, p.line));
  return { line: p.line, col: b.findLast((x) => x < p.col) ?? 0 };
}

function rightOf(s: EditorState, p: Pos): Pos {
  const b = bounds(lineAt(s, p.line));
  const end = b.at(-1) ?? 0;
  if (p.col >= end) return p.line === s.lines.length - 1 ? { line: p.line, col: end } : { line: p.line + 1, col: 0 };
  return { line: p.line, col: b.find((x) => x > p.col) ?? end };
}

/** Start of the word before the cursor (skipping the spaces and punctuation before it). */
function wordLeftOf(s: EditorState, p: Pos): Pos {
  if (p.col === 0) return leftOf(s, p);
  const segs = segments(lineAt(s, p.line));
  let col = 0;
  let k = 0;
  while (k < segs.length && col + (segs[k]?.cps ?? 0) <= p.col) col += segs[k++]?.cps ?? 0;
  const isWord = (i: number) => isWordChar(segs[i]?.g ?? "");
  while (k > 0 && !isWord(k - 1)) col -= segs[--k]?.cps ?? 0;
  while (k > 0 && isWord(k - 1)) col -= segs[--k]?.cps ?? 0;
  return { line: p.line, col };
}

/** End of the word after the cursor (readline's forward-word). */
function wordRightOf(s: EditorState, p: Pos): Pos {
  const segs = segments(lineAt(s, p.line));
  let col = 0;
  let k = 0;
  while (k < segs.length && col < p.col) col += segs[k++]?.cps ?? 0;
  if (k >= segs.length) return rightOf(s, p);
  const isWord = (i: number) => isWordChar(segs[i]?.g ?? "");
  while (k < segs.length && !isWord(k)) col += segs[k++]?.cps ?? 0;
  while (k < segs.length && isWord(k)) col += segs[k++]?.cps ?? 0;
  return { line: p.line, col };
}

/** Display width of the text before code point `col`. */
function displayCol(line: string, col: number): number {
  let w = 0;
  let cp = 0;
  for (const seg of segments(line)) {
    if (cp + seg.cps > col) break;
    cp += seg.cps;
    w += seg.width;
  }
  return w;
}

/** The grapheme boundary nearest the display column `goal` without passing it. */
function colAtDisplay(line: string, goal: number): number {
  let w = 0;
  let cp = 0;
  for (const seg of segments(line)) {
    if (w + seg.width > goal) break;
    w += seg.width;
    cp += seg.cps;
  }
  return cp;
}

function vertical(s: EditorState, delta: -1 | 1): EditorState {
  const target = s.line + delta;
  if (target < 0 || target >= s.lines.length) return s;
  const goal = s.goal ?? displayCol(lineAt(s, s.line), s.col);
  return { ...s, line: target, col: colAtDisplay(lineAt(s, target), goal), goal };
}

export const backspace = (s: EditorState): EditorState => deleteRange(s, leftOf(s, here(s)), here(s));
export const deleteForward = (s: EditorState): EditorState => deleteRange(s, here(s), rightOf(s, here(s)));
/** ctrl+w, alt+backspace. At a line's start it joins the line above. */
export const deleteWordBackward = (s: EditorState): EditorState => deleteRange(s, wordLeftOf(s, here(s)), here(s));
/** alt+d. At a line's end it joins the line below. */
export const deleteWordForward = (s: EditorState): EditorState => deleteRange(s, here(s), wordRightOf(s, here(s)));
/** ctrl+u. At a line's start it deletes the line break before it, like backspace. */
export const deleteToLineStart = (s: EditorState): EditorState =>
  s.col === 0 ? backspace(s) : deleteRange(s, { line: s.line, col: 0 }, here(s));
/** ctrl+k. At a line's end it deletes the line break after it (emacs kill-line). */
export const deleteToLineEnd = (s: EditorState): EditorState => {
  const end = cpLength(lineAt(s, s.line));
  return s.col >= end ? deleteForward(s) : deleteRange(s, here(s), { line: s.line, col: end });
};

export const moveLeft = (s: EditorState): EditorState => to(s, leftOf(s, here(s)));
export const moveRight = (s: EditorState): EditorState => to(s, rightOf(s, here(s)));
export const moveWordLeft = (s: EditorState): EditorState => to(s, wordLeftOf(s, here(s)));
export const moveWordRight = (s: EditorState): EditorState => to(s, wordRightOf(s, here(s)));
/** Up one line, keeping the goal column; unchanged on the first line (the caller walks history). */
export const moveUp = (s: EditorState): EditorState => vertical(s, -1);
export const moveDown = (s: EditorState): EditorState => vertical(s, 1);
export const moveLineStart = (s: EditorState): EditorState => to(s, { line: s.line, col: 0 });
export const moveLineEnd = (s: EditorState): EditorState => to(s, { line: s.line, col: cpLength(lineAt(s, s.line)) });
export const moveDocStart = (s: EditorState): EditorState => to(s, { line: 0, col: 0 });
export const moveDocEnd = (s: EditorState): EditorState => {
  const line = s.lines.length - 1;
  return to(s, { line, col: cpLength(lineAt(s, line)) });
};

const actions = {
  left: moveLeft,
  right: moveRight,
  wordLeft: moveWordLeft,
  wordRight: moveWordRight,
  up: moveUp,
  down: moveDown,
  lineStart: moveLineStart,
  lineEnd: moveLineEnd,
  docStart: moveDocStart,
  docEnd: moveDocEnd,
  newline,
  backspace,
  deleteForward,
  deleteWordBackward,
  deleteWordForward,
  deleteToLineStart,
  deleteToLineEnd,
} satisfies Record<string, (s: EditorState) => EditorState>;

/** The composer's editing commands, for the app's keymap. */
export type EditorAction = keyof typeof actions;
export const editorActions = Object.keys(actions) as EditorAction[];
export const applyEditorAction = (s: EditorState, action: EditorAction): EditorState => actions[action](s);

/**
 * Readline-style defaults the app can spread into its keymap. Newline has no Alt-only binding
 * (tmux and some SSH clients eat Alt): ctrl+j always works, shift+enter where the terminal reports it.
 */
export const editorKeyDefaults: Keymap<EditorAction> = {
  left: ["left"],
  right: ["right"],
  wordLeft: ["alt+left", "ctrl+left", "alt+b"],
  wordRight: ["alt+right", "ctrl+right", "alt+f"],
  up: ["up"],
  down: ["down"],
  lineStart: ["home", "ctrl+a"],
  lineEnd: ["end", "ctrl+e"],
  docStart: ["ctrl+home"],
  docEnd: ["ctrl+end"],
  newline: ["ctrl+j", "alt+enter", "shift+enter"],
  backspace: ["backspace", "shift+backspace"],
  deleteForward: ["delete"],
  deleteWordBackward: ["ctrl+w", "alt+backspace", "ctrl+backspace"],
  deleteWordForward: ["alt+d", "ctrl+delete", "alt+delete"],
  deleteToLineStart: ["ctrl+u"],
  deleteToLineEnd: ["ctrl+k"],
};

export interface EditorLayout {
  /** Visual rows, each at most `width` columns (a grapheme wider than `width` gets a row alone). */
  lines: string[];
  cursorRow: number;
  cursorCol: number;
}

/**
 * Soft-wraps the text by display width, breaking after a space where it can and inside a word
 * where it must. A cursor at a wrap point sits at the start of the next row; a cursor after a
 * full last row gets an empty row of its own, because column `width` does not exist on screen.
 */
export function layout(s: EditorState, width: number): EditorLayout {
  const w = Math.max(1, Math.floor(width));
  const out: string[] = [];
  let cursorRow = 0;
  let cursorCol = 0;
  s.lines.forEach((text, li) => {
    const segs = segments(text);
    const rows: Array<[number, number]> = []; // [start, end) segment indexes
    let start = 0;
    let rowW = 0;
    let afterSpace = -1; // segment index just after the row's last space
    segs.forEach((seg, k) => {
      while (rowW + seg.width > w && k > start) {
        const cut = afterSpace > start ? afterSpace : k;
        rows.push([start, cut]);
        start = cut;
        rowW = segs.slice(cut, k).reduce((n, x) => n + x.width, 0);
        afterSpace = -1;
      }
      rowW += seg.width;
      if (seg.g === " ") afterSpace = k + 1;
    });
    rows.push([start, segs.length]);
    const render = (a: number, b: number) =>
      segs
        .slice(a, b)
        .map((x) => (x.g === "\t" ? " ".repeat(TAB_WIDTH) : x.g))
        .join("");
    const first = out.length;
    for (const [a, b] of rows) out.push(render(a, b));
    if (li !== s.line) return;
    // Which row holds the cursor: the first whose end lies beyond it, else the last.
    let cp = 0;
    let seg = 0;
    while (seg < segs.length && cp + (segs[seg]?.cps ?? 0) <= s.col) cp += segs[seg++]?.cps ?? 0;
    const r = Math.max(
      0,
      rows.findIndex(([, b], i) => seg < b || i === rows.length - 1),
    );
    const [a] = rows[r] ?? [0, 0];
    cursorRow = first + r;
    cursorCol = segs.slice(a, seg).reduce((n, x) => n + x.width, 0);
    if (cursorCol >= w) {
      out.splice(cursorRow + 1, 0, "");
      cursorRow += 1;
      cursorCol = 0;
    }
  });
  return { lines: out, cursorRow, cursorCol };
}

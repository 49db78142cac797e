// Display-width text layout for the terminal: measuring, wrapping, truncating and padding
// strings that may hold ANSI escapes, CJK, emoji and combining sequences.
// Contract: every line these functions return is self-contained (it opens the styles active at
// its start and closes them at its end), so callers may drop, reorder or clip lines freely.
import { graphemeWidth, NARROW_TEXT, PRINTABLE_ASCII, segmenter, visibleWidth } from "./width.js";

export { NARROW_TEXT, visibleWidth };

/** Options for {@link wrapLine}. */
export interface WrapOptions {
  /** Break at spaces when possible (prose); a word longer than the line is still cut. Default false (cut anywhere, for code and diffs). */
  words?: boolean;
  /** Like `words`, and also break after punctuation (`.`, `,`, `(`, `=`...): code and diffs, where `return` must not become `ret` / `urn`. */
  tokens?: boolean;
  /**
   * Starts continuation lines: a number of blank columns (hanging indent for list items) or a
   * string (quote bars). Ignored when wider than half the width. Default none.
   */
  indent?: number | string;
}

const TAB = 4;
/** Characters a line of code may break after (see WrapOptions.tokens). */
const TOKEN_END = new Set([...".,;:([{)]}<>=+-*/%&|!?^~\\"]);
const RESET = "\x1b[0m";
// Stands in for a grapheme wider than the whole line (a CJK character at width 1), so no line
// ever exceeds its width.
const TOO_WIDE = "…";
const ASCII_TEXT = /^[\x20-\x7e\n\t]*$/;
// CSI (colours, cursor), OSC terminated by BEL or ST (hyperlinks, titles), and two-byte escapes.
const ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/y;
const CONTROL = /^[\x00-\x08\x0b-\x1f\x7f-\x9f]$/;

/** One effect of an SGR sequence on the slots: set a value, delete (null), or clear all (""). */
type SgrOp = readonly [slot: string, value: string | null];
// Chalk repeats the same few sequences, so each is parsed once.
const sgrCache = new Map<string, readonly SgrOp[]>();

function parseSgr(seq: string): readonly SgrOp[] {
  if (!seq.startsWith("\x1b[") || !seq.endsWith("m")) return [];
  const ops: SgrOp[] = [];
  const params = seq.slice(2, -1).split(";");
  for (let i = 0; i < params.length; i++) {
    const p = params[i] ?? "";
    const code = p === "" ? 0 : Number.parseInt(p, 10);
    if (code === 38 || code === 48 || code === 58) {
      // Extended colours take 2 (256-colour) or 4 (true colour) more parameters.
      const n = params[i + 1] === "5" ? 2 : params[i + 1] === "2" ? 4 : 0;
      ops.push([String(code), params.slice(i, i + n + 1).join(";")]);
      i += n;
    } else if (code === 0) ops.push(["", null]);
    else if (code === 22) ops.push(["1", null], ["2", null]);
    else if (code === 39 || code === 49 || code === 59) ops.push([String(code - 1), null]);
    else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) ops.push(["38", p]);
    else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) ops.push(["48", p]);
    else if (code >= 23 && code <= 29) ops.push([String(code - 20), null]);
    else if (code === 55) ops.push(["53", null]);
    else if ((code >= 1 && code <= 9) || code === 53) ops.push([String(code), p]);
  }
  return ops;
}

/**
 * The SGR attributes in force, one slot per attribute family, so a line break can close them
 * and the next line reopen exactly the same look (chalk nests opens and closes freely).
 */
class SgrState {
  private slots = new Map<string, string>();

  apply(seq: string): void {
    let ops = sgrCache.get(seq);
    if (!ops) {
      if (sgrCache.size > 1024) sgrCache.clear();
      ops = parseSgr(seq);
      sgrCache.set(seq, ops);
    }
    for (const [slot, value] of ops) {
      if (slot === "") this.slots.clear();
      else if (value === null) this.slots.delete(slot);
      else this.slots.set(slot, value);
    }
  }

  get active(): boolean {
    return this.slots.size > 0;
  }

  open(): string {
    return this.slots.size === 0 ? "" : `\x1b[${[...this.slots.values()].join(";")}m`;
  }
}

/** Text cut into graphemes and escapes; `w` is the grapheme's width, or -1 for an escape. */
interface Units {
  u: string[];
  w: number[];
}

function toUnits(text: string): Units {
  const u: string[] = [];
  const w: number[] = [];
  let col = 0; // column in the source line, for tab stops
  const pushText = (s: string): void => {
    const graphemes = ASCII_TEXT.test(s) ? s : Array.from(segmenter.segment(s), (x) => x.segment);
    for (const g of graphemes) {
      if (g === "\n") u.push(g), w.push(0), (col = 0);
      else if (g === "\t") for (let n = TAB - (col % TAB); n > 0; n--) u.push(" "), w.push(1), col++;
      else if (CONTROL.test(g))
        continue; // a stray \r or bell would corrupt the screen
      else {
        const gw = g.length === 1 && g >= " " && g <= "~" ? 1 : graphemeWidth(g);
        u.push(g), w.push(gw), (col += gw);
      }
    }
  };
  let i = 0;
  while (i < text.length) {
    const e = text.indexOf("\x1b", i);
    const end = e < 0 ? text.length : e;
    if (end > i) pushText(text.slice(i, end));
    if (e < 0) break;
    ESCAPE.lastIndex = e;
    const m = ESCAPE.exec(text);
    if (m) u.push(m[0]), w.push(-1), (i = e + m[0].length);
    else i = e + 1; // a lone ESC is dropped rather than let it swallow what follows
  }
  return { u, w };
}

/** One output line: units [start, end), and whether it is a continuation (gets the indent). */
interface Range {
  start: number;
  end: number;
  cont: boolean;
}

/** The continuation prefix actually used: only when it leaves room for a double-width grapheme. */
function effectiveIndent(opts: WrapOptions, max: number): string {
  const prefix = typeof opts.indent === "string" ? opts.indent : " ".repeat(Math.max(0, Math.floor(opts.indent ?? 0)));
  const w = visibleWidth(prefix);
  return w > 0 && w * 2 <= max && max - w >= 2 ? prefix : "";
}

/** Decides where lines break; works on unit indexes only, so ASCII and ANSI text share it. */
function breakLines(
  n: number,
  unit: (i: number) => string,
  width: (i: number) => number,
  max: number,
  opts: WrapOptions,
): Range[] {
  const tokens = opts.tokens === true;
  const words = opts.words === true || tokens;
  const indent = visibleWidth(effectiveIndent(opts, max));
  const ranges: Range[] = [];
  let start = 0;
  let cont = false;
  let col = 0;
  let seenWord = false; // a non-space grapheme on this line: spaces after it are break points
  let prevSpace = false;
  let breakAt = -1; // the last run of spaces after a word: [breakAt, resumeAt)
  let resumeAt = -1;
  const newLine = (end: number, next: number): void => {
    ranges.push({ start, end, cont });
    start = next;
    cont = true;
    col = indent;
    seenWord = prevSpace = false;
    breakAt = resumeAt = -1;
  };
  for (let i = 0; i < n; i++) {
    const w = width(i);
    if (w < 0) continue;
    const g = unit(i);
    if (g === "\n") {
      newLine(i, i + 1);
      cont = false;
      col = 0;
      continue;
    }
    // A grapheme wider than the whole line is replaced by a 1-column stand-in when emitted.
    const gw = Math.min(w, max);
    if (col + gw > max) {
      if (words && g === " " && seenWord) {
        // Overflow on a space: end the line before the run of spaces, resume after it.
        let j = i;
        while (j < n && (width(j) < 0 || unit(j) === " ")) j++;
        while (j > i && width(j - 1) < 0) j--; // escapes just before the next word stay with it
        newLine(prevSpace ? breakAt : i, j);
        i = j - 1;
        continue;
      }
      if (words && breakAt > start) {
        // Move the word being written to the next line.
        newLine(breakAt, resumeAt);
        for (let k = start; k < i; k++) {
          const kw = width(k);
          if (kw >= 0) (col += Math.min(kw, max)), (seenWord = true);
        }
      }
      if (col + gw > max) newLine(i, i); // still too long: cut the word here
    }
    if (g === " ") {
      if (seenWord && !prevSpace) breakAt = i;
      if (seenWord) resumeAt = i + 1;
      prevSpace = true;
    } else {
      // After a punctuation mark the line may break with nothing dropped.
      if (tokens && TOKEN_END.has(g) && i + 1 < n) breakAt = resumeAt = i + 1;
      seenWord = true;
      prevSpace = false;
    }
    col += gw;
  }
  ranges.push({ start, end: n, cont });
  return ranges;
}

/**
 * wrapLine for styled ASCII, the bulk of rendered Markdown: breaks the text without its escapes
 * and puts each escape back where it was (about 5x faster than the grapheme path). `null` when
 * the text holds anything else.
 */
function wrapStyledAscii(text: string, max: number, opts: WrapOptions): string[] | null {
  let plain = "";
  const at: number[] = []; // escape k stands before plain[at[k]]
  const seqs: string[] = [];
  for (let i = 0; i < text.length; ) {
    const e = text.indexOf("\x1b", i);
    if (e < 0) {
      plain += text.slice(i);
      break;
    }
    plain += text.slice(i, e);
    ESCAPE.lastIndex = e;
    const m = ESCAPE.exec(text);
    if (!m) return null;
    at.push(plain.length);
    seqs.push(m[0]);
    i = e + m[0].length;
  }
  if (!PRINTABLE_ASCII.test(plain)) return null;
  const ranges = breakLines(
    plain.length,
    (k) => plain[k] ?? "",
    () => 1,
    max,
    opts,
  );
  const pad = effectiveIndent(opts, max);
  const state = new SgrState();
  const out: string[] = [];
  let j = 0;
  ranges.forEach((r, k) => {
    // Escapes in the spaces dropped at a break only change the state the next line reopens.
    if (k > 0) for (; j < at.length && (at[j] ?? 0) < r.start; j++) state.apply(seqs[j] ?? "");
    let line = (r.cont ? pad : "") + state.open();
    let pos = r.start;
    const last = k === ranges.length - 1;
    for (; j < at.length && (last || (at[j] ?? 0) <= r.end); j++) {
      const p = at[j] ?? 0;
      const seq = seqs[j] ?? "";
      line += plain.slice(pos, p) + seq;
      pos = p;
      state.apply(seq);
    }
    line += plain.slice(pos, r.end);
    out.push(state.active ? line + RESET : line);
  });
  return out;
}

/**
 * Wraps one logical line (a `\n` inside forces a break) so that no output line is wider than
 * `width` columns. Styles open at a break are closed at the end of the line and reopened on the
 * next; a grapheme wider than `width` is replaced by "…".
 */
export function wrapLine(text: string, width: number, opts: WrapOptions = {}): string[] {
  const max = Math.max(1, Math.floor(width));
  if (PRINTABLE_ASCII.test(text)) {
    if (text.length <= max) return [text];
    const ranges = breakLines(
      text.length,
      (i) => text[i] ?? "",
      () => 1,
      max,
      opts,
    );
    const pad = effectiveIndent(opts, max);
    return ranges.map((r) => (r.cont ? pad : "") + text.slice(r.start, r.end));
  }
  const styled = text.includes("\x1b") ? wrapStyledAscii(text, max, opts) : null;
  if (styled) return styled;
  const { u, w } = toUnits(text);
  const ranges = breakLines(
    u.length,
    (i) => u[i] ?? "",
    (i) => w[i] ?? 0,
    max,
    opts,
  );
  const pad = effectiveIndent(opts, max);
  const state = new SgrState();
  const out: string[] = [];
  let pos = 0;
  ranges.forEach((r, k) => {
    for (; pos < r.start; pos++) if ((w[pos] ?? 0) < 0) state.apply(u[pos] ?? ""); // escapes in dropped spaces
    const last = k === ranges.length - 1;
    let line = (r.cont ? pad : "") + state.open();
    // The last line also takes the escapes after its last grapheme (the closing codes).
    const end = last ? u.length : r.end;
    for (; pos < end; pos++) {
      const unit = u[pos] ?? "";
      const uw = w[pos] ?? 0;
      if (uw < 0) state.apply(unit);
      if (unit === "\n") continue;
      line += uw > max ? TOO_WIDE : unit;
    }
    out.push(state.active ? line + RESET : line);
  });
  return out;
}

/** Replaces tabs with spaces up to the next tab stop (plain text: no escapes). */
export function expandTabs(s: string, tab = TAB): string {
  if (!s.includes("\t")) return s;
  let out = "";
  let col = 0;
  for (const g of PRINTABLE_ASCII.test(s.replace(/\t/g, " "))
    ? s
    : Array.from(segmenter.segment(s), (x) => x.segment)) {
    if (g === "\t") {
      const n = tab - (col % tab);
      out += " ".repeat(n);
      col += n;
    } else {
      out += g;
      col += g.length === 1 && g >= " " && g <= "~" ? 1 : graphemeWidth(g);
    }
  }
  return out;
}

/** Splits multi-line styled text into self-contained lines (styles carried across each `\n`). */
export function splitAnsiLines(text: string): string[] {
  if (!text.includes("\x1b")) return text.split("\n");
  return wrapLine(text, Number.MAX_SAFE_INTEGER);
}

/** Cuts `s` to at most `width` columns, ending with `ellipsis` when something was cut. */
export function truncateToWidth(s: string, width: number, ellipsis = "…"): string {
  const max = Math.max(0, Math.floor(width));
  if (visibleWidth(s) <= max) return s;
  const ew = visibleWidth(ellipsis);
  const tail = ew <= max ? ellipsis : "";
  const room = max - (tail === "" ? 0 : ew);
  if (PRINTABLE_ASCII.test(s)) return s.slice(0, room) + tail;
  const { u, w } = toUnits(s);
  const state = new SgrState();
  let out = "";
  let col = 0;
  for (let i = 0; i < u.length; i++) {
    const uw = w[i] ?? 0;
    const unit = u[i] ?? "";
    if (uw < 0) state.apply(unit), (out += unit);
    else if (unit === "\n" || col + uw > room) break;
    else (out += unit), (col += uw);
  }
  return out + (state.active ? RESET : "") + tail;
}

/** Pads `s` with spaces to `width` columns (never cuts; see {@link truncateToWidth}). */
export function padToWidth(s: string, width: number, align: "left" | "right" | "center" = "left"): string {
  const gap = Math.floor(width) - visibleWidth(s);
  if (gap <= 0) return s;
  if (align === "right") return " ".repeat(gap) + s;
  if (align === "center") return " ".repeat(gap >> 1) + s + " ".repeat(gap - (gap >> 1));
  return s + " ".repeat(gap);
}

/**
 * The columns [from, to) of `s`, self-contained: styles open at `from` are reopened, and closed at
 * the end. A wide character that straddles an edge is left out (its place stays blank).
 */
export function sliceColumns(s: string, from: number, to: number): string {
  if (PRINTABLE_ASCII.test(s)) return s.slice(from, to);
  const { u, w } = toUnits(s);
  const state = new SgrState();
  let out = "";
  let col = 0;
  let started = false;
  for (let i = 0; i < u.length; i++) {
    const uw = w[i] ?? 0;
    const unit = u[i] ?? "";
    if (uw < 0) {
      state.apply(unit);
      if (started) out += unit;
      continue;
    }
    if (unit === "\n" || col >= to) break;
    if (col >= from && col + uw <= to) {
      if (!started) (out += state.open()), (started = true);
      out += unit;
    } else if (col < from && col + uw > from) out += " ".repeat(Math.min(to, col + uw) - from);
    col += uw;
  }
  return out + (state.active ? RESET : "");
}

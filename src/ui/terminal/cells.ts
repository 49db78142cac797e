// A frame's line of styled text as terminal cells: one character (grapheme) and one style per
// column, a wide character in two columns (the second holds ""). The cell writer diffs these.
import stringWidth from "string-width";

/**
 * A style as the SGR parameters that produce it from a reset, in a fixed order ("" = default).
 * Two cells look alike exactly when their style strings are equal.
 */
export type Style = string;

export interface CellRow {
  /** The grapheme in each column; "" marks the second column of a wide character. */
  chars: string[];
  styles: Style[];
}

/** Slots of the SGR state, in the order the canonical string lists them. */
const SLOTS = [
  "bold",
  "dim",
  "italic",
  "underline",
  "blink",
  "inverse",
  "hidden",
  "strike",
  "overline",
  "fg",
  "bg",
  "ul",
] as const;
type Slot = (typeof SLOTS)[number];
type SgrState = Partial<Record<Slot, string>>;

const ON: Record<string, Slot> = {
  "1": "bold",
  "2": "dim",
  "3": "italic",
  "4": "underline",
  "5": "blink",
  "6": "blink",
  "7": "inverse",
  "8": "hidden",
  "9": "strike",
  "21": "underline",
  "53": "overline",
};
const OFF: Record<string, Slot[]> = {
  "22": ["bold", "dim"],
  "23": ["italic"],
  "24": ["underline"],
  "25": ["blink"],
  "27": ["inverse"],
  "28": ["hidden"],
  "29": ["strike"],
  "39": ["fg"],
  "49": ["bg"],
  "55": ["overline"],
  "59": ["ul"],
};

function stateOf(style: Style): SgrState {
  const state: SgrState = {};
  if (style !== "") applyParams(state, style.split(";"));
  return state;
}

function canonical(state: SgrState): Style {
  const parts: string[] = [];
  for (const slot of SLOTS) {
    const value = state[slot];
    if (value !== undefined) parts.push(value);
  }
  return parts.join(";");
}

/** Applies SGR parameters (already split on ";"; colon sub-parameters stay in their token). */
function applyParams(state: SgrState, params: string[]): void {
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    if (p === "" || p === "0") {
      for (const slot of SLOTS) delete state[slot];
      continue;
    }
    const on = ON[p];
    if (on) {
      state[on] = p;
      continue;
    }
    const off = OFF[p];
    if (off) {
      for (const slot of off) delete state[slot];
      continue;
    }
    if (p.startsWith("4:")) {
      // Underline styles (curly, dotted...); 4:0 turns it off.
      if (p === "4:0") delete state.underline;
      else state.underline = p;
      continue;
    }
    const n = Number(p.split(":")[0]);
    if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) state.fg = p;
    else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) state.bg = p;
    else if (n === 38 || n === 48 || n === 58) {
      // 38;5;N and 38;2;R;G;B take the next tokens; the colon form (38:2::R:G:B) is one token.
      let value = p;
      if (!p.includes(":")) {
        const mode = params[i + 1];
        const take = mode === "5" ? 2 : mode === "2" ? 4 : 0;
        value = params.slice(i, i + 1 + take).join(";");
        i += take;
      }
      state[n === 38 ? "fg" : n === 48 ? "bg" : "ul"] = value;
    }
    // Anything else (fonts, frames, unknown private codes) does not change how we diff.
  }
}

const transitions = new Map<string, Style>();

/** The style after `style` receives `ESC[<params>m`. Memoised: a frame repeats few transitions. */
export function applySgr(style: Style, params: string): Style {
  const key = `${style}|${params}`;
  let next = transitions.get(key);
  if (next === undefined) {
    const state = stateOf(style);
    applyParams(state, params.split(";"));
    next = canonical(state);
    if (transitions.size > 4096) transitions.clear();
    transitions.set(key, next);
  }
  return next;
}

/** The sequence that sets the terminal to `style` from any state. */
export function sgr(style: Style): string {
  return style === "" ? "\x1b[0m" : `\x1b[0;${style}m`;
}

let segmenter: Intl.Segmenter | undefined;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/**
 * Text whose every code point is a grapheme of its own: Latin, Greek and Cyrillic letters,
 * punctuation, arrows, box drawing and symbols, CJK and kana, Hangul syllables, full-width forms and
 * single-code-point emoji. No combining marks, joiners, variation selectors or skin-tone modifiers,
 * which need the (slow) segmenter. Most of a frame is this; the segmenter was 60% of a frame's time.
 */
const ONE_POINT_GRAPHEMES =
  /^[\x20-\x7e\xa0-\u02ff\u0370-\u0482\u2010-\u2027\u2030-\u205f\u2070-\u20cf\u2100-\u2bff\u3000-\u3098\u309b-\u9fff\uac00-\ud7a3\uff01-\uffee\u{1f300}-\u{1f3fa}\u{1f400}-\u{1faff}]*$/u;
const widths = new Map<string, number>();

function widthOf(grapheme: string): number {
  let w = widths.get(grapheme);
  if (w === undefined) {
    w = stringWidth(grapheme);
    if (widths.size > 8192) widths.clear();
    widths.set(grapheme, w);
  }
  return w;
}

function pushText(row: CellRow, text: string, style: Style): void {
  if (PRINTABLE_ASCII.test(text)) {
    for (let i = 0; i < text.length; i++) {
      row.chars.push(text[i]!);
      row.styles.push(style);
    }
    return;
  }
  const graphemes = ONE_POINT_GRAPHEMES.test(text)
    ? text
    : Array.from((segmenter ??= new Intl.Segmenter()).segment(text), (s) => s.segment);
  for (const segment of graphemes) {
    const code = segment.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f) continue; // control characters take no cell and must not reach the terminal
    const width = widthOf(segment);
    if (width === 0) {
      // A lone combining mark joins the character before it, as the terminal draws it.
      const last = row.chars.length - 1;
      if (last >= 0 && row.chars[last] !== "") row.chars[last] += segment;
      continue;
    }
    row.chars.push(segment);
    row.styles.push(style);
    if (width >= 2) {
      row.chars.push("");
      row.styles.push(style);
    }
  }
}

/**
 * Contract: the cells a terminal shows after printing `line` from column 0 with default style,
 * trimmed of trailing default-style blanks (an erased cell and a written blank look alike).
 * SGR sequences set the style; other escape sequences (cursor moves, OSC) are dropped, since a
 * frame is text and styles only. Cells past `width` are cut.
 */
export function parseLine(line: string, width: number): CellRow {
  const row: CellRow = { chars: [], styles: [] };
  let style: Style = "";
  let i = 0;
  while (i < line.length) {
    const esc = line.indexOf("\x1b", i);
    const end = esc === -1 ? line.length : esc;
    if (end > i) pushText(row, line.slice(i, end), style);
    if (esc === -1) break;
    const kind = line[esc + 1];
    if (kind === "[") {
      let j = esc + 2;
      while (j < line.length && (line.charCodeAt(j) < 0x40 || line.charCodeAt(j) > 0x7e)) j++;
      if (line[j] === "m") style = applySgr(style, line.slice(esc + 2, j));
      i = j + 1;
    } else if (kind === "]") {
      // OSC: up to BEL or ST (ESC \).
      const bel = line.indexOf("\x07", esc);
      const st = line.indexOf("\x1b\\", esc);
      const stop = bel === -1 ? st : st === -1 ? bel : Math.min(bel, st);
      i = stop === -1 ? line.length : stop === st ? stop + 2 : stop + 1;
    } else {
      i = esc + 2;
    }
  }
  if (row.chars.length > width) {
    // A wide character cut in half does not fit: the terminal would wrap it, we show a blank.
    const split = width > 0 && row.chars[width] === "";
    row.chars.length = width;
    row.styles.length = width;
    if (split) row.chars[width - 1] = " ";
  }
  let n = row.chars.length;
  while (n > 0 && row.chars[n - 1] === " " && row.styles[n - 1] === "") n--;
  row.chars.length = n;
  row.styles.length = n;
  return row;
}

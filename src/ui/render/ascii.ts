// Plain ASCII for a terminal whose locale is not UTF-8 (LANG=C, POSIX, Latin-1): the last step
// before a line reaches the screen, so no glyph, separator, box edge or model text slips through.
// Every stand-in keeps the width, so lines laid out for the Unicode glyphs stay width-exact.
import { visibleWidth } from "./wrap.js";

const NON_ASCII = /[^\x00-\x7f]/;
// CSI (colours), OSC (hyperlinks, titles) and two-byte escapes pass through untouched.
const ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;

/** One-column stand-ins for the glyphs the UI draws itself; anything else becomes `?` per column. */
const standIns: Record<string, string> = {
  // "~" as Midnight Commander cuts names: "." would read as the end of a sentence.
  "…": "~",
  "·": "-",
  "•": "*",
  "›": ">",
  "‹": "<",
  "»": ">",
  "«": "<",
  "→": ">",
  "←": "<",
  "↑": "^",
  "↓": "v",
  "↵": "<",
  "⏎": "<",
  "⇄": "@",
  "▏": "|",
  "▌": "|",
  "▐": "|",
  "█": "#",
  "░": "#",
  "▒": "#",
  "▓": "#",
  "●": "*",
  "○": "o",
  "◌": "o",
  "✓": "+",
  "✔": "+",
  "✗": "x",
  "✘": "x",
  "×": "x",
  "⊘": "-",
  "■": "#",
  "▸": ">",
  "▶": ">",
  "▾": "v",
  "▼": "v",
  "◂": "<",
  "◀": "<",
  "▴": "^",
  "▲": "^",
  "⏸": "!",
  "⚠": "!",
  "★": "*",
  "‘": "'",
  "’": "'",
  "“": '"',
  "”": '"',
  "–": "-",
  "—": "-",
  "≤": "<",
  "≥": ">",
  "≈": "~",
  "\u00a0": " ",
};

function glyph(g: string): string {
  const w = visibleWidth(g);
  if (w === 0) return "";
  const code = g.codePointAt(0) ?? 0;
  let s = standIns[g];
  // Box drawing: corners and joints are "+", the rest a bar of its direction.
  if (s === undefined && code >= 0x2500 && code <= 0x257f)
    s = /[│┃║╎╏┆┇┊┋]/.test(g) ? "|" : /[─━═╌╍┄┅┈┉]/.test(g) ? "-" : "+";
  // Braille (spinner frames) is running work, as "●" is.
  if (s === undefined && code >= 0x2800 && code <= 0x28ff) s = "*";
  return (s ?? "?").padEnd(w, s === undefined ? "?" : " ").slice(0, w);
}

let segmenterInstance: Intl.Segmenter | null = null;

function textToAscii(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  let out = "";
  for (const { segment } of (segmenterInstance ??= new Intl.Segmenter()).segment(text))
    out += NON_ASCII.test(segment) ? glyph(segment) : segment;
  return out;
}

/** `s` with every non-ASCII grapheme replaced by an ASCII stand-in of the same width; escapes kept. */
export function toAscii(s: string): string {
  if (!NON_ASCII.test(s)) return s;
  if (!s.includes("\x1b")) return textToAscii(s);
  let out = "";
  let from = 0;
  for (const m of s.matchAll(ESCAPE)) {
    out += textToAscii(s.slice(from, m.index)) + m[0];
    from = m.index + m[0].length;
  }
  return out + textToAscii(s.slice(from));
}

// Display width of terminal text: how many columns a string takes, ANSI escapes counting zero,
// CJK and emoji two, with fast paths for the ASCII and one-column glyphs most lines hold (the
// streaming path measures every line of every frame). Layout on top of it: wrap.ts.
import stringWidth from "string-width";

export const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/**
 * Printable ASCII and the non-ASCII characters the UI draws (separators, arrows, box drawing,
 * glyphs, braille), each one UTF-16 unit and one column: a line of only these is as wide as it is
 * long. The same set as scripts/narrow-chars.json (string-width's patched fast path);
 * tests/ui/render/wrap-narrow.test.ts checks both against string-width.
 */
export const NARROW_TEXT =
  /^[\x20-\x7e\u00b7\u2022\u2026\u203a\u2190-\u2193\u21b3\u21c4\u2298\u23ce\u2500-\u259f\u25a0\u25b8\u25be\u25cb\u25cf\u2713\u2717\u2800-\u28ff]*$/;

// Created on first use: constructing a segmenter costs ~15 ms, and most lines never need one.
let segmenterInstance: Intl.Segmenter | null = null;
export const segmenter = { segment: (s: string) => (segmenterInstance ??= new Intl.Segmenter()).segment(s) };
// string-width costs about a microsecond per call; non-ASCII graphemes repeat a lot in practice.
const widthCache = new Map<string, number>();

/**
 * Widths of common single code points without string-width: its first call compiles emoji
 * regexes for ~50 ms, a visible stall if the first CJK character arrives mid-stream.
 */
function knownWidth(c: number): number {
  if ((c >= 0xa0 && c <= 0x2ff && c !== 0xad) || (c >= 0x391 && c <= 0x3c9) || (c >= 0x400 && c <= 0x45f)) return 1;
  if (
    (c >= 0x4e00 && c <= 0x9fff) || // CJK unified ideographs
    (c >= 0x3400 && c <= 0x4dbf) || // extension A
    (c >= 0x3041 && c <= 0x3096) || // hiragana
    (c >= 0x30a1 && c <= 0x30fa) || // katakana
    (c >= 0xac00 && c <= 0xd7a3) || // hangul syllables
    (c >= 0xff01 && c <= 0xff60) || // fullwidth forms
    (c >= 0x3001 && c <= 0x3003) || // ideographic comma, full stop, ditto
    (c >= 0x3008 && c <= 0x3011) // CJK brackets
  ) {
    return 2;
  }
  return -1;
}

/**
 * One-column glyphs the UI draws (bullets, arrows, box drawing, marks, braille spinners); the
 * same as scripts/narrow-chars.json, whose test checks each against string-width.
 */
const NARROW_SINGLES = new Set([
  0x2022, 0x2026, 0x203a, 0x21b3, 0x21c4, 0x2298, 0x23ce, 0x25a0, 0x25b8, 0x25be, 0x25cb, 0x25cf, 0x2713, 0x2717,
]);
const narrowGlyph = (c: number): boolean =>
  (c >= 0x2500 && c <= 0x259f) || (c >= 0x2800 && c <= 0x28ff) || (c >= 0x2190 && c <= 0x2193) || NARROW_SINGLES.has(c);

/**
 * The width of a string whose every character is a grapheme of its own with a width known here;
 * -1 when one may join its neighbour (a combining mark, a joiner, a selector) or needs string-width.
 * The first frame's borders and glyphs are measured so without a segmenter (~20 ms to build).
 */
function singleUnitWidth(s: string): number {
  let w = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e) w++;
    else if (narrowGlyph(c)) w++;
    else {
      const known = knownWidth(c);
      if (known < 0) return -1;
      w += known;
    }
  }
  return w;
}

export function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const known = knownWidth(g.charCodeAt(0));
    if (known >= 0) return known;
  }
  let w = widthCache.get(g);
  if (w === undefined) {
    if (widthCache.size > 4096) widthCache.clear();
    w = stringWidth(g);
    widthCache.set(g, w);
  }
  return w;
}

const SGR_OR_OSC = /\x1b\[[0-9;:]*m|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Columns `s` occupies in a terminal; ANSI escapes count zero. */
export function visibleWidth(s: string): number {
  if (PRINTABLE_ASCII.test(s)) return s.length;
  // Styled ASCII is the common case and string-width's full Unicode path costs ~20x more.
  const bare = s.includes("\x1b") ? s.replace(SGR_OR_OSC, "") : s;
  // Most styled lines carry a gutter, a separator or a glyph: no segmenter needed for those.
  if (NARROW_TEXT.test(bare)) return bare.length;
  const simple = singleUnitWidth(bare);
  if (simple >= 0) return simple;
  let w = 0;
  for (const { segment } of segmenter.segment(bare))
    w += segment.length === 1 && segment >= " " && segment <= "~" ? 1 : graphemeWidth(segment);
  return w;
}

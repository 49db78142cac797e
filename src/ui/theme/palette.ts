// Turns a theme and a colour depth into painters: string functions for plain output and Ink props
// for components. Colours are brought down to the depth here, so both paths emit the same codes.
import { Chalk, type BackgroundColorName, type ChalkInstance } from "chalk";
import { truncateToWidth, visibleWidth } from "../render/wrap.js";
import type { ColorDepth } from "./depth.js";
import { tokenNames, type AnsiColorName, type Color, type Style, type Theme, type Token } from "./tokens.js";

export type Paint = (s: string) => string;

/** Props for Ink's <Text>; the names and colour strings Ink accepts. */
export interface InkTextStyle {
  color?: string;
  backgroundColor?: string;
  bold?: boolean;
  dimColor?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

/** Props for Ink's <Box> border. */
export interface InkBorderStyle {
  borderColor?: string;
  borderDimColor?: boolean;
}

export type Palette = { readonly [K in Token]: Paint } & {
  readonly depth: ColorDepth;
  readonly themeName: string;
  /**
   * The selection's style without the depth-0 marker of `selection`: for rows that draw their own
   * "›" gutter (the Turns tab, the rewind choices, the session picker, the memory list).
   */
  readonly selectionStyle: Paint;
  /** Contract: at depth 0 this is `{}`; Ink's own chalk ignores NO_COLOR, so colour must not reach it. */
  inkProps(token: Token): InkTextStyle;
  inkBorderProps(token: Token): InkBorderStyle;
};

/** A colour brought down to a depth: an ANSI name, a 256-colour index or (24-bit only) hex. */
export type DepthColor = { name: AnsiColorName } | { index: number } | { hex: string };

const ansi16: readonly AnsiColorName[] = [
  "black",
  "red",
  "green",
  "yellow",
  "blue",
  "magenta",
  "cyan",
  "white",
  "blackBright",
  "redBright",
  "greenBright",
  "yellowBright",
  "blueBright",
  "magentaBright",
  "cyanBright",
  "whiteBright",
];

// The conversions below are chalk's own (its vendored ansi-styles: rgbToAnsi256, ansi256ToAnsi),
// so text painted here and by chalk directly degrades a hex colour to the same index or name.
export function hexToAnsi256(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  const r = (n >> 16) & 0xff;
  const g = (n >> 8) & 0xff;
  const b = n & 0xff;
  if (r === g && g === b) {
    if (r < 8) return 16;
    if (r > 248) return 231;
    return Math.round(((r - 8) / 247) * 24) + 232;
  }
  return 16 + 36 * Math.round((r / 255) * 5) + 6 * Math.round((g / 255) * 5) + Math.round((b / 255) * 5);
}

/** The nearest of the 16 ANSI colours to a 256-colour index. */
export function ansi256To16(index: number): AnsiColorName {
  if (index < 16) return ansi16[index] ?? "white";
  let r: number;
  let g: number;
  let b: number;
  if (index >= 232) {
    r = g = b = ((index - 232) * 10 + 8) / 255;
  } else {
    const code = index - 16;
    const rem = code % 36;
    r = Math.floor(code / 36) / 5;
    g = Math.floor(rem / 6) / 5;
    b = (rem % 6) / 5;
  }
  const value = Math.max(r, g, b) * 2;
  if (value === 0) return "black";
  const base = (Math.round(b) << 2) | (Math.round(g) << 1) | Math.round(r);
  return ansi16[value === 2 ? base + 8 : base] ?? "white";
}

/** Undefined at depth 0. ANSI names stay names at every depth: the terminal's scheme draws them best. */
export function colorAtDepth(color: Color, depth: ColorDepth): DepthColor | undefined {
  if (depth === 0) return undefined;
  if (typeof color === "number") {
    if (color < 16) return { name: ansi16[color] ?? "white" };
    return depth === 4 ? { name: ansi256To16(color) } : { index: color };
  }
  if (!color.startsWith("#")) return { name: color as AnsiColorName };
  if (depth === 24) return { hex: color.toLowerCase() };
  const index = hexToAnsi256(color);
  return depth === 8 ? { index } : { name: ansi256To16(index) };
}

function inkColor(c: DepthColor): string {
  if ("name" in c) return c.name;
  if ("index" in c) return `ansi256(${c.index})`;
  return c.hex;
}

function bgName(name: AnsiColorName): BackgroundColorName {
  return `bg${name[0]?.toUpperCase() ?? ""}${name.slice(1)}` as BackgroundColorName;
}

function applyColor(c: ChalkInstance, color: DepthColor, layer: "fg" | "bg"): ChalkInstance {
  if ("name" in color) return layer === "fg" ? c[color.name] : c[bgName(color.name)];
  if ("index" in color) return layer === "fg" ? c.ansi256(color.index) : c.bgAnsi256(color.index);
  return layer === "fg" ? c.hex(color.hex) : c.bgHex(color.hex);
}

const levels = { 0: 0, 4: 1, 8: 2, 24: 3 } as const;

/** Chalk's level for a depth; the app can set Ink's chalk to it so both agree. */
export function chalkLevel(depth: ColorDepth): 0 | 1 | 2 | 3 {
  return levels[depth];
}

const identity: Paint = (s) => s;

/** What marks a selected row when no style can (render/ascii.ts turns it into ">" under LANG=C). */
export const SELECTION_MARK = "›";

/**
 * The selection at depth 0: the row moves right behind a "› " marker and keeps its width. Blanks
 * give way first (two trailing ones, else the widest gap between words, so a right-aligned time
 * or count stays in view); only a row without either loses its end. Every list, dialog and
 * browsed block paints its selected rows with `selection`, so they all get the marker from here;
 * rows that draw their own "›" gutter use `selectionStyle` instead.
 */
function markSelected(s: string): string {
  const width = visibleWidth(s);
  if (width === 0) return s;
  if (width === 1) return SELECTION_MARK;
  const marked = `${SELECTION_MARK} `;
  if (s.endsWith("  ")) return marked + s.slice(0, -2);
  if (!s.includes("\x1b")) {
    let gap: { at: number; length: number } | null = null;
    for (const m of s.matchAll(/(?<=\S) {3,}(?=\S)/g))
      if (!gap || m[0].length >= gap.length) gap = { at: m.index, length: m[0].length };
    if (gap) return marked + s.slice(0, gap.at) + s.slice(gap.at + 2);
  }
  return truncateToWidth(marked + s, width);
}

function makePaint(chalk: ChalkInstance, style: Style, depth: ColorDepth): Paint {
  if (depth === 0) return identity;
  let c = chalk;
  const fg = style.fg === undefined ? undefined : colorAtDepth(style.fg, depth);
  const bg = style.bg === undefined ? undefined : colorAtDepth(style.bg, depth);
  if (fg) c = applyColor(c, fg, "fg");
  if (bg) c = applyColor(c, bg, "bg");
  if (style.bold) c = c.bold;
  if (style.dim) c = c.dim;
  if (style.italic) c = c.italic;
  if (style.underline) c = c.underline;
  if (style.inverse) c = c.inverse;
  // Every chalk property returns a new instance, so an unchanged one means an empty style.
  if (c === chalk) return identity;
  const painter = c;
  return (s) => painter(s);
}

function makeInkProps(style: Style, depth: ColorDepth): InkTextStyle {
  if (depth === 0) return {};
  const props: InkTextStyle = {};
  const fg = style.fg === undefined ? undefined : colorAtDepth(style.fg, depth);
  const bg = style.bg === undefined ? undefined : colorAtDepth(style.bg, depth);
  if (fg) props.color = inkColor(fg);
  if (bg) props.backgroundColor = inkColor(bg);
  if (style.bold) props.bold = true;
  if (style.dim) props.dimColor = true;
  if (style.italic) props.italic = true;
  if (style.underline) props.underline = true;
  if (style.inverse) props.inverse = true;
  return props;
}

/**
 * Painters for every token at a depth. At depth 0 every painter is the identity and no escape
 * code is ever emitted (bold and inverse included), so `selection` marks the row with a "›"
 * instead (markSelected).
 */
export function makePalette(theme: Theme, depth: ColorDepth): Palette {
  const chalk = new Chalk({ level: chalkLevel(depth) });
  const paints: Partial<Record<Token, Paint>> = {};
  const ink = new Map<Token, InkTextStyle>();
  for (const t of tokenNames) {
    paints[t] = makePaint(chalk, theme.tokens[t], depth);
    ink.set(t, makeInkProps(theme.tokens[t], depth));
  }
  const selectionStyle = paints.selection!;
  if (depth === 0) paints.selection = markSelected;
  return {
    ...(paints as Record<Token, Paint>),
    depth,
    themeName: theme.name,
    selectionStyle,
    // A copy each call, so a component that adds a prop cannot change it for everyone.
    inkProps: (token) => ({ ...ink.get(token) }),
    inkBorderProps: (token) => {
      const p = ink.get(token) ?? {};
      const out: InkBorderStyle = {};
      if (p.color !== undefined) out.borderColor = p.color;
      if (p.dimColor) out.borderDimColor = true;
      return out;
    },
  };
}

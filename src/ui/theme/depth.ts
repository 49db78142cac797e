// How many colours the terminal shows (0, 16, 256 or 16M) and whether it can draw box-drawing
// characters, decided from the environment alone so it is known before the first frame.
import type { BoxProps } from "ink";

/** 0: no escape codes at all; 4: the 16 ANSI colours; 8: 256 colours; 24: true colour. */
export type ColorDepth = 0 | 4 | 8 | 24;

type Env = Record<string, string | undefined>;

function forcedDepth(value: string): ColorDepth {
  switch (value.trim().toLowerCase()) {
    case "0":
    case "false":
      return 0;
    case "2":
      return 8;
    case "3":
      return 24;
    default:
      // "", "1", "true" and anything unrecognised: force colour, the basic 16 (as Node's getColorDepth does).
      return 4;
  }
}

// Terminals known to draw 24-bit colour even when COLORTERM was not passed along (e.g. over sudo).
const trueColorPrograms = new Set(["iTerm.app", "WezTerm", "ghostty", "vscode"]);

/**
 * Colour depth from the environment. Order: NO_COLOR (present and non-empty, per no-color.org)
 * wins over everything, FORCE_COLOR sets the depth exactly (even when not a TTY), then a non-TTY
 * or TERM=dumb gets none, then COLORTERM, TERM and TERM_PROGRAM. Inside tmux TERM is
 * screen-256color/tmux-256color, so it is 256 unless COLORTERM says truecolor; even if that is
 * inherited wrongly, tmux maps 24-bit colours down itself when the outer terminal lacks them.
 */
export function explainColorDepth(env: Env, isTTY: boolean): { depth: ColorDepth; reason: string } {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return { depth: 0, reason: "NO_COLOR is set" };
  if (env.FORCE_COLOR !== undefined)
    return { depth: forcedDepth(env.FORCE_COLOR), reason: `FORCE_COLOR=${env.FORCE_COLOR}` };
  if (!isTTY) return { depth: 0, reason: "output is not a terminal" };
  const term = (env.TERM ?? "").toLowerCase();
  if (term === "dumb") return { depth: 0, reason: "TERM=dumb" };
  const colorterm = (env.COLORTERM ?? "").toLowerCase();
  if (colorterm === "truecolor" || colorterm === "24bit") return { depth: 24, reason: `COLORTERM=${env.COLORTERM}` };
  if (/-(direct|truecolor|24bit)$/.test(term)) return { depth: 24, reason: `TERM=${env.TERM}` };
  if (/-256(color)?$/.test(term)) return { depth: 8, reason: `TERM=${env.TERM}` };
  const program = env.TERM_PROGRAM ?? "";
  if (trueColorPrograms.has(program) && !env.TMUX) return { depth: 24, reason: `TERM_PROGRAM=${program}` };
  if (program === "Apple_Terminal") return { depth: 8, reason: `TERM_PROGRAM=${program}` };
  if (term !== "") return { depth: 4, reason: `TERM=${env.TERM}` };
  if (colorterm !== "") return { depth: 4, reason: `COLORTERM=${env.COLORTERM}` };
  // A TTY with no TERM at all (some containers): assume nothing rather than print escapes as text.
  return { depth: 0, reason: "TERM is not set" };
}

export function detectColorDepth(env: Env, isTTY: boolean): ColorDepth {
  return explainColorDepth(env, isTTY).depth;
}

function localeIsUtf8(value: string): boolean {
  return /utf-?8/i.test(value);
}

/**
 * Whether the terminal can show Unicode (box drawing, "…", "·", glyphs, braille spinners); when
 * not, the UI draws ASCII only (render/ascii.ts). NANOHERMES_ASCII=1 or 0 decides outright (a
 * UTF-8 terminal reached over SSH with LANG=C). Otherwise the first of LC_ALL, LC_CTYPE, LANG
 * that is set and non-empty decides (POSIX precedence): C, POSIX or any non-UTF-8 charset says
 * no. With none set, yes: terminals today are UTF-8, and containers often set no locale at all.
 */
export function explainUnicode(env: Env): { unicode: boolean; reason: string } {
  const forced = env.NANOHERMES_ASCII;
  if (forced === "1" || forced === "0") return { unicode: forced === "0", reason: `NANOHERMES_ASCII=${forced}` };
  for (const name of ["LC_ALL", "LC_CTYPE", "LANG"] as const) {
    const value = env[name];
    if (value !== undefined && value !== "") return { unicode: localeIsUtf8(value), reason: `${name}=${value}` };
  }
  return { unicode: true, reason: "no locale set (LC_ALL, LC_CTYPE, LANG): UTF-8 assumed" };
}

export function unicodeBoxes(env: Env): boolean {
  return explainUnicode(env).unicode;
}

export type BorderChars = Exclude<NonNullable<BoxProps["borderStyle"]>, string>;

/** Pure ASCII, drawn the same by every terminal and font. */
export const asciiBorder: BorderChars = {
  topLeft: "+",
  top: "-",
  topRight: "+",
  right: "|",
  bottomRight: "+",
  bottom: "-",
  bottomLeft: "+",
  left: "|",
};

/** Rounded corners, as Ink's "round"; spelled out so both sets share one type. */
export const unicodeBorder: BorderChars = {
  topLeft: "╭",
  top: "─",
  topRight: "╮",
  right: "│",
  bottomRight: "╯",
  bottom: "─",
  bottomLeft: "╰",
  left: "│",
};

/** The border to hand to Ink's `borderStyle`. */
export function borderChars(unicode: boolean): BorderChars {
  return unicode ? unicodeBorder : asciiBorder;
}

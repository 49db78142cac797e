// The semantic colour tokens the UI paints with, and the style each token names. Components ask
// for a token ("diffAdd"), never a colour; raw colours live only in themes/*.json.

/** Every token, in the order themes list them. A built-in theme defines each one. */
export const tokenNames = [
  "text",
  "dim",
  "accent",
  "border",
  "borderFocused",
  "title",
  "user",
  "assistant",
  "reasoning",
  "toolName",
  "toolArgs",
  "success",
  "warning",
  "error",
  "info",
  "selection",
  "searchMatch",
  "statusIdle",
  "statusRunning",
  "statusWaiting",
  "statusFailed",
  "statusDone",
  "diffAdd",
  "diffDel",
  "diffAddWord",
  "diffDelWord",
  "diffHunk",
  "link",
  "code",
  "heading",
  "heading1",
  "syntaxKeyword",
  "syntaxString",
  "syntaxComment",
  "syntaxNumber",
  "syntaxFunction",
  "syntaxType",
  "quote",
  "approval",
  "dangerMatch",
  "badge",
] as const;

export type Token = (typeof tokenNames)[number];

/** The sixteen ANSI colours under chalk's and Ink's names; "gray"/"grey" are aliases of blackBright. */
export const ansiColorNames = [
  "black",
  "red",
  "green",
  "yellow",
  "blue",
  "magenta",
  "cyan",
  "white",
  "blackBright",
  "gray",
  "grey",
  "redBright",
  "greenBright",
  "yellowBright",
  "blueBright",
  "magentaBright",
  "cyanBright",
  "whiteBright",
] as const;

export type AnsiColorName = (typeof ansiColorNames)[number];

/** An ANSI name (what the terminal's own scheme draws), a "#rrggbb" hex colour, or a 256-colour index. */
export type Color = AnsiColorName | `#${string}` | number;

/** A token's look. Absent fields mean the terminal default, so `{}` is "default foreground". */
export interface Style {
  fg?: Color;
  bg?: Color;
  bold?: boolean;
  /** SGR 2 (faint); preferred over gray for secondary text because gray vanishes in some schemes. */
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

export type ThemeTokens = Record<Token, Style>;

export const builtinThemeNames = ["dark", "light", "high-contrast"] as const;
export type BuiltinThemeName = (typeof builtinThemeNames)[number];

/** A theme ready to use: every token resolved. `source` is "builtin" or the user file's path. */
export interface Theme {
  name: string;
  source: string;
  tokens: ThemeTokens;
}

export function isToken(name: string): name is Token {
  return (tokenNames as readonly string[]).includes(name);
}

// Picks the theme, colour depth and box characters for this terminal at start-up, and makes
// Ink's chalk agree with them (NO_COLOR included).
import chalk from "chalk";
import type { Settings } from "../../config/schema.js";
import { chalkLevel, makePalette, type Palette } from "./palette.js";
import { detectColorDepth, unicodeBoxes, type ColorDepth } from "./depth.js";
import { getTheme, listThemes, loadThemes } from "./load.js";

export interface ThemeSetup {
  name: string;
  palette: Palette;
  depth: ColorDepth;
  unicode: boolean;
  names(): string[];
  problems: string[];
  /** The palette of another theme, for /theme. */
  paletteFor(name: string): Palette | null;
}

/**
 * Sets the shared chalk instance (Ink's, and ink-text-input's) for this terminal. Nothing of ours
 * is coloured through it (the palette has its own), so it is never below level 1: ink-text-input
 * draws its cursor in reverse video through it, and at depth 0 the field turns that into a plain
 * mark (components/TextField.tsx) rather than lose its cursor.
 */
export function inkChalk(depth: ColorDepth): void {
  chalk.level = Math.max(1, chalkLevel(depth)) as 1 | 2 | 3;
}

export function makeTheme(
  settings: Pick<Settings, "home" | "theme">,
  env: NodeJS.ProcessEnv,
  isTTY: boolean,
): ThemeSetup {
  const catalog = loadThemes(settings.home);
  const depth = detectColorDepth(env, isTTY);
  inkChalk(depth);
  const wanted = settings.theme ?? "dark";
  const theme = getTheme(wanted, catalog) ?? getTheme("dark", catalog)!;
  const problems = catalog.problems.map((p) => `${p.file}: ${p.key}: ${p.problem}`);
  if (settings.theme && !getTheme(settings.theme, catalog))
    problems.push(`unknown theme "${settings.theme}", using dark`);
  return {
    name: theme.name,
    palette: makePalette(theme, depth),
    depth,
    unicode: unicodeBoxes(env),
    names: () => listThemes(catalog).map((t) => t.name),
    problems,
    paletteFor: (name) => {
      const t = getTheme(name, catalog);
      return t ? makePalette(t, depth) : null;
    },
  };
}

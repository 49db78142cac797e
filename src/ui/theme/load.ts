// The theme catalogue: the three built-in themes (bundled JSON) plus the user's
// ~/.nanohermes/themes/*.json, each validated; a broken user theme is reported and skipped.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import dark from "../../../themes/dark.json" with { type: "json" };
import highContrast from "../../../themes/high-contrast.json" with { type: "json" };
import light from "../../../themes/light.json" with { type: "json" };
import { parseThemeFile, type ThemeFile, type ThemeProblem } from "./schema.js";
import {
  builtinThemeNames,
  tokenNames,
  type BuiltinThemeName,
  type Style,
  type Theme,
  type ThemeTokens,
} from "./tokens.js";

const builtinJson: Record<BuiltinThemeName, unknown> = { dark, light, "high-contrast": highContrast };

let builtins: Map<BuiltinThemeName, Theme> | undefined;

function resolveTokens(file: ThemeFile, base: ThemeTokens | undefined, label: string): ThemeTokens {
  const out: Partial<Record<string, Style>> = {};
  for (const t of tokenNames) {
    const style = file.tokens[t] ?? base?.[t];
    if (style === undefined) throw new Error(`theme ${label} does not define token "${t}"`);
    out[t] = style;
  }
  return out as ThemeTokens;
}

/**
 * The built-in themes. Contract: they always validate and define every token; the tests hold them
 * to it (tests/ui/theme), so they are not validated again at start-up (~10 ms of schema work).
 */
export function builtinThemes(): ReadonlyMap<BuiltinThemeName, Theme> {
  if (builtins) return builtins;
  const map = new Map<BuiltinThemeName, Theme>();
  for (const name of builtinThemeNames) {
    const file = builtinJson[name] as unknown as ThemeFile;
    map.set(name, { name, source: "builtin", tokens: resolveTokens(file, undefined, name) });
  }
  builtins = map;
  return map;
}

export function builtinTheme(name: BuiltinThemeName): Theme {
  const theme = builtinThemes().get(name);
  if (!theme) throw new Error(`no built-in theme ${name}`);
  return theme;
}

/** Built-ins first, then valid user themes; `problems` lists what was skipped and why. */
export interface ThemeCatalog {
  themes: ReadonlyMap<string, Theme>;
  problems: ThemeProblem[];
}

/**
 * Reads `<home>/themes/*.json`, where `home` is the NanoHermes home (`~/.nanohermes`, Settings.home).
 * Never throws for the user's files: a missing folder is no themes, anything wrong is a problem.
 * A user token replaces the base token whole (no field merge), so a theme can drop a base's bold or bg.
 */
export function loadThemes(home?: string): ThemeCatalog {
  const themes = new Map<string, Theme>(builtinThemes());
  const problems: ThemeProblem[] = [];
  if (home === undefined) return { themes, problems };
  const dir = join(home, "themes");
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith(".json"))
      .sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      problems.push({ file: dir, key: "(file)", problem: `cannot read folder: ${(error as Error).message}` });
    return { themes, problems };
  }
  for (const n of names) {
    const file = join(dir, n);
    const loaded = readUserTheme(file);
    if ("problems" in loaded) {
      problems.push(...loaded.problems);
      continue;
    }
    const { theme } = loaded;
    if (themes.has(theme.name)) {
      const why = (builtinThemeNames as readonly string[]).includes(theme.name)
        ? `"${theme.name}" is a built-in theme; pick another name and use "extends": "${theme.name}"`
        : `another theme file already uses the name "${theme.name}"`;
      problems.push({ file, key: "name", problem: why });
      continue;
    }
    const base = builtinTheme(theme.extends ?? "dark").tokens;
    themes.set(theme.name, { name: theme.name, source: file, tokens: resolveTokens(theme, base, theme.name) });
  }
  return { themes, problems };
}

function readUserTheme(file: string): { theme: ThemeFile } | { problems: ThemeProblem[] } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return { problems: [{ file, key: "(file)", problem: `cannot read: ${(error as Error).message}` }] };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { problems: [{ file, key: "(file)", problem: `not valid JSON (${(error as Error).message})` }] };
  }
  return parseThemeFile(data, file);
}

/** Names and sources, built-ins first; without a catalogue, the built-ins alone. */
export function listThemes(catalog: ThemeCatalog = loadThemes()): { name: string; source: string }[] {
  return [...catalog.themes.values()].map(({ name, source }) => ({ name, source }));
}

export function getTheme(name: string, catalog: ThemeCatalog = loadThemes()): Theme | undefined {
  return catalog.themes.get(name);
}

/**
 * The theme used when the user picked none: "light" only when the terminal reported a light
 * background (OSC 11); unknown means dark, whose ANSI names follow the terminal's own scheme anyway.
 */
export function defaultThemeName(isDark: boolean | undefined): BuiltinThemeName {
  return isDark === false ? "light" : "dark";
}

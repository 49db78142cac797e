// The zod/mini schema of a theme file (themes/*.json and ~/.nanohermes/themes/*.json).
import * as z from "../../protocol/zod.js";
import { ansiColorNames, builtinThemeNames, tokenNames, type Token } from "./tokens.js";

const hexPattern = /^#[0-9a-fA-F]{6}$/;
const indexRange = "a 256-colour index is 0-255";

const HexColorSchema = z.custom<`#${string}`>((v) => typeof v === "string" && hexPattern.test(v));

/** One message for the whole union: zod's per-branch messages would say three unrelated things. */
export const ColorSchema = z.union(
  [z.enum(ansiColorNames), HexColorSchema, z.int().check(z.minimum(0, indexRange), z.maximum(255, indexRange))],
  { error: 'expected an ANSI colour name (e.g. "red", "blueBright", "gray"), "#rrggbb" or a 256-colour index 0-255' },
);

export const StyleSchema = z.strictObject({
  fg: z.optional(ColorSchema),
  bg: z.optional(ColorSchema),
  bold: z.optional(z.boolean()),
  dim: z.optional(z.boolean()),
  italic: z.optional(z.boolean()),
  underline: z.optional(z.boolean()),
  inverse: z.optional(z.boolean()),
});

type TokensShape = { [K in Token]: z.ZodMiniOptional<typeof StyleSchema> };

// A strict object (not a record) so a misspelt token is reported as an unknown key by name.
const tokensShape = Object.fromEntries(tokenNames.map((t) => [t, z.optional(StyleSchema)])) as TokensShape;

/** A theme file. Tokens left out come from `extends` (or from "dark" when there is no `extends`). */
export const ThemeFileSchema = z.strictObject({
  name: z
    .string()
    .check(z.minLength(1), z.maxLength(64), z.regex(/^[A-Za-z0-9._-]+$/, "letters, digits, '.', '_' or '-' only")),
  extends: z.optional(z.enum(builtinThemeNames)),
  tokens: z.strictObject(tokensShape),
});

export type ThemeFile = z.infer<typeof ThemeFileSchema>;

/** A problem in one theme file: `key` is the dotted path ("tokens.diffAdd.fg") or "(file)". */
export interface ThemeProblem {
  file: string;
  key: string;
  problem: string;
}

export function formatThemeProblem(p: ThemeProblem): string {
  return `${p.file}: "${p.key}": ${p.problem}`;
}

/** Validates parsed JSON; problems name each offending key, one entry per key. */
export function parseThemeFile(data: unknown, file: string): { theme: ThemeFile } | { problems: ThemeProblem[] } {
  const parsed = ThemeFileSchema.safeParse(data);
  if (parsed.success) return { theme: parsed.data };
  const problems: ThemeProblem[] = [];
  for (const issue of parsed.error.issues) {
    const where = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const k of issue.keys)
        problems.push({ file, key: where ? `${where}.${k}` : k, problem: unknownKeyMessage(where) });
    } else {
      problems.push({ file, key: where || "(top level)", problem: issue.message });
    }
  }
  return { problems };
}

function unknownKeyMessage(where: string): string {
  if (where === "tokens") return `unknown token; tokens are ${tokenNames.join(", ")}`;
  if (where.startsWith("tokens.")) return "unknown key; a style has fg, bg, bold, dim, italic, underline, inverse";
  return "unknown key; a theme has name, extends, tokens";
}

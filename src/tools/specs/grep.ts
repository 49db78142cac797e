// grep's spec: what the model sees of it (the implementation is src/tools/grep.ts).
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";

export const MAX_MATCHES = 200;
export const MAX_LINE_CHARS = 300;

const params = z.object({
  pattern: z
    .string()
    .check(z.describe("JavaScript regular expression, matched against each line. A leading (?i) ignores case.")),
  path: z
    .optional(z.string())
    .check(z.describe("File or directory to search, relative to the workspace or absolute (default: the workspace).")),
  glob: z
    .optional(z.string())
    .check(
      z.describe(
        'Only search files matching this glob, e.g. "*.ts" (file name at any depth) or "src/**/*.{ts,tsx}" (path from the search directory).',
      ),
    ),
  ignore_case: z.optional(z.boolean()).check(z.describe("Match case-insensitively (default false).")),
});

export const grepSpec = defineSpec({
  name: "grep",
  kind: "read",
  description:
    "Search file contents with a regular expression (JavaScript syntax, matched line by line). " +
    "Returns `path:line:text` lines (paths relative to the workspace), sorted by path then line, " +
    `at most ${MAX_MATCHES} matches; long lines are cut to ${MAX_LINE_CHARS} characters around the match. ` +
    "Searches the workspace, or the given file or directory. Files ignored by .gitignore, the .git directory, " +
    "binary files, files over 8 MB and symlinks are skipped. Use `glob` to restrict the file types and " +
    "ignore_case (or a leading (?i)) for case-insensitive search. Escape regex characters to match them literally, " +
    "e.g. `foo\\(` for `foo(`.",
  params,
  truncate: "head",
  moreHint: "Narrow the pattern, path or glob.",
  summarize: (a) => {
    const extra = [a.glob, a.ignore_case ? "ignore case" : undefined].filter(Boolean).join(", ");
    return `${JSON.stringify(a.pattern)}${a.path ? ` in ${a.path}` : ""}${extra ? ` (${extra})` : ""}`;
  },
});

// glob's spec: what the model sees of it (the implementation is src/tools/glob.ts).
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";
import { QUOTED_NAMES } from "../path-escape.js";

export const MAX_GLOB_FILES = 500;

const params = z.object({
  pattern: z.string().check(z.describe('Glob, e.g. "*.md" (any depth), "src/**/*.ts", "**/*.{js,ts}".')),
  path: z
    .optional(z.string())
    .check(z.describe("Directory to search, relative to the workspace or absolute (default: the workspace).")),
});

export const globSpec = defineSpec({
  name: "glob",
  kind: "read",
  description:
    'Find files by name. A pattern without a slash matches file names at any depth ("*.test.ts", "README*"); ' +
    'a pattern with a slash matches the path relative to the search directory ("src/**/*.ts"). ' +
    "Supports *, **, ?, [abc] and {a,b}; dotfiles are included. Files ignored by .gitignore and the .git " +
    `directory are skipped. Returns up to ${MAX_GLOB_FILES} paths (relative to the workspace), sorted by path; ` +
    "directories themselves are not listed (use list_dir for that). " +
    QUOTED_NAMES,
  params,
  truncate: "head",
  moreHint: "Narrow the pattern or path.",
  summarize: (a) => `${a.pattern}${a.path ? ` in ${a.path}` : ""}`,
});

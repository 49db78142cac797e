// list_dir's spec: what the model sees of it (the implementation is src/tools/list-dir.ts).
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";
import { QUOTED_NAMES } from "../path-escape.js";

export const MAX_LIST_ENTRIES = 1000;

const params = z.object({
  path: z
    .optional(z.string())
    .check(z.describe("Directory to list, relative to the workspace or absolute (default: the workspace).")),
  depth: z
    .optional(z.int().check(z.minimum(1), z.maximum(5)))
    .check(z.describe("How many levels to show, 1-5 (default 1: only the directory's own entries).")),
});

export const listDirSpec = defineSpec({
  name: "list_dir",
  kind: "read",
  description:
    "List a directory as an indented tree (2 spaces per level). Directories end with `/`, symlinks show " +
    "`name -> target` and are not followed. Entries are sorted by name. Directories ignored by .gitignore " +
    "(e.g. node_modules, dist) and .git are shown with `(ignored)` but not entered; ignored files are left out " +
    `and counted. depth (1-5, default 1) sets how many levels are shown. At most ${MAX_LIST_ENTRIES} entries. ` +
    QUOTED_NAMES,
  params,
  truncate: "head",
  moreHint: "List a subdirectory, or use a smaller depth.",
  summarize: (a) => `${a.path ?? "."}${a.depth && a.depth > 1 ? ` (depth ${a.depth})` : ""}`,
});

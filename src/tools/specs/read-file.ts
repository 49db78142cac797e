// read_file's spec: what the model sees of it (the implementation is src/tools/read-file.ts).
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";

export const READ_DEFAULT_LIMIT = 2000;

const params = z.object({
  path: z
    .string()
    .check(
      z.describe(
        "File path, relative to the workspace or absolute; a name list_dir or glob shows quoted is taken as shown.",
      ),
    ),
  offset: z.optional(z.int().check(z.minimum(1))).check(z.describe("First line to read, 1-based (default 1).")),
  limit: z
    .optional(z.int().check(z.minimum(1)))
    .check(z.describe(`Number of lines to read (default ${READ_DEFAULT_LIMIT}).`)),
});

export const readFileSpec = defineSpec({
  name: "read_file",
  kind: "read",
  description:
    "Read a text file. Returns lines prefixed with their 1-based line numbers (`     1\\tfirst line`). " +
    `Reads up to ${READ_DEFAULT_LIMIT} lines by default; use offset and limit to page through long files. ` +
    "Files over 4 MB can only be read in windows (give offset and/or limit). Binary files are refused.",
  params,
  truncate: "head",
  moreHint: "Read the rest with offset/limit.",
  summarize: (a) =>
    `${a.path}${a.offset || a.limit ? ` (lines ${a.offset ?? 1}-${a.limit ? (a.offset ?? 1) + a.limit - 1 : "end"})` : ""}`,
});

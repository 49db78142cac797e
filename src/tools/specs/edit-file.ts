// edit_file's spec: what the model sees of it (the implementation is src/tools/edit-file.ts).
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";

const params = z.object({
  path: z
    .string()
    .check(
      z.describe(
        "File path, relative to the workspace or absolute; a name list_dir or glob shows quoted is taken as shown.",
      ),
    ),
  old_string: z
    .string()
    .check(z.describe("Exact text to replace, including indentation. Empty only to create a new file.")),
  new_string: z.string().check(z.describe("Replacement text.")),
  replace_all: z.optional(z.boolean()).check(z.describe("Replace every occurrence instead of requiring exactly one.")),
});

export type EditArgs = z.infer<typeof params>;

export const editFileSpec = defineSpec({
  name: "edit_file",
  kind: "edit",
  description:
    "Replace old_string with new_string in a file. old_string must match exactly (whitespace included) and be " +
    "unique in the file unless replace_all is true; include surrounding lines to make it unique. " +
    "With an empty old_string, creates a new file containing new_string.",
  params,
  summarize: (a) => `${a.path}${a.replace_all ? " (all occurrences)" : ""}`,
});

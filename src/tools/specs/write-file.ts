// write_file's spec: what the model sees of it (the implementation is src/tools/write-file.ts).
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";

const params = z.object({
  path: z
    .string()
    .check(
      z.describe(
        "File path, relative to the workspace or absolute (must be inside the workspace); a name list_dir or glob shows quoted is taken as shown.",
      ),
    ),
  content: z.string().check(z.describe("The whole new content of the file.")),
});

export function countLines(text: string): number {
  if (text === "") return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

export const writeFileSpec = defineSpec({
  name: "write_file",
  kind: "edit",
  description:
    "Create a file or replace its whole content. Parent directories are created. " +
    "Prefer edit_file or apply_patch to change part of an existing file.",
  params,
  summarize: (a) => `${a.path} (${countLines(a.content)} lines)`,
});

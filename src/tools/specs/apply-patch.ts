// apply_patch's spec: what the model sees of it (the implementation is src/tools/apply-patch.ts). The
// summary names the files, so the patch parser loads with the spec; the apply engine does not.
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";
import { parsePatch, type FileOp } from "../patch-parse.js";

const params = z.object({
  patch: z
    .string()
    .check(
      z.describe(
        'The patch text: "*** Begin Patch" ... "*** End Patch" (Codex format), or a unified diff as `git diff` prints it.',
      ),
    ),
});

const description = `Add, update, rename and delete files with one patch; all files change or none do.
Codex format:
*** Begin Patch
*** Update File: src/app.ts
@@ function main() {
   const a = 1;
-  const b = 2;
+  const b = 3;
   return a + b;
*** Add File: docs/notes.md
+first line of the new file
*** Delete File: old.txt
*** End Patch
In a hunk every line starts with " " (unchanged context), "-" (remove) or "+" (add). Give about 3 unchanged lines around each change, copied exactly from the file you read. Hunks are found by content, not line numbers; keep them in file order. When the context occurs more than once, add an "@@ <line above the change>" line such as the enclosing function or class signature. "*** Move to: <new path>" right after an Update File line renames the file; "*** End of File" after a hunk pins it to the end of the file.
A unified diff is accepted too ("--- a/path", "+++ b/path", "@@ -12,5 +12,6 @@", /dev/null to add or delete a file).
Paths are relative to the workspace.`;

function summarize(args: { patch: string }): string {
  let ops: FileOp[];
  try {
    ops = parsePatch(args.patch);
  } catch {
    return "invalid patch";
  }
  const names = ops.map((op) =>
    op.type === "update" && op.moveTo !== undefined ? `${op.path} -> ${op.moveTo}` : op.path,
  );
  const shown = names.slice(0, 3).join(", ") + (names.length > 3 ? `, +${names.length - 3} more` : "");
  return `${names.length} file${names.length === 1 ? "" : "s"}: ${shown}`;
}

export const applyPatchSpec = defineSpec({ name: "apply_patch", kind: "edit", description, params, summarize });

// write_file: create or replace a whole file, atomically, inside the workspace.
import * as z from "../protocol/zod.js";
import { defineTool, ToolError } from "./define.js";
import { displayPath, resolvePath, writableWalk } from "./paths.js";
import { readRegular, requireRegular, writeAtomic } from "./safe-fs-ops.js";

const params = z.object({
  path: z.string().check(z.describe("File path, relative to the workspace or absolute (must be inside the workspace).")),
  content: z.string().check(z.describe("The whole new content of the file.")),
});

export function countLines(text: string): number {
  if (text === "") return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

export const writeFileTool = defineTool({
  name: "write_file",
  kind: "edit",
  description:
    "Create a file or replace its whole content. Parent directories are created. " +
    "Prefer edit_file or apply_patch to change part of an existing file.",
  params,
  summarize: (a) => `${a.path} (${countLines(a.content)} lines)`,
  async run(args, ctx) {
    const abs = resolvePath(ctx.workspace, args.path);
    const shown = displayPath(ctx.workspace, abs);
    const w = writableWalk(ctx.workspace, abs, ctx.boundary);
    try {
      const old = w.lstat();
      if (old?.isDirectory()) throw new ToolError(`${shown} is a directory`);
      if (old) requireRegular(old, shown);
      const before = old ? await readRegular(w, shown) : null;
      if (ctx.signal.aborted) throw new ToolError("stopped before writing");
      w.makeParents();
      await writeAtomic(w, args.content, shown);
      const lines = countLines(args.content);
      const bytes = Buffer.byteLength(args.content);
      const what = before === null ? "created" : `overwrote (was ${countLines(before.data.toString("utf8"))} lines)`;
      return { forModel: `wrote ${shown}: ${lines} lines, ${bytes} bytes, ${what}`, display: `${shown}: ${lines} lines, ${what}` };
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw new ToolError(`cannot write ${shown}: ${(error as Error).message}`);
    } finally {
      w.close();
    }
  },
});

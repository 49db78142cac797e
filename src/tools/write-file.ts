// write_file: create or replace a whole file, atomically, inside the workspace.
import { promises as fs } from "node:fs";
import { dirname } from "node:path";
import * as z from "../protocol/zod.js";
import { defineTool, ToolError } from "./define.js";
import { atomicWriteFile } from "./fs-atomic.js";
import { displayPath, resolvePath, writableTarget } from "./paths.js";

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
    const target = writableTarget(ctx.workspace, abs, ctx.boundary);
    const shown = displayPath(ctx.workspace, abs);
    let before: string | null = null;
    try {
      const stat = await fs.stat(target);
      if (stat.isDirectory()) throw new ToolError(`${shown} is a directory`);
      before = await fs.readFile(target, "utf8");
    } catch (error) {
      if (error instanceof ToolError) throw error;
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new ToolError(`cannot write ${shown}: ${(error as Error).message}`);
    }
    if (ctx.signal.aborted) throw new ToolError("stopped before writing");
    try {
      await fs.mkdir(dirname(target), { recursive: true });
      await atomicWriteFile(target, args.content);
    } catch (error) {
      throw new ToolError(`cannot write ${shown}: ${(error as Error).message}`);
    }
    const lines = countLines(args.content);
    const bytes = Buffer.byteLength(args.content);
    const what = before === null ? "created" : `overwrote (was ${countLines(before)} lines)`;
    return { forModel: `wrote ${shown}: ${lines} lines, ${bytes} bytes, ${what}`, display: `${shown}: ${lines} lines, ${what}` };
  },
});

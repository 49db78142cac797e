// Where a file tool's walk starts: its `path` argument resolved against the workspace and checked,
// and walk paths shown the way the model reads them. The walker itself is src/fs/walk.ts.
import { stat } from "node:fs/promises";
import { ToolError } from "./define.js";
import { displayPath, resolvePath } from "./paths.js";

export interface WalkRoot {
  abs: string;
  /** As the model should read it: relative to the workspace when inside it. */
  shown: string;
  isDir: boolean;
}

/** Resolves a tool's `path` argument (default: the workspace) and checks that it exists. */
export async function resolveWalkRoot(workspace: string, path: string | undefined): Promise<WalkRoot> {
  const abs = resolvePath(workspace, path ?? ".");
  const shown = displayPath(workspace, abs);
  try {
    const st = await stat(abs);
    return { abs, shown, isDir: st.isDirectory() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new ToolError(`no such file or directory: ${shown}`);
    if (code === "EACCES") throw new ToolError(`permission denied: ${shown}`);
    throw new ToolError(`cannot access ${shown}: ${(error as Error).message}`);
  }
}

/** `rel` (a walk path) as shown to the model, given the walk root's shown form. */
export function joinShown(shown: string, rel: string): string {
  return shown === "." ? rel : shown.endsWith("/") ? shown + rel : `${shown}/${rel}`;
}

// list_dir: a directory as an indented tree a few levels deep; ignored directories are named but
// not entered, so the model learns that node_modules exists without reading it.
import { readlink } from "node:fs/promises";
import { fsPath, nameFromBytes } from "../fs/byte-names.js";
import { join } from "node:path";
import { defineTool, ToolError } from "./define.js";
import { walk, type WalkEntry } from "../fs/walk.js";
import { resolveWalkRoot } from "./walk-root.js";
import { showPath } from "./path-escape.js";
import { listDirSpec, MAX_LIST_ENTRIES } from "./specs/list-dir.js";

export { MAX_LIST_ENTRIES };

async function label(entry: WalkEntry, abs: string): Promise<string> {
  switch (entry.type) {
    case "dir":
      return `${showPath(entry.name)}/${entry.ignored ? " (ignored)" : ""}`;
    case "symlink": {
      const target = await readlink(fsPath(abs), { encoding: "buffer" }).then(nameFromBytes, () => "?");
      return `${showPath(entry.name)} -> ${showPath(target)}`;
    }
    case "file":
      return showPath(entry.name);
    default:
      return entry.type satisfies never;
  }
}

export const listDirTool = defineTool({
  ...listDirSpec,
  async run(args, ctx) {
    const root = await resolveWalkRoot(ctx.workspace, args.path);
    if (!root.isDir) throw new ToolError(`${root.shown} is a file, not a directory; use read_file to read it`);

    const lines: string[] = [];
    let listed = 0;
    let ignoredFiles = 0;
    let cut = false;
    const walker = walk(root.abs, {
      signal: ctx.signal,
      ignoreRoot: ctx.workspace,
      maxDepth: args.depth ?? 1,
      yieldIgnored: true,
    });
    for await (const entry of walker) {
      if (entry.ignored && entry.type !== "dir") {
        ignoredFiles++;
        continue;
      }
      if (listed === MAX_LIST_ENTRIES) {
        cut = true;
        break;
      }
      listed++;
      lines.push("  ".repeat(entry.depth) + (await label(entry, join(root.abs, entry.path))));
    }

    const header = root.shown.endsWith("/") ? root.shown : `${root.shown}/`;
    const notes: string[] = [];
    if (listed === 0 && ignoredFiles === 0) notes.push("(empty)");
    if (cut) notes.push(`[${MAX_LIST_ENTRIES} entries shown; list a subdirectory or use a smaller depth for the rest]`);
    if (ignoredFiles > 0) notes.push(`[${ignoredFiles} ignored file${ignoredFiles === 1 ? "" : "s"} not shown]`);
    if (walker.unreadable > 0)
      notes.push(`[${walker.unreadable} unreadable director${walker.unreadable === 1 ? "y" : "ies"} not listed]`);
    const display = `${root.shown}: ${listed}${cut ? "+" : ""} entr${listed === 1 ? "y" : "ies"}`;
    return { forModel: [header, ...lines, ...notes].join("\n"), display };
  },
});

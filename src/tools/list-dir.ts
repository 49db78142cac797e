// list_dir: a directory as an indented tree a few levels deep; ignored directories are named but
// not entered, so the model learns that node_modules exists without reading it.
import { readlink } from "node:fs/promises";
import { fsPath, nameFromBytes } from "../fs/byte-names.js";
import { join } from "node:path";
import * as z from "../protocol/zod.js";
import { defineTool, ToolError } from "./define.js";
import { walk, type WalkEntry } from "../fs/walk.js";
import { resolveWalkRoot } from "./walk-root.js";
import { QUOTED_NAMES, showPath } from "./path-escape.js";

export const MAX_LIST_ENTRIES = 1000;

const params = z.object({
  path: z
    .optional(z.string())
    .check(z.describe("Directory to list, relative to the workspace or absolute (default: the workspace).")),
  depth: z
    .optional(z.int().check(z.minimum(1), z.maximum(5)))
    .check(z.describe("How many levels to show, 1-5 (default 1: only the directory's own entries).")),
});

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

// glob: workspace files whose path matches a glob, gitignore honoured; and the glob matcher that
// grep's `glob` filter shares.
import picomatch from "picomatch";
import { defineTool, ToolError } from "./define.js";
import { findRg, rgFiles } from "./ripgrep.js";
import { walk } from "../fs/walk.js";
import { joinShown, resolveWalkRoot } from "./walk-root.js";
import { showPath } from "./path-escape.js";
import { globSpec, MAX_GLOB_FILES } from "./specs/glob.js";

export { MAX_GLOB_FILES };

/**
 * A matcher for paths relative to the search root, like ripgrep's -g: a pattern without a slash
 * matches the basename at any depth (`*.ts`), one with a slash the whole relative path
 * (`src/*.ts`). Dotfiles match; `{a,b}` and a leading `!` (negation) work.
 */
export function compileGlob(pattern: string): (rel: string) => boolean {
  const cleaned = pattern
    .trim()
    .replace(/^(\.\/)+/, "")
    .replace(/^\/+/, "");
  if (cleaned === "") throw new ToolError("the glob pattern is empty");
  let match: (path: string) => boolean;
  try {
    match = picomatch(cleaned, { dot: true });
  } catch (error) {
    throw new ToolError(`invalid glob ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
  if (cleaned.includes("/")) return match;
  return (rel) => match(rel.slice(rel.lastIndexOf("/") + 1));
}

export const globTool = defineTool({
  ...globSpec,
  async run(args, ctx) {
    const matches = compileGlob(args.pattern);
    const root = await resolveWalkRoot(ctx.workspace, args.path);
    if (!root.isDir) throw new ToolError(`${root.shown} is a file, not a directory; glob searches a directory`);

    const rg = findRg();
    if (rg) {
      const out = await rgFiles(rg, { root: root.abs, glob: args.pattern, signal: ctx.signal, limit: MAX_GLOB_FILES });
      ctx.signal.throwIfAborted();
      if (out.ok) {
        const list = out.items.map((p) => showPath(joinShown(root.shown, p)));
        const note = out.capped ? `\n[${MAX_GLOB_FILES} files shown; narrow the pattern or path for the rest]` : "";
        const count = list.length === 1 ? "1 file" : `${list.length}${out.capped ? "+" : ""} files`;
        return {
          forModel: (list.length === 0 ? "no files match" : list.join("\n")) + note,
          display: `${count} matching ${args.pattern}`,
        };
      }
    }
    const found: string[] = [];
    let capped = false;
    const walker = walk(root.abs, { signal: ctx.signal, ignoreRoot: ctx.workspace });
    for await (const entry of walker) {
      if (entry.type === "dir" || !matches(entry.path)) continue;
      if (found.length === MAX_GLOB_FILES) {
        capped = true;
        break;
      }
      found.push(showPath(joinShown(root.shown, entry.path)));
    }

    const notes: string[] = [];
    if (capped) notes.push(`[${MAX_GLOB_FILES} files shown; narrow the pattern or path for the rest]`);
    if (walker.unreadable > 0) notes.push(`[${walker.unreadable} unreadable directories skipped]`);
    const body = found.length === 0 ? "no files match" : found.join("\n");
    const count = found.length === 1 ? "1 file" : `${found.length}${capped ? "+" : ""} files`;
    return { forModel: [body, ...notes].join("\n"), display: `${count} matching ${args.pattern}` };
  },
});

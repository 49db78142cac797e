// read_file: numbered lines of a text file, a window of it with offset/limit, binaries refused.
import { createReadStream, promises as fs } from "node:fs";
import * as z from "../protocol/zod.js";
import { binaryKind } from "./binary.js";
import { defineTool, ToolError } from "./define.js";
import { displayPath, resolvePath } from "./paths.js";

export const MAX_READ_BYTES = 4 * 1024 * 1024;
const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;

const params = z.object({
  path: z.string().check(z.describe("File path, relative to the workspace or absolute.")),
  offset: z.optional(z.int().check(z.minimum(1))).check(z.describe("First line to read, 1-based (default 1).")),
  limit: z.optional(z.int().check(z.minimum(1))).check(z.describe(`Number of lines to read (default ${DEFAULT_LIMIT}).`)),
});

function formatLine(n: number, line: string): string {
  const text = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} chars]` : line;
  return `${String(n).padStart(6)}\t${text}`;
}

function footer(first: number, last: number, total: number | null, path: string): string {
  if (total !== null && last >= total) return "";
  const more = total === null ? "more lines may follow" : `${total - last} more lines`;
  return `\n[lines ${first}-${last} of ${total ?? "?"} shown; ${more}: read_file {"path": "${path}", "offset": ${last + 1}}]`;
}

/** Streams only the requested window, so a file larger than the read cap can still be paged. */
async function readWindow(abs: string, offset: number, limit: number, signal: AbortSignal): Promise<{ lines: string[]; more: boolean }> {
  const { createInterface } = await import("node:readline");
  const stream = createReadStream(abs, { encoding: "utf8", signal });
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  const lines: string[] = [];
  let n = 0;
  let more = false;
  try {
    for await (const line of rl) {
      n++;
      if (n < offset) continue;
      if (lines.length >= limit) {
        more = true;
        break;
      }
      lines.push(line);
    }
  } finally {
    rl.close();
    stream.destroy();
  }
  return { lines, more };
}

export const readFileTool = defineTool({
  name: "read_file",
  kind: "read",
  description:
    "Read a text file. Returns lines prefixed with their 1-based line numbers (`     1\\tfirst line`). " +
    `Reads up to ${DEFAULT_LIMIT} lines by default; use offset and limit to page through long files. ` +
    "Files over 4 MB can only be read in windows (give offset and/or limit). Binary files are refused.",
  params,
  truncate: "head",
  moreHint: "Read the rest with offset/limit.",
  summarize: (a) => `${a.path}${a.offset || a.limit ? ` (lines ${a.offset ?? 1}-${a.limit ? (a.offset ?? 1) + a.limit - 1 : "end"})` : ""}`,
  async run(args, ctx) {
    const abs = resolvePath(ctx.workspace, args.path);
    const shown = displayPath(ctx.workspace, abs);
    let stat;
    try {
      stat = await fs.stat(abs);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw new ToolError(`no such file: ${shown}`);
      if (code === "EACCES") throw new ToolError(`permission denied: ${shown}`);
      throw new ToolError(`cannot read ${shown}: ${(error as Error).message}`);
    }
    if (stat.isDirectory()) throw new ToolError(`${shown} is a directory; use list_dir to see its entries`);
    if (!stat.isFile()) throw new ToolError(`${shown} is not a regular file`);

    const handle = await fs.open(abs, "r");
    let sample: Buffer;
    try {
      sample = Buffer.alloc(Math.min(8192, stat.size));
      await handle.read(sample, 0, sample.length, 0);
    } finally {
      await handle.close();
    }
    const kind = binaryKind(sample);
    if (kind) throw new ToolError(`${shown} is a binary file (${kind}, ${stat.size} bytes); read_file only reads text`);

    const offset = args.offset ?? 1;
    const limit = args.limit ?? DEFAULT_LIMIT;
    if (stat.size > MAX_READ_BYTES) {
      if (args.offset === undefined && args.limit === undefined) {
        const mb = (stat.size / 1024 / 1024).toFixed(1);
        throw new ToolError(
          `${shown} is ${mb} MB; read_file refuses files over 4 MB whole. Read it in windows with offset and limit, ` +
            `e.g. {"path": "${args.path}", "offset": 1, "limit": 500}, or search it with grep.`,
        );
      }
      const { lines, more } = await readWindow(abs, offset, limit, ctx.signal);
      if (lines.length === 0) throw new ToolError(`${shown} has fewer than ${offset} lines`);
      const body = lines.map((l, i) => formatLine(offset + i, l)).join("\n");
      const last = offset + lines.length - 1;
      return { forModel: body + (more ? footer(offset, last, null, args.path) : ""), display: `${shown}: lines ${offset}-${last}` };
    }

    const text = await fs.readFile(abs, "utf8");
    if (text.length === 0) return { forModel: `${shown} is empty (0 bytes)`, display: `${shown}: empty` };
    const all = text.split(/\r?\n/);
    if (all.length > 1 && all[all.length - 1] === "") all.pop();
    if (offset > all.length) throw new ToolError(`${shown} has ${all.length} lines; offset ${offset} is past the end`);
    const window = all.slice(offset - 1, offset - 1 + limit);
    const last = offset + window.length - 1;
    const body = window.map((l, i) => formatLine(offset + i, l)).join("\n");
    return { forModel: body + footer(offset, last, all.length, args.path), display: `${shown}: ${window.length} lines` };
  },
});

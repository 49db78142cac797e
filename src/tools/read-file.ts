// read_file: numbered lines of a text file, a window of it with offset/limit, binaries refused.
import { constants, promises as fs } from "node:fs";
import { fsPath } from "../fs/byte-names.js";
import * as z from "../protocol/zod.js";
import { binaryKind } from "./binary.js";
import { defineTool, type EditorFiles, ToolError } from "./define.js";
import { editorText } from "./editor-files.js";
import { displayPath, resolvePath } from "./paths.js";
import { fileType } from "./safe-fs.js";
import { foreignEncoding } from "./text-format.js";

export const MAX_READ_BYTES = 4 * 1024 * 1024;
const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;

const params = z.object({
  path: z
    .string()
    .check(
      z.describe(
        "File path, relative to the workspace or absolute; a name list_dir or glob shows quoted is taken as shown.",
      ),
    ),
  offset: z.optional(z.int().check(z.minimum(1))).check(z.describe("First line to read, 1-based (default 1).")),
  limit: z
    .optional(z.int().check(z.minimum(1)))
    .check(z.describe(`Number of lines to read (default ${DEFAULT_LIMIT}).`)),
});

function formatLine(n: number, line: string): string {
  const text =
    line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} chars]` : line;
  return `${String(n).padStart(6)}\t${text}`;
}

function footer(first: number, last: number, total: number | null, path: string): string {
  if (total !== null && last >= total) return "";
  const more = total === null ? "more lines may follow" : `${total - last} more lines`;
  return `\n[lines ${first}-${last} of ${total ?? "?"} shown; ${more}: read_file {"path": "${path}", "offset": ${last + 1}}]`;
}

/** Streams only the requested window, so a file larger than the read cap can still be paged. */
async function readWindow(
  handle: fs.FileHandle,
  offset: number,
  limit: number,
  signal: AbortSignal,
): Promise<{ lines: string[]; more: boolean }> {
  const { createInterface } = await import("node:readline");
  const stream = handle.createReadStream({ encoding: "utf8", signal, start: 0, autoClose: false });
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

/** The one answer every file tool that edits gives for a file over MAX_READ_BYTES. */
export const tooLargeToEdit = (shown: string) =>
  `${shown} is over ${MAX_READ_BYTES >> 20} MB; edit_file and apply_patch change files up to ${MAX_READ_BYTES >> 20} MB only: change this one with a command (e.g. sed -i, or a short script)`;

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
  summarize: (a) =>
    `${a.path}${a.offset || a.limit ? ` (lines ${a.offset ?? 1}-${a.limit ? (a.offset ?? 1) + a.limit - 1 : "end"})` : ""}`,
  async run(args, ctx) {
    const abs = resolvePath(ctx.workspace, args.path);
    const shown = displayPath(ctx.workspace, abs);
    // One descriptor for the checks and the read, opened without blocking: a path swapped for a
    // FIFO between a stat and an open cannot hang the call.
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(fsPath(abs), constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw new ToolError(`no such file: ${shown}`);
      if (code === "EACCES") throw new ToolError(`permission denied: ${shown}`);
      throw new ToolError(`cannot read ${shown}: ${(error as Error).message}`);
    }
    try {
      return await readOpen(handle, shown, args, ctx.signal, ctx.editorFiles ? { files: ctx.editorFiles, abs } : null);
    } finally {
      await handle.close().catch(() => {});
    }
  },
});

/** read_file on an open descriptor: the type and binary checks, then the window or the whole text. */
async function readOpen(
  handle: fs.FileHandle,
  shown: string,
  args: { path: string; offset?: number | undefined; limit?: number | undefined },
  signal: AbortSignal,
  editor: { files: EditorFiles; abs: string } | null,
) {
  const stat = await handle.stat();
  if (stat.isDirectory()) throw new ToolError(`${shown} is a directory; use list_dir to see its entries`);
  if (!stat.isFile())
    throw new ToolError(`${shown} is ${fileType(stat)}, not a regular file; read_file reads regular files only`);

  const sample = Buffer.alloc(Math.min(8192, stat.size));
  await handle.read(sample, 0, sample.length, 0);
  // UTF-16 and UTF-32 text looks like binary data byte by byte: named by its byte-order mark instead.
  const foreign = foreignEncoding(sample);
  if (foreign)
    throw new ToolError(
      `${shown} is ${foreign} text (by its byte-order mark); read_file reads UTF-8 and Latin-1 only. Read it converted with a command: iconv -f ${foreign} -t UTF-8 '${shown.replace(/'/g, "'\\''")}' | head -n ${DEFAULT_LIMIT}`,
    );
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
    const { lines, more } = await readWindow(handle, offset, limit, signal);
    if (lines.length === 0) throw new ToolError(`${shown} has fewer than ${offset} lines`);
    const body = lines.map((l, i) => formatLine(offset + i, l)).join("\n");
    const last = offset + lines.length - 1;
    return {
      forModel: body + (more ? footer(offset, last, null, args.path) : ""),
      display: `${shown}: lines ${offset}-${last}`,
    };
  }

  // The editor's buffer where it has the file open (unsaved edits included), else the disk's text.
  const fromEditor = editor
    ? await editorText(
        editor.files,
        editor.abs,
        signal,
        MAX_READ_BYTES,
        `${shown} is over 4 MB in the editor; read it in windows with offset and limit`,
      )
    : null;
  const text = fromEditor ?? (await readAll(handle, stat.size)).toString("utf8");
  if (text.length === 0) return { forModel: `${shown} is empty (0 bytes)`, display: `${shown}: empty` };
  const all = text.split(/\r?\n/);
  if (all.length > 1 && all[all.length - 1] === "") all.pop();
  if (offset > all.length) throw new ToolError(`${shown} has ${all.length} lines; offset ${offset} is past the end`);
  const window = all.slice(offset - 1, offset - 1 + limit);
  const last = offset + window.length - 1;
  const body = window.map((l, i) => formatLine(offset + i, l)).join("\n");
  return { forModel: body + footer(offset, last, all.length, args.path), display: `${shown}: ${window.length} lines` };
}

/** The whole file from position 0 (the handle's position moved when the sample was read). */
async function readAll(handle: fs.FileHandle, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    const chunk = Buffer.alloc(Math.max(65_536, Math.min(size - position, MAX_READ_BYTES) + 1));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    position += bytesRead;
  }
  return Buffer.concat(chunks);
}

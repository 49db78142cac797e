// write_file: create or replace a whole file, atomically, inside the workspace.
import { defineTool, ToolError } from "./define.js";
import { displayPath, resolvePath, writableWalk } from "./paths.js";
import { binaryKind } from "./binary.js";
import { createInEditor, writesThroughEditor, writeToEditor } from "./editor-files.js";
import { readHead, requireRegular, writeAtomic } from "./safe-fs-ops.js";
import { detectFormat, encodeText, foreignEncoding, formatNote } from "./text-format.js";
import { countLines, writeFileSpec } from "./specs/write-file.js";

export const writeFileTool = defineTool({
  ...writeFileSpec,
  async run(args, ctx) {
    const abs = resolvePath(ctx.workspace, args.path);
    const shown = displayPath(ctx.workspace, abs);
    const w = writableWalk(ctx.workspace, abs, ctx.boundary);
    try {
      const old = w.lstat();
      if (old?.isDirectory()) throw new ToolError(`${shown} is a directory`);
      if (old) requireRegular(old, shown);
      // Only the head of an existing file is read: enough for its format, never the whole file.
      const existing = old ? await readHead(w, shown, FORMAT_HEAD_BYTES) : null;
      // The editor writes in the file's own format; the disk gets the content in the old file's.
      const editor = writesThroughEditor(ctx.editorFiles) ? ctx.editorFiles : null;
      const { data, note } =
        existing && !editor
          ? inFormatOf(existing.head, existing.head.length >= existing.stat.size, args.content, shown)
          : { data: args.content, note: "" };
      if (ctx.signal.aborted) throw new ToolError("stopped before writing");
      if (editor && existing) await writeToEditor(editor, w.real, args.content, shown);
      else if (editor) await createInEditor(w, editor, args.content, shown);
      else {
        w.makeParents();
        await writeAtomic(w, data, shown);
      }
      const lines = countLines(args.content);
      const bytes = Buffer.byteLength(data);
      const what = existing === null ? "created" : `overwrote (was ${existing.stat.size} bytes)${note}`;
      return {
        forModel: `wrote ${shown}${editor ? " through the editor" : ""}: ${lines} lines, ${bytes} bytes, ${what}`,
        display: `${shown}: ${lines} lines, ${what}`,
      };
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw new ToolError(`cannot write ${shown}: ${(error as Error).message}`);
    } finally {
      w.close();
    }
  },
});

const FORMAT_HEAD_BYTES = 64 * 1024;

/**
 * The new content in the replaced file's format: its UTF-8 byte-order mark, its CRLF line endings
 * (when the content has only LF) and its Latin-1 encoding are kept; a UTF-16/32 file is refused
 * by name. A binary file is simply replaced.
 */
function inFormatOf(
  head: Buffer,
  complete: boolean,
  content: string,
  shown: string,
): { data: string | Buffer; note: string } {
  if (!foreignEncoding(head) && binaryKind(head.subarray(0, 8192))) return { data: content, note: "" };
  const format = detectFormat(head, shown, complete);
  let text = content;
  if (format.bom && !text.startsWith("\uFEFF")) text = `\uFEFF${text}`;
  if (format.eol === "\r\n" && !text.includes("\r\n")) text = text.replace(/\n/g, "\r\n");
  return { data: encodeText(text, format, shown), note: formatNote(format) };
}

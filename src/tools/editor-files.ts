// The editor's side of the file tools (ACP's fs/read_text_file and fs/write_text_file): its text
// of a file, and a write handed to it. Both come after the same checks as the disk's.
import { type EditorFiles, ToolError } from "./define.js";
import { withWalk, type Walked } from "./safe-fs.js";
import { rmdirTarget } from "./safe-fs-ops.js";

/** Editor files that take writes. */
export type EditorWriter = EditorFiles & Required<Pick<EditorFiles, "writeText">>;

/**
 * The file as the editor has it (unsaved edits included); null when there is no editor, it does
 * not have the file, or it failed, so the caller takes the disk's text. Text over `maxChars` is a
 * ToolError with `tooLarge`, as an oversized file on disk is.
 */
export async function editorText(
  files: EditorFiles | undefined,
  abs: string,
  signal: AbortSignal,
  maxChars: number,
  tooLarge: string,
): Promise<string | null> {
  if (!files) return null;
  let text: string | null;
  try {
    text = await files.readText(abs, signal);
  } catch {
    return null;
  }
  if (text !== null && text.length > maxChars) throw new ToolError(tooLarge);
  return text;
}

/** The editor takes writes (fs/write_text_file): the file tools hand it their new text instead of writing the disk. */
export function writesThroughEditor(files: EditorFiles | undefined): files is EditorWriter {
  return files?.writeText !== undefined;
}

/**
 * Contract: hands `text` to the editor as the whole new content of `real`, a canonical path the
 * write boundary has already allowed; a refusal or failure is a ToolError saying the editor did
 * not take it (NanoHermes itself wrote nothing). The editor writes in the file's own encoding and
 * line endings, so a byte-order mark decoded from the disk is not sent as text.
 */
export async function writeToEditor(files: EditorWriter, real: string, text: string, shown: string): Promise<void> {
  try {
    await files.writeText(real, text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ToolError(`the editor did not write ${shown} (${why}); NanoHermes wrote nothing to it`);
  }
}

/**
 * A new file handed to the editor: its missing parent directories are made on disk first (the
 * protocol has the editor create the file, not its directories) and removed again when the editor
 * does not write it, so a refused write leaves nothing behind.
 */
export async function createInEditor(w: Walked, files: EditorWriter, text: string, shown: string): Promise<void> {
  w.makeParents();
  try {
    await writeToEditor(files, w.real, text, shown);
  } catch (error) {
    for (const dir of [...w.made].reverse())
      await withWalk(dir, { followFinal: false }, (d) => rmdirTarget(d)).catch(() => false);
    throw error;
  }
}

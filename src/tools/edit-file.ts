// edit_file: replace an exact, unique piece of a file (or every occurrence with replace_all).
import { binaryKind } from "./binary.js";
import { defineTool, type EditorFiles, ToolError, type ToolOutput } from "./define.js";
import { createInEditor, editorText, writesThroughEditor, writeToEditor } from "./editor-files.js";
import { displayPath, resolvePath, writableWalk } from "./paths.js";
import type { Walked } from "./safe-fs.js";
import { readRegular, writeAtomic } from "./safe-fs-ops.js";
import { decodeText, detectFormat, encodeText, refuseReplacementChar } from "./text-format.js";
import { MAX_READ_BYTES, tooLargeToEdit } from "./read-file.js";
import { type EditArgs, editFileSpec } from "./specs/edit-file.js";

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

/** When the exact text is missing, look for it with whitespace ignored to point the model at it. */
function nearMiss(text: string, needle: string): string {
  const norm = (s: string) => s.trim().replace(/\s+/g, " ");
  const want = needle
    .split(/\r?\n/)
    .map(norm)
    .filter((l) => l !== "");
  if (want.length === 0) return "";
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (norm(lines[i]!) !== want[0]) continue;
    let j = i;
    let k = 0;
    while (j < lines.length && k < want.length) {
      const l = norm(lines[j]!);
      if (l === "") {
        j++;
        continue;
      }
      if (l !== want[k]) break;
      j++;
      k++;
    }
    if (k === want.length)
      return ` A similar text with different whitespace starts at line ${i + 1}; copy it exactly (read_file shows it).`;
  }
  return " Read the file again (read_file) and copy the text exactly, including indentation.";
}

function snippet(text: string, startLine: number, lineCount: number): string {
  const lines = text.split("\n");
  const from = Math.max(1, startLine - 3);
  const to = Math.min(lines.length, startLine + lineCount + 2);
  const out: string[] = [];
  for (let n = from; n <= to && out.length < 30; n++) out.push(`${String(n).padStart(6)}\t${lines[n - 1] ?? ""}`);
  return out.join("\n");
}

export const editFileTool = defineTool({
  ...editFileSpec,
  // Text that is not in the file (or not unique) is known before the user is asked to approve.
  async precheck(args, ctx) {
    const abs = resolvePath(ctx.workspace, args.path);
    const shown = displayPath(ctx.workspace, abs);
    const w = writableWalk(ctx.workspace, abs, ctx.boundary);
    try {
      await plan(args, w, shown, ctx.signal, ctx.editorFiles);
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw new ToolError(`cannot edit ${shown}: ${(error as Error).message}`);
    } finally {
      w.close();
    }
  },
  async run(args, ctx) {
    const abs = resolvePath(ctx.workspace, args.path);
    const shown = displayPath(ctx.workspace, abs);
    const w = writableWalk(ctx.workspace, abs, ctx.boundary);
    try {
      return await edit(args, w, shown, ctx.signal, ctx.editorFiles);
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw new ToolError(`cannot edit ${shown}: ${(error as Error).message}`);
    } finally {
      w.close();
    }
  },
});

/**
 * What an edit will write, worked out from the file as it is; a ToolError when it cannot be done.
 * `bytes` (the disk's encoding) only when the edit goes to the disk; the editor takes `updated`.
 */
type EditPlan =
  | { kind: "create" }
  | { kind: "replace"; bytes: Uint8Array | null; updated: string; first: number; count: number };

/**
 * The disk's checks decide whether the file can be edited (it exists, is a regular text file
 * under 4 MB); the text the edit applies to is the editor's where it has the file open (unsaved
 * edits included), else the disk's.
 */
async function plan(
  args: EditArgs,
  w: Walked,
  shown: string,
  signal: AbortSignal,
  editor: EditorFiles | undefined,
): Promise<EditPlan> {
  const old = w.lstat();
  if (old?.isDirectory()) throw new ToolError(`${shown} is a directory`);
  const read = await readRegular(w, shown, MAX_READ_BYTES, tooLargeToEdit(shown));
  const raw = read?.data ?? null;
  const buffer =
    raw === null
      ? null
      : await editorText(editor, w.real, signal, MAX_READ_BYTES, `${shown} is over 4 MB in the editor`);

  if (args.old_string === "") {
    if (raw !== null && (raw.length > 0 || (buffer !== null && buffer.length > 0))) {
      throw new ToolError(
        `${shown} exists and is not empty; old_string must be the text to replace (empty is only for creating a file)`,
      );
    }
    return { kind: "create" };
  }
  if (raw === null) throw new ToolError(`no such file: ${shown} (to create it, use write_file or an empty old_string)`);
  // The format first: a UTF-16 file looks binary, but deserves its encoding's name.
  const format = detectFormat(raw, shown);
  const kind = binaryKind(raw.subarray(0, 8192));
  if (kind) throw new ToolError(`${shown} is a binary file (${kind}); edit_file only edits text`);
  if (args.old_string === args.new_string)
    throw new ToolError("old_string and new_string are the same; nothing to change");
  refuseReplacementChar(format, shown, args.old_string);

  // Decoded losslessly (UTF-8 as it is, anything else byte for byte as Latin-1), so every byte
  // outside the replaced text is written back exactly: BOM, line endings, final newline.
  const text = buffer ?? decodeText(raw, format);
  // A CRLF file edited with LF strings: match and write in the file's own line endings.
  const crlf = text.includes("\r\n") && !args.old_string.includes("\r\n");
  const oldText = crlf ? args.old_string.replace(/\n/g, "\r\n") : args.old_string;
  const newText = crlf ? args.new_string.replace(/\n/g, "\r\n") : args.new_string;

  const at = occurrences(text, oldText);
  if (at.length === 0) throw new ToolError(`old_string was not found in ${shown}.${nearMiss(text, args.old_string)}`);
  if (at.length > 1 && !args.replace_all) {
    const lines = at.slice(0, 10).map((i) => lineOf(text, i));
    throw new ToolError(
      `old_string occurs ${at.length} times in ${shown} (at lines ${lines.join(", ")}${at.length > 10 ? ", ..." : ""}); ` +
        "include more surrounding lines to make it unique, or set replace_all to true",
    );
  }
  const updated = args.replace_all
    ? text.split(oldText).join(newText)
    : text.slice(0, at[0]) + newText + text.slice(at[0]! + oldText.length);
  return {
    kind: "replace",
    bytes: writesThroughEditor(editor) ? null : encodeText(updated, format, shown),
    updated,
    first: lineOf(text, at[0]!),
    count: args.replace_all ? at.length : 1,
  };
}

/** The edit itself, reading and writing through one walked directory (or handing the text to the editor). */
async function edit(
  args: EditArgs,
  w: Walked,
  shown: string,
  signal: AbortSignal,
  editor: EditorFiles | undefined,
): Promise<ToolOutput> {
  const planned = await plan(args, w, shown, signal, editor);
  if (planned.kind === "create") {
    if (signal.aborted) throw new ToolError("stopped before writing");
    if (writesThroughEditor(editor)) await createInEditor(w, editor, args.new_string, shown);
    else {
      w.makeParents();
      await writeAtomic(w, args.new_string, shown);
    }
    const via = writesThroughEditor(editor) ? " through the editor" : "";
    return {
      forModel: `created ${shown}${via} (${args.new_string.split("\n").length} lines)`,
      display: `${shown}: created`,
    };
  }
  const { updated, first, count } = planned;
  if (signal.aborted) throw new ToolError("stopped before writing");
  try {
    if (planned.bytes === null && writesThroughEditor(editor)) await writeToEditor(editor, w.real, updated, shown);
    else await writeAtomic(w, planned.bytes ?? updated, shown);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(`cannot write ${shown}: ${(error as Error).message}`);
  }
  const view = snippet(updated.replace(/\r\n/g, "\n"), first, args.new_string.split("\n").length);
  return {
    forModel: `edited ${shown}${writesThroughEditor(editor) ? " through the editor" : ""}: replaced ${count} occurrence${count === 1 ? "" : "s"} (first at line ${first}). The file now reads:\n${view}`,
    display: `${shown}: ${count} replacement${count === 1 ? "" : "s"} at line ${first}`,
  };
}

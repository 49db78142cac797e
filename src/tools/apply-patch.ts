// apply_patch: apply a multi-file patch (Codex format or unified diff) inside the workspace, all or
// nothing: every new content is computed in memory first, and a failed write restores what was written.
// Where the editor takes writes, new texts go to it (deletions, which ACP has no call for, to the disk).
import { readlinkSync, symlinkSync } from "node:fs";
import { fsPath, nameFromBytes } from "../fs/byte-names.js";
import * as z from "../protocol/zod.js";
import { binaryKind } from "./binary.js";
import { defineTool, type EditorFiles, ToolError, type PrecheckContext, type ToolContext } from "./define.js";
import { editorText, writesThroughEditor, writeToEditor, type EditorWriter } from "./editor-files.js";
import { applyHunks } from "./patch-apply.js";
import { parsePatch, type FileOp } from "./patch-parse.js";
import { checkWritable, displayPath, resolvePath, writableWalk, type WriteBoundary } from "./paths.js";
import { MAX_READ_BYTES, tooLargeToEdit } from "./read-file.js";
import { walk, withWalk, type Walked } from "./safe-fs.js";
import { readRegular, rmdirTarget, unlinkTarget, writeAtomic } from "./safe-fs-ops.js";
import { decodeText, detectFormat, encodeText, refuseReplacementChar, type TextFormat } from "./text-format.js";

const params = z.object({
  patch: z
    .string()
    .check(
      z.describe(
        'The patch text: "*** Begin Patch" ... "*** End Patch" (Codex format), or a unified diff as `git diff` prints it.',
      ),
    ),
});

const description = `Add, update, rename and delete files with one patch; all files change or none do.
Codex format:
*** Begin Patch
*** Update File: src/app.ts
@@ function main() {
   const a = 1;
-  const b = 2;
+  const b = 3;
   return a + b;
*** Add File: docs/notes.md
+first line of the new file
*** Delete File: old.txt
*** End Patch
In a hunk every line starts with " " (unchanged context), "-" (remove) or "+" (add). Give about 3 unchanged lines around each change, copied exactly from the file you read. Hunks are found by content, not line numbers; keep them in file order. When the context occurs more than once, add an "@@ <line above the change>" line such as the enclosing function or class signature. "*** Move to: <new path>" right after an Update File line renames the file; "*** End of File" after a hunk pins it to the end of the file.
A unified diff is accepted too ("--- a/path", "+++ b/path", "@@ -12,5 +12,6 @@", /dev/null to add or delete a file).
Paths are relative to the workspace.`;

/** One file as the patch leaves it. Keyed by real path, so two spellings of a file share an entry. */
interface Planned {
  /** The path as first asked for, walked again (no-follow) at commit time. */
  abs: string;
  real: string;
  shown: string;
  /** The bytes on disk before the patch (restored on failure); null when the file did not exist. */
  original: Buffer | null;
  /** Permission bits of the original, to recreate a deleted file as it was. */
  mode: number | undefined;
  /** The text as earlier operations of this patch left it; null when absent. */
  text: string | null;
  /** The text before the patch (the editor's where it has the file open): what the editor gets back on failure. */
  loaded: string | null;
  /** How the text maps to bytes: the original's format (kept byte for byte), UTF-8 for a new file. */
  format: TextFormat;
  /** The text encoded for writing, filled in once the whole patch is planned. */
  bytes?: Buffer;
  /** Set when the entry is a symbolic link being deleted: its target, to recreate it on rollback. */
  link?: string;
}

interface Plan {
  files: Planned[];
  /** One line per operation for the model: `M a.ts (+3 -1)`. */
  report: string[];
}

function countLines(text: string): number {
  if (text === "") return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

/**
 * The disk's checks decide whether a file can be patched (a regular text file under the cap); the
 * text the hunks apply to is the editor's where it has the file open (unsaved edits included).
 */
async function load(w: Walked, abs: string, shown: string, editor: EditorSide): Promise<Planned> {
  const absent: Planned = {
    abs,
    real: w.real,
    shown,
    original: null,
    mode: undefined,
    text: null,
    loaded: null,
    format: { encoding: "utf-8", bom: false, eol: "\n" },
  };
  if (w.lstat()?.isDirectory()) throw new ToolError(`${shown} is a directory, not a file`);
  const read = await readRegular(w, shown, MAX_READ_BYTES, tooLargeToEdit(shown));
  if (read === null) return absent;
  const format = detectFormat(read.data, shown);
  const kind = binaryKind(read.data.subarray(0, 8192));
  if (kind) throw new ToolError(`${shown} is a binary file (${kind}); apply_patch only edits text`);
  const tooLarge = `${shown} is over ${MAX_READ_BYTES >> 20} MB in the editor; change it with a command instead`;
  const text =
    (await editorText(editor.files, w.real, editor.signal, MAX_READ_BYTES, tooLarge)) ?? decodeText(read.data, format);
  return { ...absent, original: read.data, mode: read.mode, text, loaded: text, format };
}

/**
 * `*** Delete File` of a symbolic link removes the link itself, never its target (which may lie
 * outside the workspace). The link's own directory must be writable. Null when `path` is not a link.
 */
async function linkEntry(workspace: string, path: string, boundary?: WriteBoundary): Promise<Planned | null> {
  const abs = resolvePath(workspace, path);
  // The link itself, never what it points to: the walk resolves the directories above it only.
  return withWalk(abs, { followFinal: false }, (w) => {
    if (!w.lstat()?.isSymbolicLink()) return null;
    checkWritable(workspace, abs, w.real, boundary);
    const link = readlinkOf(w);
    return {
      abs,
      real: w.real,
      shown: displayPath(workspace, abs),
      original: Buffer.alloc(0),
      mode: undefined,
      text: null,
      loaded: null,
      format: { encoding: "utf-8", bom: false, eol: "\n" },
      link,
    };
  });
}

/** Moving through a symlink would move its target and leave the link dangling. */
async function refuseLink(workspace: string, path: string, action: string): Promise<void> {
  const abs = resolvePath(workspace, path);
  const target = await withWalk(abs, { followFinal: false }, (w) =>
    w.lstat()?.isSymbolicLink() ? readlinkOf(w) : null,
  );
  if (target !== null) {
    throw new ToolError(
      `cannot ${action} ${displayPath(workspace, abs)}: it is a symbolic link (to ${target}); remove or rename links with a command`,
    );
  }
}

function readlinkOf(w: Walked): string {
  return nameFromBytes(readlinkSync(w.at(), { encoding: "buffer" }));
}

/** The editor's part in a patch: where texts are read from and written to. */
interface EditorSide {
  files: EditorFiles | undefined;
  signal: AbortSignal;
}

/** Works out every file's new content without touching the disk. Throws a ToolError on any problem. */
async function plan(ops: FileOp[], workspace: string, editor: EditorSide, boundary?: WriteBoundary): Promise<Plan> {
  const byReal = new Map<string, Planned>();
  const report: string[] = [];
  const file = async (path: string): Promise<Planned> => {
    const abs = resolvePath(workspace, path);
    const w = writableWalk(workspace, abs, boundary);
    try {
      let entry = byReal.get(w.real);
      if (!entry) {
        entry = await load(w, abs, displayPath(workspace, abs), editor);
        byReal.set(w.real, entry);
      }
      return entry;
    } finally {
      w.close();
    }
  };
  for (const op of ops) {
    const link = op.type === "delete" ? await linkEntry(workspace, op.path, boundary) : null;
    if (link) {
      if (byReal.has(link.real)) throw new ToolError(`cannot delete ${link.shown} twice in one patch`);
      byReal.set(link.real, link);
      report.push(`D ${link.shown} (a symbolic link; its target ${link.link} is kept)`);
      continue;
    }
    const f = await file(op.path);
    switch (op.type) {
      case "add":
        if (f.text !== null)
          throw new ToolError(
            `cannot add ${f.shown}: it already exists. Use "*** Update File: ${op.path}" to change it.`,
          );
        f.text = op.content;
        report.push(`A ${f.shown} (+${countLines(op.content)})`);
        break;
      case "delete":
        if (f.text === null) throw new ToolError(`cannot delete ${f.shown}: it does not exist`);
        f.text = null;
        report.push(`D ${f.shown}`);
        break;
      case "update": {
        if (f.text === null)
          throw new ToolError(
            `cannot update ${f.shown}: it does not exist. Use "*** Add File: ${op.path}" to create it.`,
          );
        // A byte-order mark is not part of the first line's text: keep it out of matching, put it back.
        refuseReplacementChar(f.format, f.shown, ...op.hunks.flatMap((h) => h.oldLines));
        const bom = f.text.startsWith("\uFEFF") ? "\uFEFF" : "";
        const result = applyHunks(f.text.slice(bom.length), op.hunks, f.shown);
        const text = bom + result.text;
        const counts = op.hunks.length > 0 ? ` (+${result.added} -${result.removed})` : "";
        const dest = op.moveTo === undefined ? f : await file(op.moveTo);
        if (dest === f) {
          f.text = text;
          report.push(`M ${f.shown}${counts}`);
          break;
        }
        if (dest.text !== null)
          throw new ToolError(`cannot move ${f.shown} to ${dest.shown}: ${dest.shown} already exists`);
        await refuseLink(workspace, op.path, "move");
        dest.text = text;
        dest.format = f.format;
        f.text = null;
        report.push(`R ${f.shown} -> ${dest.shown}${counts}`);
        break;
      }
      default:
        op satisfies never;
    }
  }
  // Encoded now, so a character a Latin-1 file cannot hold fails the patch before anything is written.
  // The editor takes text and keeps the file's encoding itself.
  if (!writesThroughEditor(editor.files))
    for (const f of byReal.values()) if (f.text !== null) f.bytes = encodeText(f.text, f.format, f.shown);
  return { files: [...byReal.values()], report };
}

function unchanged(f: Planned): boolean {
  if (f.original === null) return f.text === null;
  if (f.text === null) return false;
  return f.bytes === undefined ? f.text === f.loaded : f.original.equals(f.bytes);
}

/** Where the commit writes: the planned file walked again, no-follow, and checked again. */
interface Target {
  workspace: string;
  boundary: WriteBoundary | undefined;
  /** Set when the editor takes writes: new texts go to it. */
  editor: EditorWriter | null;
}

/**
 * Walks a planned file again for writing (or, for a deletion, to its own name) and refuses when the
 * walk now ends somewhere else than planned: a directory was swapped for a link in between.
 */
function rewalk(f: Planned, to: Target, remove: boolean): Walked {
  const w = walk(f.abs, { followFinal: !remove });
  try {
    checkWritable(to.workspace, f.abs, w.real, to.boundary);
    if (w.real !== f.real)
      throw new ToolError(
        `${f.shown} now resolves to ${w.real} (it was ${f.real}): a directory changed while the patch was applied`,
      );
    return w;
  } catch (error) {
    w.close();
    throw error;
  }
}

/**
 * Contract: writes every planned file or, if one write fails, restores those already written and
 * throws a ToolError saying so. New contents are written before deletions, so a move never loses data.
 * Every write and deletion goes through a fresh no-follow walk (safe-fs.ts).
 */
async function commit(files: Planned[], to: Target): Promise<void> {
  const pending = files.filter((f) => !unchanged(f));
  const ordered = [...pending.filter((f) => f.text !== null), ...pending.filter((f) => f.text === null)];
  const done: Planned[] = [];
  const made: string[] = [];
  for (const f of ordered) {
    let w: Walked | undefined;
    try {
      w = rewalk(f, to, f.text === null);
      if (f.text === null) unlinkTarget(w);
      else {
        try {
          w.makeParents();
          if (to.editor) await writeToEditor(to.editor, w.real, f.text, f.shown);
          else await writeAtomic(w, f.bytes ?? f.text, f.shown);
        } finally {
          made.push(...w.made);
        }
      }
      done.push(f);
    } catch (error) {
      const lost = await rollback(done, made, to);
      const restored =
        done.length === 0
          ? "No file was changed."
          : lost.length === 0
            ? `No file was changed: the ${done.length} file(s) already written were restored.`
            : `Could not restore ${lost.join(", ")}; the other files were restored.`;
      throw new ToolError(
        `cannot ${f.text === null ? "delete" : "write"} ${f.shown}: ${(error as Error).message}. ${restored}`,
      );
    } finally {
      w?.close();
    }
  }
}

/** Puts written files back as they were; returns the ones it could not restore. */
async function rollback(done: Planned[], made: string[], to: Target): Promise<string[]> {
  const lost: string[] = [];
  for (const f of [...done].reverse()) {
    try {
      const w = rewalk(f, to, f.original === null || f.link !== undefined);
      try {
        if (f.link !== undefined) symlinkSync(fsPath(f.link), w.at());
        else if (f.original === null) unlinkCreated(w, to);
        // What went to the editor goes back through it; a deletion is undone on disk, as it was made.
        else if (to.editor && f.text !== null && f.loaded !== null)
          await writeToEditor(to.editor, w.real, f.loaded, f.shown);
        else {
          w.makeParents();
          await writeAtomic(w, f.original, f.shown, f.mode);
        }
      } finally {
        w.close();
      }
    } catch {
      lost.push(f.shown);
    }
  }
  // Deepest first; rmdir only removes empty directories, so anything else that appeared there stays.
  for (const dir of made.sort((a, b) => b.length - a.length)) {
    await withWalk(dir, { followFinal: false }, (w) => rmdirTarget(w)).catch(() => false);
  }
  return lost;
}

/**
 * Removes a file the patch created. One the editor created may not have reached the disk (ACP has
 * no call to drop an editor's file): nothing to remove there then.
 */
function unlinkCreated(w: Walked, to: Target): void {
  try {
    unlinkTarget(w);
  } catch (error) {
    if (!(to.editor && (error as NodeJS.ErrnoException).code === "ENOENT")) throw error;
  }
}

function summarize(args: { patch: string }): string {
  let ops: FileOp[];
  try {
    ops = parsePatch(args.patch);
  } catch {
    return "invalid patch";
  }
  const names = ops.map((op) =>
    op.type === "update" && op.moveTo !== undefined ? `${op.path} -> ${op.moveTo}` : op.path,
  );
  const shown = names.slice(0, 3).join(", ") + (names.length > 3 ? `, +${names.length - 3} more` : "");
  return `${names.length} file${names.length === 1 ? "" : "s"}: ${shown}`;
}

async function run(args: { patch: string }, ctx: ToolContext): Promise<{ forModel: string; display: string }> {
  let planned: Plan;
  try {
    planned = await plan(
      parsePatch(args.patch),
      ctx.workspace,
      { files: ctx.editorFiles, signal: ctx.signal },
      ctx.boundary,
    );
  } catch (error) {
    if (error instanceof ToolError) throw new ToolError(`${error.message}\nNo file was changed.`);
    throw error;
  }
  // Stopping is honoured up to here; once writing starts it finishes, so the patch is never half applied.
  ctx.signal.throwIfAborted();
  const editor = writesThroughEditor(ctx.editorFiles) ? ctx.editorFiles : null;
  await commit(planned.files, { workspace: ctx.workspace, boundary: ctx.boundary, editor });
  const { report } = planned;
  const display = report.length === 1 ? report[0]! : `${report.length} files: ${report.join(", ")}`;
  const via = editor ? "\n(the new texts went to the editor; deletions to the disk)" : "";
  return { forModel: report.join("\n") + via, display: display.length > 120 ? `${display.slice(0, 119)}…` : display };
}

/** A patch that does not apply (bad format, a hunk not found, a file missing) fails before the approval question. */
async function precheck(args: { patch: string }, ctx: PrecheckContext): Promise<void> {
  try {
    await plan(parsePatch(args.patch), ctx.workspace, { files: ctx.editorFiles, signal: ctx.signal }, ctx.boundary);
  } catch (error) {
    if (error instanceof ToolError) throw new ToolError(`${error.message}\nNo file was changed.`);
    throw error;
  }
}

export const applyPatchTool = defineTool({
  name: "apply_patch",
  kind: "edit",
  description,
  params,
  summarize,
  precheck,
  run,
});

// apply_patch: apply a multi-file patch (Codex format or unified diff) inside the workspace, all or
// nothing: every new content is computed in memory first, and a failed write restores what was written.
import { promises as fs } from "node:fs";
import { basename, dirname, join } from "node:path";
import * as z from "../protocol/zod.js";
import { binaryKind } from "./binary.js";
import { defineTool, ToolError, type ToolContext } from "./define.js";
import { atomicWriteFile } from "./fs-atomic.js";
import { applyHunks } from "./patch-apply.js";
import { parsePatch, type FileOp } from "./patch-parse.js";
import { displayPath, resolvePath, writableTarget, type WriteBoundary } from "./paths.js";
import { MAX_READ_BYTES } from "./read-file.js";

const params = z.object({
  patch: z
    .string()
    .check(z.describe('The patch text: "*** Begin Patch" ... "*** End Patch" (Codex format), or a unified diff as `git diff` prints it.')),
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
  real: string;
  shown: string;
  /** The bytes on disk before the patch (restored on failure); null when the file did not exist. */
  original: Buffer | null;
  /** Permission bits of the original, to recreate a deleted file as it was. */
  mode: number | undefined;
  /** The text as earlier operations of this patch left it; null when absent. */
  text: string | null;
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

async function load(real: string, shown: string): Promise<Planned> {
  const absent: Planned = { real, shown, original: null, mode: undefined, text: null };
  let stat;
  try {
    stat = await fs.stat(real);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a parent is a file; the file is absent, and writing it will fail (and be rolled back).
    if (code === "ENOENT" || code === "ENOTDIR") return absent;
    throw new ToolError(`cannot read ${shown}: ${(error as Error).message}`);
  }
  if (stat.isDirectory()) throw new ToolError(`${shown} is a directory, not a file`);
  if (stat.size > MAX_READ_BYTES) throw new ToolError(`${shown} is over ${MAX_READ_BYTES >> 20} MB; change it with a command instead`);
  const original = await fs.readFile(real);
  const kind = binaryKind(original.subarray(0, 8192));
  if (kind) throw new ToolError(`${shown} is a binary file (${kind}); apply_patch only edits text`);
  return { real, shown, original, mode: stat.mode & 0o7777, text: original.toString("utf8") };
}

/**
 * `*** Delete File` of a symbolic link removes the link itself, never its target (which may lie
 * outside the workspace). The link's own directory must be writable. Null when `path` is not a link.
 */
async function linkEntry(workspace: string, path: string, boundary?: WriteBoundary): Promise<Planned | null> {
  const abs = resolvePath(workspace, path);
  const target = await fs.readlink(abs).catch(() => null);
  if (target === null) return null;
  const real = join(writableTarget(workspace, dirname(abs), boundary), basename(abs));
  return { real, shown: displayPath(workspace, abs), original: Buffer.alloc(0), mode: undefined, text: null, link: target };
}

/** Moving through a symlink would move its target and leave the link dangling. */
async function refuseLink(workspace: string, path: string, action: string): Promise<void> {
  const abs = resolvePath(workspace, path);
  const target = await fs.readlink(abs).catch(() => null);
  if (target !== null) {
    throw new ToolError(`cannot ${action} ${displayPath(workspace, abs)}: it is a symbolic link (to ${target}); remove or rename links with a command`);
  }
}

/** Works out every file's new content without touching the disk. Throws a ToolError on any problem. */
async function plan(ops: FileOp[], workspace: string, boundary?: WriteBoundary): Promise<Plan> {
  const byReal = new Map<string, Planned>();
  const report: string[] = [];
  const file = async (path: string): Promise<Planned> => {
    const abs = resolvePath(workspace, path);
    const real = writableTarget(workspace, abs, boundary);
    let entry = byReal.get(real);
    if (!entry) {
      entry = await load(real, displayPath(workspace, abs));
      byReal.set(real, entry);
    }
    return entry;
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
        if (f.text !== null) throw new ToolError(`cannot add ${f.shown}: it already exists. Use "*** Update File: ${op.path}" to change it.`);
        f.text = op.content;
        report.push(`A ${f.shown} (+${countLines(op.content)})`);
        break;
      case "delete":
        if (f.text === null) throw new ToolError(`cannot delete ${f.shown}: it does not exist`);
        f.text = null;
        report.push(`D ${f.shown}`);
        break;
      case "update": {
        if (f.text === null) throw new ToolError(`cannot update ${f.shown}: it does not exist. Use "*** Add File: ${op.path}" to create it.`);
        // A byte-order mark is not part of the first line's text: keep it out of matching, put it back.
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
        if (dest.text !== null) throw new ToolError(`cannot move ${f.shown} to ${dest.shown}: ${dest.shown} already exists`);
        await refuseLink(workspace, op.path, "move");
        dest.text = text;
        f.text = null;
        report.push(`R ${f.shown} -> ${dest.shown}${counts}`);
        break;
      }
      default:
        op satisfies never;
    }
  }
  return { files: [...byReal.values()], report };
}

function unchanged(f: Planned): boolean {
  return f.original === null ? f.text === null : f.text !== null && f.original.equals(Buffer.from(f.text, "utf8"));
}

/** Directories made for new files, so a rollback can remove them again. */
interface MadeDir {
  top: string;
  deepest: string;
}

/**
 * Contract: writes every planned file or, if one write fails, restores those already written and
 * throws a ToolError saying so. New contents are written before deletions, so a move never loses data.
 */
async function commit(files: Planned[]): Promise<void> {
  const pending = files.filter((f) => !unchanged(f));
  const ordered = [...pending.filter((f) => f.text !== null), ...pending.filter((f) => f.text === null)];
  const done: Planned[] = [];
  const made: MadeDir[] = [];
  for (const f of ordered) {
    try {
      if (f.text === null) {
        await fs.unlink(f.real);
      } else {
        const dir = dirname(f.real);
        const top = await fs.mkdir(dir, { recursive: true });
        if (top !== undefined) made.push({ top, deepest: dir });
        await atomicWriteFile(f.real, f.text);
      }
      done.push(f);
    } catch (error) {
      const lost = await rollback(done, made);
      const restored =
        done.length === 0
          ? "No file was changed."
          : lost.length === 0
            ? `No file was changed: the ${done.length} file(s) already written were restored.`
            : `Could not restore ${lost.join(", ")}; the other files were restored.`;
      throw new ToolError(`cannot ${f.text === null ? "delete" : "write"} ${f.shown}: ${(error as Error).message}. ${restored}`);
    }
  }
}

/** Puts written files back as they were; returns the ones it could not restore. */
async function rollback(done: Planned[], made: MadeDir[]): Promise<string[]> {
  const lost: string[] = [];
  for (const f of [...done].reverse()) {
    try {
      if (f.link !== undefined) await fs.symlink(f.link, f.real);
      else if (f.original === null) await fs.unlink(f.real);
      else await atomicWriteFile(f.real, f.original, f.mode);
    } catch {
      lost.push(f.shown);
    }
  }
  for (const { top, deepest } of made.reverse()) {
    // rmdir only removes empty directories, so anything else that appeared there is left alone.
    for (let dir = deepest; ; dir = dirname(dir)) {
      const removed = await fs.rmdir(dir).then(
        () => true,
        () => false,
      );
      if (!removed || dir === top || dirname(dir) === dir) break;
    }
  }
  return lost;
}

function summarize(args: { patch: string }): string {
  let ops: FileOp[];
  try {
    ops = parsePatch(args.patch);
  } catch {
    return "invalid patch";
  }
  const names = ops.map((op) => (op.type === "update" && op.moveTo !== undefined ? `${op.path} -> ${op.moveTo}` : op.path));
  const shown = names.slice(0, 3).join(", ") + (names.length > 3 ? `, +${names.length - 3} more` : "");
  return `${names.length} file${names.length === 1 ? "" : "s"}: ${shown}`;
}

async function run(args: { patch: string }, ctx: ToolContext): Promise<{ forModel: string; display: string }> {
  let planned: Plan;
  try {
    planned = await plan(parsePatch(args.patch), ctx.workspace, ctx.boundary);
  } catch (error) {
    if (error instanceof ToolError) throw new ToolError(`${error.message}\nNo file was changed.`);
    throw error;
  }
  // Stopping is honoured up to here; once writing starts it finishes, so the patch is never half applied.
  ctx.signal.throwIfAborted();
  await commit(planned.files);
  const { report } = planned;
  const display = report.length === 1 ? report[0]! : `${report.length} files: ${report.join(", ")}`;
  return { forModel: report.join("\n"), display: display.length > 120 ? `${display.slice(0, 119)}…` : display };
}

export const applyPatchTool = defineTool({ name: "apply_patch", kind: "edit", description, params, summarize, run });

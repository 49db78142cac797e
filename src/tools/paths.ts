// Path handling shared by the file tools: resolve against the workspace, and the write boundary.
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { fsPath, nameFromBytes } from "../fs/byte-names.js";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { protectedReason } from "../sandbox/protected.js";
import { SandboxRefusal, ToolError } from "./define.js";
import { readPathArg } from "./path-escape.js";
import { walk, type WalkOptions, type Walked } from "./safe-fs.js";

export function resolvePath(workspace: string, asked: string): string {
  // A name list_dir or glob showed quoted (a newline, a tab in it) comes back in that form.
  const path = readPathArg(asked);
  if (path.trim() === "") throw new ToolError("path is empty");
  if (path.includes("\0")) throw new ToolError("path contains a NUL byte");
  const expanded = path === "~" || path.startsWith("~/") ? `${process.env.HOME ?? "~"}${path.slice(1)}` : path;
  return isAbsolute(expanded) ? resolve(expanded) : resolve(workspace, expanded);
}

/** The path as the user would like to read it: relative inside the workspace, absolute outside. */
export function displayPath(workspace: string, abs: string): string {
  const rel = relative(workspace, abs);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? abs : rel;
}

export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The real path of `path`: symlinks resolved, also a dangling one (whose target would be created
 * by a write), and for a missing path the real path of its deepest existing ancestor plus the rest.
 */
export function realPathOf(path: string, depth = 0): string {
  try {
    return nameFromBytes(realpathSync(fsPath(path), { encoding: "buffer" }));
  } catch {
    if (depth > 40) return path;
    try {
      if (lstatSync(fsPath(path)).isSymbolicLink()) {
        const target = nameFromBytes(readlinkSync(fsPath(path), { encoding: "buffer" }));
        return realPathOf(resolve(dirname(path), target), depth + 1);
      }
    } catch {
      // missing: fall through to the parent
    }
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(realPathOf(parent, depth + 1), relative(parent, path));
  }
}

/** Where in-process tools may write: the same boundary the command sandbox enforces. */
export interface WriteBoundary {
  /** Nothing may be written (read-only sandbox). */
  readOnly: boolean;
  /** Writable roots besides the workspace (extra roots, the temp directory). */
  extraRoots: string[];
  /** Refuse the protected set (src/sandbox/protected.ts, the same list the command sandbox binds
   *  read-only): a model that can write a git hook or its own config escapes every policy. */
  protect: boolean;
}

export const defaultBoundary = (): WriteBoundary => ({ readOnly: false, extraRoots: [], protect: true });

const canonicalRoots = new Map<string, string>();

/**
 * A root's real path, taken once per process: a root whose parent a sandboxed command can write
 * (a workspace under the temp directory) could otherwise be re-pointed by swapping that parent.
 */
export function canonicalRoot(root: string): string {
  let real = canonicalRoots.get(root);
  if (real === undefined) canonicalRoots.set(root, (real = realPathOf(resolve(root))));
  return real;
}

/**
 * Contract: throws a ToolError unless a write to canonical path `real` (as the no-follow walk
 * found it) is allowed: inside the workspace or an extra root, outside every protected path,
 * and not in read-only mode. `abs` is the path as asked, for the message.
 */
export function checkWritable(
  workspace: string,
  abs: string,
  real: string,
  boundary: WriteBoundary = defaultBoundary(),
): void {
  if (boundary.readOnly) throw new SandboxRefusal(`refusing to write ${abs}: the sandbox is read-only`, "read-only");
  const root = canonicalRoot(workspace);
  const via = real !== abs ? ` (it resolves to ${real})` : "";
  const inWorkspace = isInside(root, real);
  if (!inWorkspace && !boundary.extraRoots.some((r) => isInside(canonicalRoot(r), real))) {
    throw new SandboxRefusal(
      `refusing to write ${abs}${via}: it is outside the workspace ${root}`,
      "outside-workspace",
    );
  }
  if (boundary.protect) {
    const why = protectedReason(real, [root, ...boundary.extraRoots.map(canonicalRoot)]);
    if (why !== null)
      throw new SandboxRefusal(
        `refusing to write ${displayPath(root, real)}: it is protected (${why}; a later unsandboxed program would run what is written there). Ask the user to change it, or set "allowProtectedWrites": true in config.json`,
        "protected",
      );
  }
}

/**
 * Contract: walks `abs` with no symlink followed by the kernel (safe-fs.ts), checks the canonical
 * target with checkWritable, and returns the walk (the caller closes it). Links inside the roots
 * keep working; a link (or a swapped directory) leading out is refused or cannot redirect.
 */
export function writableWalk(
  workspace: string,
  abs: string,
  boundary: WriteBoundary | undefined,
  opts: WalkOptions = { followFinal: true },
): Walked {
  const w = walk(abs, opts);
  try {
    checkWritable(workspace, abs, w.real, boundary);
    if (w.name === null) throw new ToolError(`${displayPath(workspace, abs)} is a directory`);
    return w;
  } catch (error) {
    w.close();
    throw error;
  }
}

// Path handling shared by the file tools: resolve against the workspace, and the write boundary.
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ToolError } from "./define.js";

export function resolvePath(workspace: string, path: string): string {
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
    return realpathSync(path);
  } catch {
    if (depth > 40) return path;
    try {
      if (lstatSync(path).isSymbolicLink()) {
        return realPathOf(resolve(dirname(path), readlinkSync(path)), depth + 1);
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
  /** Workspace-relative paths that stay read-only: a model that can write a git hook or its own
   *  config escapes every policy. */
  protectedPaths: string[];
}

export const PROTECTED_PATHS = [".git/hooks", ".git/config", ".nanohermes"];

export const defaultBoundary = (): WriteBoundary => ({ readOnly: false, extraRoots: [], protectedPaths: PROTECTED_PATHS });

/**
 * Contract: returns the real path a write to `abs` would change, or throws a ToolError when that
 * lies outside the writable roots, inside a protected path, or anywhere in read-only mode.
 * Symlinks are followed (also dangling ones), so a link cannot lead a write out.
 */
export function writableTarget(workspace: string, abs: string, boundary: WriteBoundary = defaultBoundary()): string {
  if (boundary.readOnly) throw new ToolError(`refusing to write ${abs}: the sandbox is read-only`);
  const root = realPathOf(workspace);
  const real = realPathOf(abs);
  const via = real !== abs ? ` (it resolves to ${real})` : "";
  const inWorkspace = isInside(root, real);
  if (!inWorkspace && !boundary.extraRoots.some((r) => isInside(realPathOf(r), real))) {
    throw new ToolError(`refusing to write ${abs}${via}: it is outside the workspace ${root}`);
  }
  if (inWorkspace) {
    for (const p of boundary.protectedPaths) {
      if (isInside(join(root, p), real)) {
        throw new ToolError(`refusing to write ${displayPath(root, real)}: ${p} is protected (set "allowProtectedWrites": true in config.json to allow it)`);
      }
    }
  }
  return real;
}

// A session's files as the daemon sees them, for a remote UI's per-turn diffs: the file now, and
// its content before a turn from the session's checkpoints. Only inside the workspace and the
// writable roots, at most 1 MiB, text.
import { promises as fs } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { Settings } from "../config/schema.js";

export const MAX_FILE_BYTES = 1024 * 1024;

export interface FileAt {
  path: string;
  /** The file now; null when it is absent, too large or not text. */
  now: string | null;
  /** Before the turn (when one was asked for): null absent then, omitted when not kept. */
  before?: string | null;
}

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

const text = (data: Buffer): string | null => (data.length > MAX_FILE_BYTES || data.includes(0) ? null : data.toString("utf8"));

/** Reads `path` (absolute, or relative to the workspace) for session `sessionId`; an error message for a path outside. */
export async function fileAt(settings: Settings, sessionId: string, path: string, turn: number | null): Promise<FileAt | string> {
  const roots = [settings.workspace, ...settings.sandbox.writableRoots];
  const abs = resolve(settings.workspace, path);
  if (!roots.some((root) => inside(root, abs))) return `${path} is outside the workspace and the writable roots`;
  let now: string | null = null;
  try {
    const stat = await fs.stat(abs);
    if (stat.isFile() && stat.size <= MAX_FILE_BYTES) now = text(await fs.readFile(abs));
  } catch {
    now = null;
  }
  if (turn === null) return { path: abs, now };
  const { Checkpoints } = await import("../session/checkpoints.js");
  const before = await new Checkpoints({ dir: join(settings.home, "checkpoints", sessionId), roots }).contentBefore(turn, abs);
  return { path: abs, now, ...(before === undefined ? {} : { before: before === null ? null : text(before) }) };
}

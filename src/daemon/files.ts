// A session's files as the daemon sees them, for a remote UI's per-turn diffs: the file now, and
// its content before a turn from the session's checkpoints. Only regular files whose canonical
// path (found by the no-follow walk, safe-fs.ts) lies inside the workspace and the writable roots,
// never the daemon's own files (token, sessions, home), at most 1 MiB, text.
import { join, resolve } from "node:path";
import type { Settings } from "../config/schema.js";
import type { FileAt } from "../remote/wire.js";
import { ToolError } from "../tools/define.js";
import { canonicalRoot, isInside } from "../tools/paths.js";
import { withWalk } from "../tools/safe-fs.js";
import { readRegular } from "../tools/safe-fs-ops.js";

export const MAX_FILE_BYTES = 1024 * 1024;

const text = (data: Buffer): string | null =>
  data.length > MAX_FILE_BYTES || data.includes(0) ? null : data.toString("utf8");

/**
 * Reads `path` (absolute, or relative to the workspace) for session `sessionId`; an error message
 * for a path that is (or whose links lead) outside the roots, or inside `private` (the daemon's own
 * files: its token file, session folder, home). A link inside the roots is followed by the walk.
 */
export async function fileAt(
  settings: Settings,
  sessionId: string,
  path: string,
  turn: number | null,
  privatePaths: readonly string[] = [],
): Promise<FileAt | string> {
  const roots = [settings.workspace, ...settings.sandbox.writableRoots];
  const canonical = roots.map(canonicalRoot);
  const abs = resolve(settings.workspace, path);
  const outside = `${path} is outside the workspace and the writable roots`;
  if (!roots.some((root) => isInside(resolve(root), abs)) && !canonical.some((root) => isInside(root, abs)))
    return outside;
  let found: { real: string; now: string | null };
  try {
    found = await withWalk(abs, { followFinal: true }, async (w) => {
      if (!canonical.some((root) => isInside(root, w.real))) return { real: w.real, now: null };
      if (privatePaths.some((p) => isInside(canonicalRoot(p), w.real))) return { real: "", now: null };
      const read = await readRegular(w, path, MAX_FILE_BYTES).catch((error: unknown) => {
        if (error instanceof ToolError) return null;
        throw error;
      });
      return { real: w.real, now: read ? text(read.data) : null };
    });
  } catch (error) {
    if (error instanceof ToolError) return error.message;
    found = { real: abs, now: null };
  }
  if (found.real === "") return `${path} is one of the daemon's own files`;
  if (!canonical.some((root) => isInside(root, found.real)))
    return `${path} resolves to ${found.real}, ${outside.slice(path.length + 1)}`;
  if (turn === null) return { path: abs, now: found.now };
  const { Checkpoints } = await import("../session/checkpoints.js");
  const before = await new Checkpoints({ dir: join(settings.home, "checkpoints", sessionId), roots }).contentBefore(
    turn,
    found.real,
  );
  return {
    path: abs,
    now: found.now,
    ...(before === undefined ? {} : { before: before === null ? null : text(before) }),
  };
}

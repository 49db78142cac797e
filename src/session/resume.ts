// Finding a session to pick up again: `--resume ID` (an id, a unique id prefix, or a file) and
// `--continue` (the newest session of this workspace).
import { promises as fs } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { readTaskIndex } from "./task-index.js";
import { byCodeUnit } from "../protocol/order.js";
import { systemErrorMeaning } from "../tools/errno.js";

/** How many of the newest session files `--continue` opens when the index does not know. */
const SCAN_LIMIT = 200;

export class ResumeError extends Error {}

/** The session folder exists but cannot be listed (no permission): not the same as "no sessions". */
export class SessionFolderError extends Error {}

/** Lists the session folder: [] when there is none yet; SessionFolderError when it cannot be read. */
async function listSessionDir(sessionDir: string): Promise<string[]> {
  try {
    return await fs.readdir(sessionDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return [];
    throw new SessionFolderError(
      `cannot read the session folder ${sessionDir}: ${systemErrorMeaning(error) ?? (error as Error).message}`,
    );
  }
}

/** The file for `value`: a path to an existing file, an exact session id, or a unique prefix of one. */
export async function resolveSessionRef(sessionDir: string, value: string, cwd: string): Promise<string> {
  const ref = value.trim();
  if (ref === "") throw new ResumeError("--resume needs a session id (nanohermes sessions lists them)");
  if (ref.includes("/") || ref.endsWith(".json")) {
    const file = isAbsolute(ref) ? ref : resolve(cwd, ref);
    try {
      await fs.access(file);
      return file;
    } catch {
      throw new ResumeError(`no session file ${file}`);
    }
  }
  const names = (await listSessionDir(sessionDir)).filter((n) => n.endsWith(".json"));
  const ids = names.map((n) => n.slice(0, -5));
  if (ids.includes(ref)) return join(sessionDir, `${ref}.json`);
  const matches = ids.filter((id) => id.startsWith(ref) || id.endsWith(ref));
  if (matches.length === 1) return join(sessionDir, `${matches[0]}.json`);
  if (matches.length > 1)
    throw new ResumeError(
      `"${ref}" matches ${matches.length} sessions (${matches.slice(0, 5).join(", ")}${matches.length > 5 ? ", ..." : ""}); give more of the id`,
    );
  throw new ResumeError(`no session "${ref}" in ${sessionDir}`);
}

/**
 * The newest session of `workspace`: whichever was written last of the index's newest entries and
 * the newest session files that name it. The index alone is not trusted: a run killed before it
 * updated the index must not make `--continue` pick an older session.
 */
export async function lastSessionOf(home: string, sessionDir: string, workspace: string): Promise<string | null> {
  const candidates: string[] = [];
  const indexed = (await readTaskIndex(home))
    .filter((e) => e.workspace === workspace)
    .sort((a, b) => byCodeUnit(b.updatedAt, a.updatedAt));
  for (const entry of indexed.slice(0, 5)) candidates.push(entry.sessionFile);
  const scanned = await newestFileNaming(sessionDir, workspace);
  if (scanned) candidates.push(scanned);
  let best: { file: string; mtime: number } | null = null;
  for (const file of candidates) {
    const mtime = await fs.stat(file).then(
      (s) => s.mtimeMs,
      () => null,
    );
    if (mtime !== null && (!best || mtime > best.mtime)) best = { file, mtime };
  }
  return best?.file ?? null;
}

/** The most recently written session file in `sessionDir` whose workspace is `workspace`. */
async function newestFileNaming(sessionDir: string, workspace: string): Promise<string | null> {
  const names = (await listSessionDir(sessionDir)).filter((n) => n.endsWith(".json") && !n.startsWith("."));
  const entries = await Promise.all(
    names.map(async (n) => ({
      file: join(sessionDir, n),
      mtime: (await fs.stat(join(sessionDir, n)).catch(() => ({ mtimeMs: 0 }))).mtimeMs,
    })),
  );
  entries.sort((a, b) => b.mtime - a.mtime);
  for (const { file } of entries.slice(0, SCAN_LIMIT)) {
    try {
      // The workspace is near the start of the file; no need to parse the whole session.
      const handle = await fs.open(file, "r");
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
      await handle.close();
      const head = buffer.subarray(0, bytesRead).toString("utf8");
      const match = /"workspace":\s*("(?:[^"\\]|\\.)*")/.exec(head);
      if (match && JSON.parse(match[1]!) === workspace) return file;
    } catch {
      // unreadable: skip
    }
  }
  return null;
}

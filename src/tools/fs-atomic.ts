// Atomic file replacement: write a sibling temp file, fsync it, rename it over the target, fsync
// the directory (so the rename survives a power loss).
import { promises as fs } from "node:fs";
import { basename, dirname, join } from "node:path";
import { randomId } from "../protocol/ids.js";

/**
 * Contract: after this resolves the file holds `data` in full, durably (the data and the rename
 * are both synced). If it rejects before the rename (disk full, killed mid-write) the old file is
 * untouched and no temp file is left behind (unless the process died); if only the directory sync
 * failed (EIO), it rejects with the new data in place but perhaps not durable.
 * An existing file's permission bits are kept.
 */
export async function atomicWriteFile(path: string, data: string | Uint8Array, mode?: number): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.tmp-${process.pid}-${randomId(8)}`);
  let keepMode = mode;
  if (keepMode === undefined) {
    try {
      keepMode = (await fs.stat(path)).mode & 0o7777;
    } catch {
      keepMode = undefined;
    }
  }
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(tmp, "wx", keepMode ?? 0o644);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    if (keepMode !== undefined) await fs.chmod(tmp, keepMode);
    await fs.rename(tmp, path);
  } catch (error) {
    await handle?.close().catch(() => {});
    await fs.unlink(tmp).catch(() => {});
    throw error;
  }
  await syncDir(dir);
}

/**
 * The rename is durable only once the directory entry is on disk: without this a power loss soon
 * after can bring back the old file (or none). A file system that cannot sync a directory
 * (EINVAL, EISDIR on some) is taken as one that needs no such step.
 */
async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, "r");
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EINVAL" && code !== "EISDIR" && code !== "EACCES" && code !== "EPERM") throw error;
  } finally {
    await handle?.close().catch(() => {});
  }
}

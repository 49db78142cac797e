// Atomic file replacement: write a sibling temp file, fsync it, rename it over the target.
import { promises as fs } from "node:fs";
import { basename, dirname, join } from "node:path";
import { randomId } from "../protocol/ids.js";

/**
 * Contract: after this resolves the file holds `data` in full; if it rejects (disk full, killed
 * mid-write) the old file is untouched and no temp file is left behind (unless the process died).
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
}

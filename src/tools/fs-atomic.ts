// Atomic file replacement: write a sibling temp file, fsync it, rename it over the target, fsync
// the directory (so the rename survives a power loss), all through the no-follow walk (safe-fs.ts),
// so no link on the way can move the write elsewhere.
import { resolve } from "node:path";
import { withWalk } from "./safe-fs.js";
import { writeAtomic } from "./safe-fs-ops.js";

/**
 * Contract: after this resolves the file holds `data` in full, durably (the data and the rename
 * are both synced). If it rejects before the rename (disk full, killed mid-write) the old file is
 * untouched and no temp file is left behind (unless the process died); if only the directory sync
 * failed (EIO), it rejects with the new data in place but perhaps not durable.
 * An existing file's permission bits are kept. A symlink at `path` is replaced, not followed (as
 * rename does); links in the directories above are resolved by the walk, never by the kernel.
 * The parent directory must exist (ENOENT otherwise).
 */
export async function atomicWriteFile(path: string, data: string | Uint8Array, mode?: number): Promise<void> {
  const abs = resolve(path);
  await withWalk(abs, { followFinal: false }, (w) => writeAtomic(w, data, abs, mode, { syncDir: true }));
}

// Temp files a killed process left behind: atomicWriteFile's `.<name>.tmp-<pid>-<id>` siblings
// whose writer is gone. Removed when the next run opens a session, so nothing piles up.
import { promises as fs, type Dirent } from "node:fs";
import { join } from "node:path";
import { SKIPPED_DIRS } from "./checkpoint-snapshot.js";

/** `.<name>.tmp-<pid>-<8 id chars>`, as atomicWriteFile (and the checkpoint blob store) name them. */
const TEMP_NAME = /^\..+\.tmp-(\d+)-[A-Za-z0-9_-]{8}$/;

/** Entries a recursive sweep looks at before it stops (a sweep must stay cheap in a huge tree). */
const MAX_ENTRIES = 50_000;

/** Kernel file systems (a workspace of `/`): nothing of ours there, and walking them is costly. */
const NEVER_SWEPT = new Set(["/proc", "/sys", "/dev"]);

function writerGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** The temp file's writer, when `name` is one of ours and that writer is dead. */
export function isOrphanTemp(name: string): boolean {
  const match = TEMP_NAME.exec(name);
  return match !== null && writerGone(Number(match[1]));
}

/**
 * Contract: never throws. Removes orphan temp files directly in each of `flat`, and anywhere
 * under each of `deep` (symlinks not followed; `.git`, `node_modules`, `/proc`, `/sys` and `/dev`
 * skipped; at most MAX_ENTRIES entries looked at). Resolves with the paths removed.
 */
export async function sweepTempFiles(flat: readonly string[], deep: readonly string[] = []): Promise<string[]> {
  const removed: string[] = [];
  const budget = { left: MAX_ENTRIES };
  for (const dir of flat) await sweepDir(dir, false, removed, budget);
  for (const dir of deep) await sweepDir(dir, true, removed, budget);
  return removed;
}

async function sweepDir(dir: string, deep: boolean, removed: string[], budget: { left: number }): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (--budget.left < 0) return;
    const path = join(dir, e.name);
    if (e.isFile() && isOrphanTemp(e.name)) {
      await fs.unlink(path).then(
        () => removed.push(path),
        () => {},
      );
    } else if (deep && e.isDirectory() && !SKIPPED_DIRS.has(e.name) && !NEVER_SWEPT.has(path)) {
      await sweepDir(path, true, removed, budget);
    }
  }
}

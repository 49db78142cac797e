// Putting files back for /rewind and a single file's revert: all or nothing when a path changed
// shape since, removals (and the folders the turn made) before writes, every step through a
// no-follow walk so a parent swapped for a link cannot lead it out of the roots.
import { dirname, sep } from "node:path";
import { withWalk } from "../tools/safe-fs.js";
import { readRegular, rmdirTarget, unlinkTarget, writeAtomic } from "../tools/safe-fs-ops.js";
import { type BlobStore, describeError, mapLimit } from "./checkpoint-blobs.js";
import type { Rec } from "./checkpoint-manifest.js";

export interface RewindResult {
  /** Files holding their pre-turn content again. */
  restored: string[];
  /** Files that did not exist before the turn and no longer do. */
  removed: string[];
  skipped: { path: string; why: string }[];
}

/** What a restore reads from and may touch. */
export interface RestoreScope {
  /** Whether `path` lies inside a tracked root (nothing outside is touched). */
  inRoots(path: string): boolean;
  blobs: BlobStore;
}

/**
 * All or nothing (issue 26.7): a file whose place changed shape since (a parent is now a link or
 * a file, the file a directory) cannot be put back, so nothing is, and each path says why; the
 * workspace is never left half as it was before the turn. Permanent skips (outside the roots,
 * content not kept) do not call the rewind off. A change between this check and the restore is
 * still refused path by path below.
 */
async function blockers(recs: Rec[], scope: RestoreScope): Promise<{ path: string; why: string }[]> {
  const blocked: { path: string; why: string }[] = [];
  for (const { path, pre } of recs) {
    if (!scope.inRoots(path) || pre.state === "too-large") continue;
    const why = await withWalk(path, { followFinal: false }, (w) => {
      if (w.real !== path) return "a parent directory is now a symlink; not touched";
      const parent = w.blockedParent();
      if (parent) return pre.state === "kept" ? `${parent} is a file now; not touched` : null;
      if (w.lstat()?.isDirectory())
        return pre.state === "kept" ? "is a directory now; not overwritten" : "is a directory now; not removed";
      return null;
    }).catch((error: unknown) => `cannot reach it: ${describeError(error)}`);
    if (why !== null) blocked.push({ path, why });
  }
  return blocked;
}

/**
 * Puts the records' pre-states back: removals first (a path may have turned from a file into a
 * directory or back), then writes. A file that cannot be put back is listed in `skipped` and the
 * others still are (unless the rewind is called off, above).
 */
export async function restoreRecords(recs: Rec[], scope: RestoreScope): Promise<RewindResult> {
  const { inRoots, blobs } = scope;
  const result: RewindResult = { restored: [], removed: [], skipped: [] };
  const skip = (path: string, why: string) => result.skipped.push({ path, why });
  const blocked = await blockers(recs, scope);
  if (blocked.length > 0) {
    const stop = new Set(blocked.map((b) => b.path));
    const off = `not touched: the rewind was called off because ${blocked[0]!.path} cannot be put back`;
    for (const { path, pre } of recs) {
      if (stop.has(path)) continue;
      skip(path, !inRoots(path) ? "outside the tracked roots" : pre.state === "too-large" ? pre.why : off);
    }
    result.skipped.push(...blocked);
    result.skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return result;
  }
  const writes: Rec[] = [];
  const dirs = new Set<string>();
  for (const rec of recs) {
    const { path, pre } = rec;
    if (!inRoots(path)) skip(path, "outside the tracked roots");
    else if (pre.state === "too-large") skip(path, pre.why);
    else if (pre.state === "kept") writes.push(rec);
    else {
      try {
        const gone = await withWalk(path, { followFinal: false }, (w) => {
          if (w.real !== path) return "a parent directory is now a symlink; not touched";
          const st = w.lstat();
          if (st?.isDirectory()) return "is a directory now; not removed";
          if (st) unlinkTarget(w);
          return null;
        });
        if (gone !== null) skip(path, gone);
        else {
          result.removed.push(path);
          const top = pre.dirsFrom;
          if (top)
            for (let d = dirname(path); inRoots(d) && (d === top || d.startsWith(top + sep)); d = dirname(d))
              dirs.add(d);
        }
      } catch (error) {
        skip(path, `cannot remove: ${describeError(error)}`);
      }
    }
  }
  // Directories the turn created, deepest first; ones still holding files stay.
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    await withWalk(d, { followFinal: false }, (w) => w.real === d && rmdirTarget(w)).catch(() => false);
  }
  await mapLimit(writes, 8, async ({ path, pre }) => {
    if (pre.state !== "kept") return;
    try {
      const data = await blobs.get(pre.sha);
      if (!data) return skip(path, "checkpoint content missing or corrupt");
      // Read, compare and write through one no-follow walk: a parent swapped for a link cannot
      // lead the restore out of the roots (safe-fs.ts).
      const why = await withWalk(path, { followFinal: false }, async (w) => {
        if (w.real !== path) return "a parent directory is now a symlink; not touched";
        const st = w.lstat();
        if (st?.isDirectory()) return "is a directory now; not overwritten";
        const current = st?.isFile() ? await readRegular(w, path, data.length).catch(() => null) : null;
        if (current && current.mode === pre.mode && current.data.equals(data)) return null;
        w.makeParents();
        await writeAtomic(w, data, path, pre.mode);
        return null;
      });
      if (why !== null) return skip(path, why);
      result.restored.push(path);
    } catch (error) {
      skip(path, `cannot write: ${describeError(error)}`);
    }
  });
  result.restored.sort();
  result.removed.sort();
  return result;
}

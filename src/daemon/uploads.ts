// Images uploaded for a daemon session's prompts: kept (mode 600) in the session folder's
// .uploads until the prompt that names them runs, removed after an hour.
import { lstatSync, promises as fs } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { randomId } from "../protocol/ids.js";
import { withWalk } from "../tools/safe-fs.js";
import { createNew, unlinkTarget } from "../tools/safe-fs-ops.js";

/** Where uploaded images wait for the prompt that names them (inside the session folder). */
export const uploadDirOf = (sessionDir: string): string => join(sessionDir, ".uploads");

/** Keeps an uploaded image (mode 600) in `dir`; returns its path. */
export async function storeUpload(dir: string, name: string, data: Buffer): Promise<string> {
  const safe =
    basename(name)
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .slice(-80) || "image";
  const path = join(dir, `${randomId(10)}-${safe}`);
  // Made new (never through a link) in a folder reached by the no-follow walk.
  await withWalk(path, { followFinal: false }, (w) => {
    w.makeParents(0o700);
    return createNew(w, data, 0o600);
  });
  return path;
}

/** Removes uploads older than `maxAgeMs` (a prompt uses its images when its turn starts). */
export async function pruneUploads(dir: string, maxAgeMs: number): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      await withWalk(join(dir, name), { followFinal: false }, (w) => {
        const stat = w.lstat();
        if (stat && !stat.isDirectory() && Date.now() - stat.mtimeMs > maxAgeMs) unlinkTarget(w);
      }).catch(() => {});
    }),
  );
}

/**
 * Whether `path` is an upload: a regular file the daemon made in `dir`. A path of the daemon's own
 * files is not for clients to name, and a link planted in the folder is no upload.
 */
export function isUpload(dir: string, path: string): boolean {
  return dirname(resolve(path)) === dir && lstatSync(resolve(path), { throwIfNoEntry: false })?.isFile() === true;
}

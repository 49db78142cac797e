// Where a refused session went: a session file that cannot be used (unreadable, a symlink, a
// folder, a FIFO, from a newer version) is never written over, and its run goes on in a new file
// (a fork). The fork is remembered here, so the next load of the same refused file (the daemon's
// next turn after an unload or a restart, the next `--session FILE` run) goes on in that fork
// instead of making one more. One record per refused path (as it is now): a symlink in
// `<sessionDir>/.forks/`, named by a hash, pointing at the fork's file, made and replaced atomically.
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import { basename, join, resolve } from "node:path";
import { randomId } from "../protocol/ids.js";

const forksDir = (sessionDir: string) => join(sessionDir, ".forks");

/**
 * The record's name: a hash of the refused path and of what lstat says of it (inode, size, time),
 * so a refused file that changed since (a newer version wrote to it again) gets a fork of what it
 * holds now instead of the old one.
 */
async function recordOf(sessionDir: string, refused: string): Promise<string> {
  const st = await fs.lstat(refused).catch(() => null);
  const stamp = st ? `${st.ino}:${st.size}:${st.mtimeMs}` : "";
  const key = createHash("sha256")
    .update(`${resolve(refused)}\0${stamp}`)
    .digest("hex")
    .slice(0, 32);
  return join(forksDir(sessionDir), key);
}

/**
 * Contract: the fork recorded for `refused` when there is one and its file is a regular file now
 * (a fork whose run died before its first save has none: null then). Never rejects.
 */
export async function recordedFork(sessionDir: string, refused: string): Promise<string | null> {
  try {
    const fork = await fs.readlink(await recordOf(sessionDir, refused));
    return (await fs.lstat(fork)).isFile() ? fork : null;
  } catch {
    return null;
  }
}

/**
 * Contract: after this resolves, recordedFork(sessionDir, refused) names `fork` (once it is saved);
 * an earlier record is replaced in one step (a rename). Rejects when the record cannot be written
 * (the caller goes on: the fork itself is made either way).
 */
export async function recordFork(sessionDir: string, refused: string, fork: string): Promise<void> {
  await fs.mkdir(forksDir(sessionDir), { recursive: true, mode: 0o700 });
  const record = await recordOf(sessionDir, refused);
  // Named as the temp sweep knows them (`.NAME.tmp-PID-ID`), so one a killed run left goes.
  const temp = join(forksDir(sessionDir), `.${basename(record)}.tmp-${process.pid}-${randomId(8)}`);
  await fs.symlink(resolve(fork), temp);
  try {
    await fs.rename(temp, record);
  } catch (error) {
    await fs.unlink(temp).catch(() => {});
    throw error;
  }
}

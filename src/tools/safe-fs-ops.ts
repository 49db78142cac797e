// Reading, replacing and removing a walked target (see safe-fs.ts) through its pinned directory:
// regular files only, opened O_NOFOLLOW|O_NONBLOCK, replaced by a temp file made in the same directory.
import { constants, promises as fs, rmdirSync, unlinkSync, type Stats } from "node:fs";
import { randomId } from "../protocol/ids.js";
import { ToolError } from "./define.js";
import { fileType, type Walked } from "./safe-fs.js";

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;
/** Never blocks on a FIFO or a device, never makes a terminal ours, never follows a link. */
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

/** The target's contents and metadata. */
export interface FileRead {
  data: Buffer;
  /** Permission bits. */
  mode: number;
  stat: Stats;
}

/** Throws a ToolError naming the file type when `st` is anything but a regular file. */
export function requireRegular(st: Stats, shown: string): void {
  if (!st.isFile())
    throw new ToolError(`${shown} is ${fileType(st)}, not a regular file; refusing to read or write it`);
}

/**
 * Contract: the target's bytes, or null when it does not exist. Refuses (ToolError) anything but a
 * regular file before opening it, and again on the opened descriptor (it may have been swapped);
 * refuses files over `maxBytes` without reading them.
 */
export async function readRegular(
  w: Walked,
  shown: string,
  maxBytes = Infinity,
  tooLarge?: string,
): Promise<FileRead | null> {
  const before = w.lstat();
  if (!before) return null;
  requireRegular(before, shown);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(w.at(), READ_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    if ((error as NodeJS.ErrnoException).code === "ELOOP")
      throw new ToolError(`${shown} was replaced by a symbolic link while it was being read`);
    throw error;
  }
  try {
    const stat = await handle.stat();
    requireRegular(stat, shown);
    if (stat.size > maxBytes) throw new ToolError(tooLarge ?? `${shown} is over ${maxBytes} bytes`);
    const data = await handle.readFile();
    if (data.length > maxBytes) throw new ToolError(tooLarge ?? `${shown} is over ${maxBytes} bytes`);
    return { data, mode: stat.mode & 0o7777, stat };
  } finally {
    await handle.close();
  }
}

/**
 * Contract: after this resolves the target holds `data` in full (a new file, or the old one
 * replaced by rename); on failure the old file is untouched and the temp file is removed. The temp
 * file is created in the walked directory with O_CREAT|O_EXCL|O_NOFOLLOW and renamed through it,
 * so neither can land anywhere else. Refuses to replace anything but a regular file or a link.
 * An existing file's permission bits are kept unless `mode` is given. Missing parents are not
 * made here (ENOENT): call `w.makeParents()` first where they should be.
 */
export async function writeAtomic(
  w: Walked,
  data: string | Uint8Array,
  shown: string,
  mode?: number,
  opts: { syncDir?: boolean } = {},
): Promise<void> {
  const old = w.lstat();
  if (old && !old.isFile() && !old.isSymbolicLink()) requireRegular(old, shown);
  const keep = mode ?? (old?.isFile() ? old.mode & 0o7777 : undefined);
  const tmp = `.${w.name ?? ""}.tmp-${process.pid}-${randomId(8)}`;
  const tmpPath = w.at(tmp);
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(tmpPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, keep ?? 0o644);
    await handle.writeFile(data);
    // umask may have narrowed the create mode; the kept mode is restored exactly.
    if (keep !== undefined) await handle.chmod(keep);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(tmpPath, w.at());
  } catch (error) {
    await handle?.close().catch(() => {});
    await fs.unlink(tmpPath).catch(() => {});
    throw error;
  }
  if (opts.syncDir) await syncDir(w.at("."));
}

/**
 * The rename is durable only once the directory entry is on disk: without this a power loss soon
 * after can bring back the old file (or none). A file system that cannot sync a directory
 * (EINVAL, EISDIR on some) is taken as one that needs no such step.
 */
async function syncDir(dir: string | Buffer): Promise<void> {
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

/** Removes the target (a file or a link, never a directory's contents). */
export function unlinkTarget(w: Walked): void {
  unlinkSync(w.at());
}

/** Removes the target when it is an empty directory; false otherwise. */
export function rmdirTarget(w: Walked): boolean {
  try {
    rmdirSync(w.at());
    return true;
  } catch {
    return false;
  }
}

/** Creates the target, which must not exist yet (O_CREAT|O_EXCL|O_NOFOLLOW), with `data`; removed again on failure. */
export async function createNew(w: Walked, data: Uint8Array, mode: number): Promise<void> {
  const path = w.at();
  const handle = await fs.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    await handle.writeFile(data);
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.unlink(path).catch(() => {});
    throw error;
  }
}

/** The first `bytes` bytes of the target (a regular file, checked as readRegular does) and its stat; null when absent. */
export async function readHead(w: Walked, shown: string, bytes: number): Promise<{ head: Buffer; stat: Stats } | null> {
  const before = w.lstat();
  if (!before) return null;
  requireRegular(before, shown);
  const handle = await fs.open(w.at(), READ_FLAGS);
  try {
    const stat = await handle.stat();
    requireRegular(stat, shown);
    const head = Buffer.alloc(Math.min(bytes, stat.size));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return { head: head.subarray(0, bytesRead), stat };
  } finally {
    await handle.close();
  }
}

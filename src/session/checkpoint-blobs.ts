// Checkpoint content: bounded reads of regular files (async for file tools' files, sync in short
// slices for snapshots of many small files) and the content-addressed blob store they go into.
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  promises as fs,
  readdirSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { fsPath } from "../fs/byte-names.js";
import { join } from "node:path";
import { randomId } from "../protocol/ids.js";

export const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

export const errorCode = (error: unknown): string | undefined =>
  error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;

/** An error in a few words for a skip reason: its code (ENOSPC, EACCES) when it has one, else its message. */
export const describeError = (error: unknown): string =>
  errorCode(error) ?? (error instanceof Error ? error.message : String(error));

export type Read = { data: Buffer; mode: number } | "too-large";

/** Never follow a symlink swapped in since the lstat, never block on a FIFO. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The next read's size: the expected rest plus one byte (to see EOF at once), 8 KB steps past it. */
const chunkSize = (size: number, total: number, limit: number) =>
  Math.min(size > total ? size - total + 1 : 8192, limit - total + 1, 1 << 20);

/** A regular file's content and mode, or "too-large" past `limit` bytes (read to EOF: the file may be growing). */
export async function readBounded(path: string, limit: number): Promise<Read> {
  const handle = await fs.open(fsPath(path), READ_FLAGS);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new Error(`${path} is not a regular file`);
    if (st.size > limit) return "too-large";
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(chunkSize(st.size, total, limit));
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limit) return "too-large";
      chunks.push(buf.subarray(0, bytesRead));
    }
    return { data: Buffer.concat(chunks, total), mode: st.mode & 0o7777 };
  } finally {
    await handle.close();
  }
}

/** readBounded, synchronously: for snapshots, where thousands of small reads cost 3x more as promises. */
export function readBoundedSync(path: string, limit: number): Read {
  const fd = openSync(fsPath(path), READ_FLAGS);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${path} is not a regular file`);
    if (st.size > limit) return "too-large";
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(chunkSize(st.size, total, limit));
      const bytesRead = readSync(fd, buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limit) return "too-large";
      chunks.push(buf.subarray(0, bytesRead));
    }
    return { data: Buffer.concat(chunks, total), mode: st.mode & 0o7777 };
  } finally {
    closeSync(fd);
  }
}

/**
 * Lets the event loop run between slices of synchronous file work: call it before each unit with
 * the unit's size in bytes. Slices of 256 files or 4 MB keep each pause to a few milliseconds.
 */
export function slicer(maxCount = 256, maxBytes = 4 * 1024 * 1024): (bytes?: number) => Promise<void> {
  let count = 0;
  let bytes = 0;
  return async (size = 0) => {
    if (count >= maxCount || bytes >= maxBytes) {
      await new Promise<void>((go) => setImmediate(go));
      count = 0;
      bytes = 0;
    }
    count++;
    bytes += size;
  };
}

/** Runs `fn` over `items` with at most `limit` in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const SHA_NAME = /^[0-9a-f]{64}$/;

/**
 * File contents by sha256 in one folder (mode 700, files 600). Contract: `get` returns exactly what
 * was put or null (missing, or corrupt: checked against its name), so a blob that a crash truncated
 * (snapshot blobs are not fsynced) is never restored.
 */
export class BlobStore {
  private known: Set<string> | null = null;

  constructor(readonly dir: string) {}

  /** Creates the folder and lists what it holds, once. */
  async open(): Promise<void> {
    if (this.known) return;
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.known = new Set(readdirSync(this.dir).filter((n) => SHA_NAME.test(n)));
  }

  /** Stores `data` once; `durable` fsyncs it (worth it for the few files a file tool is about to change). */
  async put(data: Uint8Array, durable = false): Promise<string> {
    await this.open();
    const sha = sha256(data);
    if (this.known?.has(sha)) return sha;
    const tmp = this.tmpName(sha);
    try {
      const handle = await fs.open(tmp, "wx", 0o600);
      try {
        await handle.writeFile(data);
        if (durable) await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(tmp, join(this.dir, sha));
    } catch (error) {
      await fs.unlink(tmp).catch(() => {});
      throw error;
    }
    this.known?.add(sha);
    return sha;
  }

  /** put, synchronously and without fsync; `open` first. */
  putSync(data: Uint8Array): string {
    const sha = sha256(data);
    if (!this.known) throw new Error("BlobStore.putSync before open");
    if (this.known.has(sha)) return sha;
    const tmp = this.tmpName(sha);
    try {
      const fd = openSync(tmp, "wx", 0o600);
      try {
        for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, join(this.dir, sha));
    } catch (error) {
      try {
        unlinkSync(tmp);
      } catch {
        // Never created.
      }
      throw error;
    }
    this.known.add(sha);
    return sha;
  }

  async get(sha: string): Promise<Buffer | null> {
    try {
      const data = await fs.readFile(join(this.dir, sha));
      return sha256(data) === sha ? data : null;
    } catch {
      return null;
    }
  }

  /** Deletes every blob not in `keep` (and temp files other processes left); returns how many blobs went. */
  async prune(keep: ReadonlySet<string>): Promise<number> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (keep.has(name) || name.includes(`.tmp-${process.pid}-`)) continue;
      const gone = await fs.unlink(join(this.dir, name)).then(
        () => true,
        () => false,
      );
      if (gone && SHA_NAME.test(name)) removed++;
      this.known?.delete(name);
    }
    return removed;
  }

  private tmpName(sha: string): string {
    return join(this.dir, `.${sha}.tmp-${process.pid}-${randomId(8)}`);
  }
}

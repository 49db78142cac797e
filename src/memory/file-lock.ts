// A lock file shared by processes that rewrite the same file: created exclusively, stale ones
// (a dead holder, or older than the time any holder needs) taken over.
import { promises as fs } from "node:fs";
import { hostname } from "node:os";
import { randomId } from "../protocol/ids.js";

export interface FileLockOptions {
  /** A lock this old is abandoned whoever holds it. Default 10 s (a holder needs milliseconds). */
  staleMs?: number;
  /** How long to wait for a live holder before giving up. Default 15 s, past `staleMs`. */
  timeoutMs?: number;
}

/** What a lock file holds: enough to tell whether its holder is still there. */
interface LockBody {
  pid: number;
  host: string;
  time: number;
  token: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function parseBody(text: string): LockBody | null {
  try {
    const raw = JSON.parse(text) as Partial<LockBody> | null;
    if (
      typeof raw?.pid === "number" &&
      typeof raw.time === "number" &&
      typeof raw.host === "string" &&
      typeof raw.token === "string"
    ) {
      return raw as LockBody;
    }
  } catch {
    // An empty body: the holder is between creating the file and writing it (or died there).
  }
  return null;
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Contract: runs `fn` while holding `lockPath` (created with O_EXCL, holding pid, host, time and a
 * token) and releases it however `fn` ends; the release removes the lock only if it is still
 * ours. A lock whose holder on this host is dead, or older than `staleMs`, is taken over. Rejects
 * (without running `fn`) when a live holder keeps it past `timeoutMs`. The directory must exist.
 */
export async function withFileLock<T>(
  lockPath: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const token = await acquire(lockPath, options.staleMs ?? 10_000, options.timeoutMs ?? 15_000);
  try {
    return await fn();
  } finally {
    await release(lockPath, token);
  }
}

async function acquire(lockPath: string, staleMs: number, timeoutMs: number): Promise<string> {
  const host = hostname();
  const deadline = Date.now() + timeoutMs;
  let wait = 2;
  for (;;) {
    const token = `${process.pid}-${randomId(10)}`;
    const body: LockBody = { pid: process.pid, host, time: Date.now(), token };
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(lockPath, "wx", 0o600);
      await handle.writeFile(JSON.stringify(body));
      await handle.close();
      return token;
    } catch (error) {
      await handle?.close().catch(() => {});
      if (handle) {
        // Created but not written (disk full): do not leave an empty lock behind.
        await fs.unlink(lockPath).catch(() => {});
        throw error;
      }
      if (code(error) !== "EEXIST") throw error;
    }
    const holder = await inspect(lockPath, host, staleMs);
    if (holder.state === "gone") continue;
    if (holder.state === "stale") {
      await takeOver(lockPath, holder.text);
      continue;
    }
    if (Date.now() >= deadline)
      throw new Error(`${lockPath} is held by ${holder.text || "another process"}; gave up after ${timeoutMs} ms`);
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 40);
  }
}

async function inspect(
  lockPath: string,
  host: string,
  staleMs: number,
): Promise<{ state: "gone" | "stale" | "held"; text: string }> {
  let text: string;
  let mtimeMs: number;
  try {
    text = await fs.readFile(lockPath, "utf8");
    mtimeMs = (await fs.stat(lockPath)).mtimeMs;
  } catch (error) {
    if (code(error) === "ENOENT") return { state: "gone", text: "" };
    throw error;
  }
  const body = parseBody(text);
  const age = Date.now() - (body?.time ?? mtimeMs);
  // A pid is only meaningful on the host that wrote it (a home directory may be shared).
  const dead = body !== null && body.host === host && !pidAlive(body.pid);
  return { state: dead || age > staleMs ? "stale" : "held", text };
}

/**
 * Moves the stale lock aside by an atomic rename, so of two processes taking it over only one
 * succeeds. If what was moved is not the lock judged stale (someone took it over in between and
 * holds a fresh one), it is linked back; the rare loser waits like anyone else.
 */
async function takeOver(lockPath: string, staleText: string): Promise<void> {
  const aside = `${lockPath}.stale-${process.pid}-${randomId(8)}`;
  try {
    await fs.rename(lockPath, aside);
  } catch (error) {
    if (code(error) === "ENOENT") return;
    throw error;
  }
  const moved = await fs.readFile(aside, "utf8").catch(() => staleText);
  if (moved !== staleText) await fs.link(aside, lockPath).catch(() => {});
  await fs.unlink(aside).catch(() => {});
}

async function release(lockPath: string, token: string): Promise<void> {
  try {
    const body = parseBody(await fs.readFile(lockPath, "utf8"));
    if (body?.token === token) await fs.unlink(lockPath);
  } catch {
    // Already gone (taken over as stale after an unusually long hold): nothing to release.
  }
}

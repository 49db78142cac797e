// One writer per session: a lock beside the session file, held for as long as an agent has the
// session open, so two runs on one session cannot silently overwrite each other's turns.
import { readlinkSync, unlinkSync, promises as fs } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { lockRoles, type LockRole } from "../protocol/enums.js";
import { randomId } from "../protocol/ids.js";
import { systemErrorMeaning } from "../tools/errno.js";

/** The session is held by another live process (`holder`, when its lock names one). */
export class SessionBusyError extends Error {
  readonly holder: SessionHolder | null;
  constructor(message: string, opts: { holder?: SessionHolder } = {}) {
    super(message);
    this.holder = opts.holder ?? null;
  }
}

/** The session's folder cannot hold it (not a folder, dangling, read-only, full): nothing could be saved. */
export class SessionUnwritableError extends Error {}

/** How long a second run waits for the first to finish before it gives up. */
export const SESSION_LOCK_WAIT_MS = 3_000;

export const sessionLockPath = (file: string) => `${file}.lock`;

interface Held {
  count: number;
  /** What our lock symlink points at: `pid@host@token`. */
  target: string;
}

/** Locks this process holds, by session file: a process may open its own session twice (the UI). */
const held = new Map<string, Held>();
let exitHook = false;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const code = (error: unknown) => (error as NodeJS.ErrnoException).code;
/** "permission denied (EACCES)": a system error without the call and paths Node puts in its message. */
const plainly = (error: unknown) => systemErrorMeaning(error) ?? (error as Error).message;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return code(error) === "EPERM";
  }
}

/** What kind of NanoHermes process holds a lock: set once by each front end, written into its locks. */
let role: LockRole | null = null;

/** Names this process's kind in the locks it takes (the token's prefix: `pid@host@ui_token`), so a second front end can say who holds a session. */
export function setLockRole(kind: LockRole): void {
  role = kind;
}

/** `pid@host@token` -> its parts; null for anything else. Older versions wrote no role: `role` is null then. */
function parseTarget(target: string): { pid: number; host: string; role: LockRole | null } | null {
  const match = /^(\d+)@(.*)@([A-Za-z0-9_-]+)$/.exec(target);
  if (!match) return null;
  const prefix = match[3]!.slice(0, match[3]!.lastIndexOf("_"));
  const known = (lockRoles as readonly string[]).includes(prefix) ? (prefix as LockRole) : null;
  return { pid: Number(match[1]), host: match[2]!, role: known };
}

/** Another live process that holds a session's lock. */
export interface SessionHolder {
  pid: number;
  host: string;
  role: LockRole | null;
}

/**
 * Contract: resolves with the process that holds `file`'s lock when that is another process than
 * this one and it may be alive (on this host: its pid answers; on another host: always, as nothing
 * here can tell); null when nobody holds it, this process does, or its holder is dead (the next
 * lockSession takes it over). Never rejects: an unreadable lock reads as not held.
 */
export async function sessionHolder(file: string): Promise<SessionHolder | null> {
  let target: string;
  try {
    target = await fs.readlink(sessionLockPath(file));
  } catch {
    return null;
  }
  if (held.get(file)?.target === target) return null;
  const holder = parseTarget(target);
  if (!holder) return null;
  if (holder.host === hostname() && (holder.pid === process.pid || !pidAlive(holder.pid))) return null;
  return holder;
}

/** "another NanoHermes UI (pid 812@box)": who holds a session, in the user's words. */
export function describeHolder(holder: SessionHolder): string {
  const at = `pid ${holder.pid}@${holder.host}`;
  switch (holder.role) {
    case "ui":
      return `another NanoHermes UI (${at})`;
    case "daemon":
      return `the NanoHermes daemon (${at})`;
    case "run":
      return `a one-shot NanoHermes run (${at})`;
    case "acp":
      return `an editor's NanoHermes agent (nanohermes acp, ${at})`;
    case "mcp-server":
      return `nanohermes mcp-server (${at})`;
    default:
      return `another NanoHermes process (${at})`;
  }
}

/**
 * Contract: resolves with a release function once this process holds the session's lock; rejects
 * with SessionBusyError when another live process keeps it past `waitMs`, and with
 * SessionUnwritableError (the folder and the reason: "read-only file system (EROFS)") when the lock cannot be
 * made at all, which also means the session could not be saved. The lock is a symlink (`<file>.lock` -> `pid@host@token`): made in
 * one atomic step, it needs no data block, so a full disk still lets it be taken. A lock whose
 * holder on this host is dead (a kill -9) is taken over. Released on release() or process exit.
 */
export async function lockSession(file: string, waitMs = SESSION_LOCK_WAIT_MS): Promise<() => Promise<void>> {
  const mine = held.get(file);
  if (mine) {
    mine.count++;
    return once(() => release(file));
  }
  const lockPath = sessionLockPath(file);
  try {
    await fs.mkdir(dirname(file), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new SessionUnwritableError(`cannot make the session folder ${dirname(file)}: ${plainly(error)}`, {
      cause: error,
    });
  }
  const host = hostname();
  const deadline = Date.now() + waitMs;
  for (;;) {
    const target = `${process.pid}@${host}@${role ? `${role}_` : ""}${randomId(10)}`;
    try {
      await fs.symlink(target, lockPath);
      // Another agent of this process may have taken it while we waited.
      const other = held.get(file);
      if (other) {
        await fs.unlink(lockPath).catch(() => {});
        other.count++;
      } else {
        held.set(file, { count: 1, target });
        installExitHook();
      }
      return once(() => release(file));
    } catch (error) {
      // Said in the user's terms: the raw message names our lock's target (`symlink 'pid@host@id' -> ...`).
      if (code(error) !== "EEXIST")
        throw new SessionUnwritableError(`cannot write in the session folder ${dirname(file)}: ${plainly(error)}`, {
          cause: error,
        });
    }
    let current: string;
    try {
      current = await fs.readlink(lockPath);
    } catch (error) {
      if (code(error) === "ENOENT") continue;
      // Something else (a plain file) sits where the lock goes: not ours to remove.
      throw new SessionBusyError(
        `cannot lock session ${file}: ${lockPath} is not a lock (${plainly(error)}); remove it if no other run uses the session`,
      );
    }
    const holder = parseTarget(current);
    if (holder && holder.host === host && !pidAlive(holder.pid)) {
      await takeOver(lockPath, current);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder ? `pid ${holder.pid}${holder.host === host ? "" : ` on ${holder.host}`}` : "another process";
      throw new SessionBusyError(
        `session ${file} is in use by another NanoHermes run (${who}); try again when it has finished (or remove ${lockPath} if that run is gone)`,
        holder ? { holder } : {},
      );
    }
    await sleep(40 + Math.random() * 60);
  }
}

/** What one page of a session needs: a folder with no room for it (ENOSPC, EDQUOT) fails here. */
const PROBE_BYTES = 4096;

/**
 * Contract: resolves when a small file can be written, made durable and removed in `dir`; rejects
 * with SessionUnwritableError naming why not. The lock needs no data block, so a full disk passes
 * it: this is what finds one before a turn is run whose history would be lost. The probe is named
 * as a temp file (`.NAME.tmp-PID-ID`), so one a killed run left is swept.
 */
export async function probeWritable(dir: string): Promise<void> {
  const probe = join(dir, `.write-probe.tmp-${process.pid}-${randomId(8)}`);
  try {
    const handle = await fs.open(probe, "wx", 0o600);
    try {
      await handle.write(Buffer.alloc(PROBE_BYTES, 0x20));
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new SessionUnwritableError(`${dir}: ${systemErrorMeaning(error) ?? (error as Error).message}`, {
      cause: error,
    });
  } finally {
    await fs.unlink(probe).catch(() => {});
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= fn());
}

async function release(file: string): Promise<void> {
  const mine = held.get(file);
  if (!mine || --mine.count > 0) return;
  held.delete(file);
  try {
    if ((await fs.readlink(sessionLockPath(file))) === mine.target) await fs.unlink(sessionLockPath(file));
  } catch {
    // already gone
  }
}

/**
 * Moves a dead holder's lock aside by an atomic rename, so of two processes taking it over only
 * one wins; if what moved is not the dead lock (taken over meanwhile), it is put back.
 */
async function takeOver(lockPath: string, dead: string): Promise<void> {
  const aside = `${lockPath}.stale-${process.pid}-${randomId(8)}`;
  try {
    await fs.rename(lockPath, aside);
  } catch {
    return;
  }
  const moved = await fs.readlink(aside).catch(() => dead);
  if (moved !== dead) await fs.link(aside, lockPath).catch(() => {});
  await fs.unlink(aside).catch(() => {});
}

/** process.exit() from a signal handler skips releases still queued: drop our locks on the way out. */
function installExitHook(): void {
  if (exitHook) return;
  exitHook = true;
  process.on("exit", () => {
    for (const [file, mine] of held) {
      try {
        if (readlinkSync(sessionLockPath(file)) === mine.target) unlinkSync(sessionLockPath(file));
      } catch {
        // gone already
      }
    }
    held.clear();
  });
}

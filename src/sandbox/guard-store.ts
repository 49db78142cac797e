// One protected-path guard per workspace, shared by every task, subagent, session and process: the
// snapshot taken when the first sandboxed command of a workspace starts is kept on disk (under a
// lock) until the last one ends, so command B never takes command A's plant as its "before" and
// puts it back after A's check removed it. A guard left by a process that died is reverted first.
import { createHash, randomUUID } from "node:crypto";
import {
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join, sep } from "node:path";
import { nanohermesHome } from "../config/paths.js";
import { revertNotice, revertProtected, snapshotProtected, type Reverted, type Snapshot } from "./integrity.js";
import type { ProtectedSet } from "./protected.js";

/** Ends one guarded command: reverts what changed since the workspace's baseline, returns the notice. */
export type GuardEnd = () => string | null;

/** A lock older than this belongs to a process that hangs or died mid-update: it is broken. */
const STALE_LOCK_MS = 10_000;
/** How long to wait for another process's update (each takes a millisecond or two). */
const LOCK_WAIT_MS = 15_000;

interface Holder {
  pid: number;
  id: string;
}

interface Stored {
  holders: Holder[];
  baseline: SerialSnapshot | null;
}

type SerialSnapshot = { takenAt: number; missingGit: string[]; gitRoots?: string[]; entries: [string, unknown][] };

const serialize = (s: Snapshot): SerialSnapshot => ({
  takenAt: s.takenAt,
  missingGit: [...s.missingGit],
  ...(s.gitRoots ? { gitRoots: s.gitRoots } : {}),
  entries: [...s.entries].map(([path, e]) => [
    path,
    "data" in e && e.data ? { ...e, data: e.data.toString("base64") } : e,
  ]),
});

const deserialize = (s: SerialSnapshot): Snapshot => ({
  takenAt: s.takenAt,
  missingGit: new Set(s.missingGit),
  ...(s.gitRoots ? { gitRoots: s.gitRoots } : {}),
  entries: new Map(
    s.entries.map(([path, e]) => {
      const entry = e as Record<string, unknown>;
      return [
        path,
        (typeof entry.data === "string"
          ? { ...entry, data: Buffer.from(entry.data, "base64") }
          : entry) as Snapshot["entries"] extends Map<string, infer E> ? E : never,
      ];
    }),
  ),
});

const alive = (pid: number): boolean => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

const inside = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** A folder of our own, not a symlink, mode 0700: where no other user can plant a baseline. */
function ownFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === (process.geteuid?.() ?? st.uid) && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/**
 * Where the guards live: the first candidate outside every writable root (a command must not be
 * able to rewrite its own "before"), or null when there is none (then the guard is per process).
 */
export function guardDir(roots: string[]): string | null {
  const uid = process.geteuid?.() ?? 0;
  const candidates = [
    process.env.XDG_RUNTIME_DIR ? join(process.env.XDG_RUNTIME_DIR, "nanohermes-guard") : null,
    join(nanohermesHome(), "guard"),
    `/dev/shm/nanohermes-guard-${uid}`,
  ];
  for (const dir of candidates) {
    if (dir === null || roots.some((root) => inside(root, dir))) continue;
    if (ownFolder(dir)) return dir;
  }
  return null;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Runs `op` holding `lock` (a file created exclusively, holding our pid). Throws when it cannot. */
function withLock<T>(lock: string, op: () => T): T {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(lock, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let stale = false;
      try {
        const pid = Number(readFileSync(lock, "utf8"));
        stale = (pid > 0 && !alive(pid)) || Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS;
      } catch {
        // removed meanwhile: try again
      }
      if (stale) {
        try {
          unlinkSync(lock);
        } catch {
          // another process broke it first
        }
      } else if (Date.now() > deadline) {
        throw new Error(`the protected-path guard ${lock} stays locked`);
      } else sleep(2);
    }
  }
  try {
    return op();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // already gone
    }
  }
}

function readStored(file: string): Stored {
  try {
    const fd = openSync(file, "r");
    try {
      if (!fstatSync(fd).isFile()) return { holders: [], baseline: null };
      return JSON.parse(readFileSync(fd, "utf8")) as Stored;
    } finally {
      closeSync(fd);
    }
  } catch {
    return { holders: [], baseline: null };
  }
}

function writeStored(file: string, stored: Stored): void {
  if (stored.holders.length === 0) {
    try {
      unlinkSync(file);
    } catch {
      // nothing stored
    }
    return;
  }
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(stored), { mode: 0o600 });
  renameSync(temp, file);
}

/** Per-process guards, where no folder outside the writable roots can hold them. */
const local = new Map<string, Stored>();

/**
 * Contract: call before a sandboxed command that can write `set`; returns the function to call once
 * it ended (at most once; never throws: a failing check is a notice). Throws when the set cannot be
 * snapshotted (more than MAX_ENTRIES entries, or the guard stays locked): the caller refuses the
 * command. All guards of the same roots share one baseline, across processes.
 */
export function beginSharedGuard(set: ProtectedSet): GuardEnd {
  const key = createHash("sha256").update(set.roots.join("\0")).digest("hex").slice(0, 24);
  const dir = guardDir(set.roots);
  const file = dir ? join(dir, `${key}.json`) : null;
  const transact = <T>(op: (stored: Stored) => T): T => {
    if (!file) {
      const stored = local.get(key) ?? { holders: [], baseline: null };
      const out = op(stored);
      if (stored.holders.length === 0) local.delete(key);
      else local.set(key, stored);
      return out;
    }
    return withLock(`${file}.lock`, () => {
      const stored = readStored(file);
      const out = op(stored);
      writeStored(file, stored);
      return out;
    });
  };
  const holder: Holder = { pid: process.pid, id: randomUUID() };
  let recovered: Reverted | null = null;
  transact((stored) => {
    stored.holders = stored.holders.filter((h) => alive(h.pid));
    // Left by a process that died while its command ran: what that command did is undone now.
    if (stored.holders.length === 0 && stored.baseline)
      recovered = revertProtected(set, deserialize(stored.baseline), { sweep: true });
    if (stored.holders.length === 0 || !stored.baseline) stored.baseline = serialize(snapshotProtected(set));
    stored.holders.push(holder);
  });
  let ended = false;
  return () => {
    if (ended) return null;
    ended = true;
    try {
      return transact((stored) => {
        stored.holders = stored.holders.filter((h) => h.id !== holder.id && alive(h.pid));
        // The last command of the workspace sweeps placeholders a killed helper left behind.
        const sweep = stored.holders.length === 0;
        const reverted = stored.baseline ? revertProtected(set, deserialize(stored.baseline), { sweep }) : null;
        const earlier = recovered as Reverted | null;
        const all: Reverted = {
          changes: [...(earlier?.changes ?? []), ...(reverted?.changes ?? [])],
          failures: [...(earlier?.failures ?? []), ...(reverted?.failures ?? [])],
        };
        return revertNotice(all);
      });
    } catch (error) {
      return `[protected paths] The check after this command failed (${(error as Error).message}); look at .git/config and .git/hooks before running git.`;
    }
  };
}

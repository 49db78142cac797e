// One curator (or rollback) at a time: a lock file created exclusively; a holder that died (same
// host, no such process) or that has held it for an hour is taken over. A second run is told who
// holds it rather than waiting.
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { curatorDir } from "./ledger.js";

const STALE_MS = 60 * 60 * 1000;

export class CuratorBusy extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock or throws CuratorBusy naming the holder; returns the release. */
export function takeCuratorLock(home: string, what: string, now = Date.now()): () => void {
  mkdirSync(curatorDir(home), { recursive: true, mode: 0o700 });
  const file = join(curatorDir(home), "lock");
  const body = JSON.stringify({ pid: process.pid, host: hostname(), time: now, what });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, body, { flag: "wx", mode: 0o600 });
      return () => {
        try {
          if (readFileSync(file, "utf8") === body) unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let holder: { pid?: number; host?: string; time?: number; what?: string } = {};
    try {
      holder = JSON.parse(readFileSync(file, "utf8")) as typeof holder;
    } catch {
      // a lock being written right now, or damaged: judged by its age below
    }
    const dead =
      (holder.host === hostname() && typeof holder.pid === "number" && !alive(holder.pid)) ||
      (typeof holder.time === "number" && now - holder.time > STALE_MS);
    if (!dead || attempt > 0)
      throw new CuratorBusy(
        `another skills ${holder.what ?? "curator run"} is in progress (pid ${holder.pid ?? "?"}${typeof holder.time === "number" ? `, since ${new Date(holder.time).toISOString()}` : ""}); nothing was changed, try again when it ends`,
      );
    try {
      unlinkSync(file);
    } catch {
      // someone else took it over first: the next attempt says so
    }
  }
  throw new CuratorBusy("another skills curator run is in progress");
}

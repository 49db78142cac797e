// What the UI says about scheduled runs: whether a daemon runs them, how many instants passed
// with none running (missed), and how many refusals of scheduled runs wait in the inbox unread.
// Read after the UI's first frame, and only where a ledger exists; croner loads only to count
// missed instants, which happens only when no daemon answers.
import { existsSync } from "node:fs";
import { askDaemon } from "./daemon-link.js";
import { CronStore, cronDbPath } from "./store.js";

/** Missed instants are counted up to this many (then shown as "999+"). */
export const MISSED_COUNT_CAP = 999;

export interface CronStatus {
  /** A daemon answers on ~/.nanohermes/daemon.sock. */
  daemon: boolean;
  /** Enabled jobs. */
  jobs: number;
  /** Instants of enabled jobs that came and went with no daemon to run them (0 while one runs). */
  missed: number;
  /** More than MISSED_COUNT_CAP were missed. */
  more: boolean;
  /** Refusals of scheduled runs not read yet (`nanohermes cron inbox`). */
  inbox: number;
}

/** The ledger's state in `home`, or null when there is no ledger (no job was ever added). */
export async function cronStatus(home: string, now = Date.now()): Promise<CronStatus | null> {
  const file = cronDbPath(home);
  if (!existsSync(file)) return null;
  const daemon = (await askDaemon(home, "GET", "/health")) !== null;
  const store = await CronStore.open(file);
  try {
    const jobs = store.jobs().filter((job) => job.enabled);
    let missed = 0;
    if (!daemon && jobs.length > 0) {
      const { compileSchedule, instantsBetween } = await import("./schedule.js");
      for (const job of jobs) {
        if (missed > MISSED_COUNT_CAP) break;
        try {
          const schedule = compileSchedule(job.schedule, job.tz, job.createdAt);
          const left = MISSED_COUNT_CAP + 1 - missed;
          const { instants, dropped } = instantsBetween(schedule, store.watermark(job), now, left, left);
          missed += instants.length + dropped;
        } catch {
          // a schedule that no longer reads: the daemon pauses it with the reason when it starts
        }
      }
    }
    return {
      daemon,
      jobs: jobs.length,
      missed: Math.min(missed, MISSED_COUNT_CAP),
      more: missed > MISSED_COUNT_CAP,
      inbox: store.unseen(),
    };
  } finally {
    store.close();
  }
}

// What the UI and the one-shot run say about scheduled runs: whether a daemon runs them, how many
// instants passed with none running (missed), and how many refusals of scheduled runs wait in the
// inbox unread. Read after the UI's first frame or the one-shot's turn, and only where a ledger
// exists; croner loads only to count missed instants, which happens only when no daemon answers.
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

/** How to start the daemon that runs scheduled jobs, in the words of README "Scheduled runs". */
export const START_DAEMON_HINT = "start nanohermes --daemon, or the systemd unit of scripts/deploy-debian.sh";

/** The line that tells of missed runs and how to start a daemon. */
export const missedLine = (missed: number, more: boolean) =>
  `${missed}${more ? "+" : ""} scheduled run${missed === 1 && !more ? " was" : "s were"} missed (no daemon): ${START_DAEMON_HINT}`;

/**
 * The ledger's state in `home`, or null when there is no ledger (no job was ever added). `since`:
 * count only instants after it (missed runs told of already).
 */
export async function cronStatus(home: string, now = Date.now(), since = 0): Promise<CronStatus | null> {
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
          const from = Math.max(store.watermark(job), since);
          const { instants, dropped } = instantsBetween(schedule, from, now, left, left);
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

/** What the one-shot run has told about missed runs, through when (a mark in the ledger). */
const TOLD = "oneshot-missed";

/**
 * For the one-shot run: the missed-runs line when runs were missed with no daemon since the last
 * one-shot told of them (each missed instant is told once), else null. Marks what it tells.
 */
export async function missedOnce(home: string, now = Date.now()): Promise<string | null> {
  if (!existsSync(cronDbPath(home))) return null;
  const store = await CronStore.open(cronDbPath(home));
  let since: number;
  try {
    since = store.mark(TOLD) ?? 0;
  } finally {
    store.close();
  }
  const status = await cronStatus(home, now, since);
  if (!status || status.daemon || status.missed === 0) return null;
  const marked = await CronStore.open(cronDbPath(home));
  try {
    marked.setMark(TOLD, now);
  } finally {
    marked.close();
  }
  return missedLine(status.missed, status.more);
}

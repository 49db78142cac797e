// What to do with a job's due instants: the missed-run rules as a pure function of the instants,
// the clock and whether the daemon has just started, so they are table-tested without timers.

/** What happens to instants the daemon was not there for (down, or the machine asleep). */
export const MISSED_POLICIES = ["skip", "once", "all"] as const;
export type MissedPolicy = (typeof MISSED_POLICIES)[number];

/** Hourly and slower jobs catch up once by default; faster ones only run from now on. */
export const defaultMissedPolicy = (periodMs: number): MissedPolicy => (periodMs >= 3_600_000 ? "once" : "skip");

/** An instant this late (ms) when its timer fires was missed, not merely delayed by a busy machine. */
export const GRACE_MS = 15_000;
/** `all` runs at most this many missed instants; older ones are recorded as skipped. */
export const ALL_CAP = 10;

export interface DuePlan {
  /** Instants to run, oldest first (one after another, never at once). */
  run: number[];
  /** Recorded as skipped: missed under `skip`, or beyond the cap of `all`. */
  skipped: number[];
  /** Recorded as coalesced into the newest (`once`). */
  coalesced: number[];
}

/**
 * Contract: `due` are the job's unrecorded instants <= `now`, oldest first. At start-up every one
 * of them was missed; later only those older than GRACE_MS are, and an on-time one always runs.
 */
export function planDue(due: readonly number[], now: number, policy: MissedPolicy, startup: boolean): DuePlan {
  const plan: DuePlan = { run: [], skipped: [], coalesced: [] };
  if (due.length === 0) return plan;
  const newest = due[due.length - 1]!;
  const onTime = !startup && now - newest <= GRACE_MS;
  const missed = onTime ? due.slice(0, -1) : [...due];
  switch (policy) {
    case "skip":
      plan.skipped = missed;
      if (onTime) plan.run = [newest];
      return plan;
    case "once":
      plan.coalesced = due.slice(0, -1);
      plan.run = [newest];
      return plan;
    case "all": {
      const runs = due.slice(-ALL_CAP);
      plan.skipped = due.slice(0, due.length - runs.length);
      plan.run = runs;
      return plan;
    }
    default:
      return policy satisfies never;
  }
}

// A team's cron jobs (issue 34): the definitions live in the team's database; each daemon keeps
// them in its own ledger (cron.db's `jobs`), which the scheduler, the /v1/cron API and
// `nanohermes cron` read and write exactly as on a daemon of its own. A three-way sync keeps the
// two together: the ledger, the team's table, and `team_jobs` (the team's rows as this ledger last
// took them). A job that differs from its `team_jobs` row was changed here (added, edited, paused,
// resumed, removed by whoever wrote the ledger) and goes to the team; any other job takes the
// team's row. So whatever writes the ledger stays behind the CronStore interface, and a ledger
// written while the daemon was down is shared when it starts.
import type BetterSqlite3 from "better-sqlite3";
import { log } from "../config/log.js";
import type { CronJob, CronStore } from "./store.js";
import { type SharedLedger, TeamLedgerMirror } from "./team-ledger.js";

/** A job as the team keeps it: everything but its failure count (each daemon counts its own runs). */
export type SharedJob = Omit<CronJob, "failures">;

/**
 * Contract: the team's job table. A job is its name and its creation instant: `update` and
 * `remove` touch only that job (a job removed and added again under the same name is another).
 * Every change wakes the other daemons' `watch`.
 */
export interface SharedJobTable {
  all(): Promise<SharedJob[]>;
  /** False: the team has a job of that name already (nothing written). */
  insert(job: SharedJob): Promise<boolean>;
  /** False: the team no longer has that job (removed, or replaced under its name). */
  update(job: SharedJob): Promise<boolean>;
  remove(name: string, createdAt: number): Promise<void>;
  /** `onChange` when another daemon (may have) changed the table; returns the unsubscribe. */
  watch(onChange: () => void): Promise<() => void>;
  /** The team's runs and inbox, shared at every sync after the jobs (cron/team-ledger.ts). */
  readonly ledger?: SharedLedger;
}

/** What one sync did. */
export interface SyncReport {
  /** Changes made here that the team refused, with why (the team's row stands; see the inbox). */
  lost: { name: string; reason: string }[];
  /** Set when the team's table could not be read or written: the ledger keeps its changes for the next sync. */
  error?: string;
}

const FIELDS = [
  "name",
  "schedule",
  "tz",
  "prompt",
  "workspace",
  "model",
  "approval",
  "missed",
  "enabled",
  "pausedReason",
  "createdAt",
] as const satisfies readonly (keyof SharedJob)[];

const sharedOf = (job: SharedJob): SharedJob =>
  Object.fromEntries(FIELDS.map((field) => [field, job[field]])) as SharedJob;
const same = (a: SharedJob | undefined, b: SharedJob | undefined) =>
  a === undefined || b === undefined ? a === b : FIELDS.every((field) => a[field] === b[field]);

export class TeamJobMirror {
  private readonly db: BetterSqlite3.Database;
  private running: Promise<SyncReport> | null = null;
  private again: Promise<SyncReport> | null = null;
  private unwatch: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly ledger: TeamLedgerMirror | null;

  /** `changed` runs after a sync that changed the ledger's jobs (the scheduler plans again). */
  constructor(
    private readonly store: CronStore,
    private readonly table: SharedJobTable,
    private readonly changed: () => void = () => {},
  ) {
    this.db = store.sqlite;
    this.db.exec("CREATE TABLE IF NOT EXISTS team_jobs (name TEXT PRIMARY KEY, job TEXT NOT NULL)");
    this.ledger = table.ledger ? new TeamLedgerMirror(this.db, table.ledger) : null;
  }

  /** The first sync (before the scheduler plans), then one on every change and every `everyMs`. */
  async start(everyMs = 5000): Promise<SyncReport> {
    this.unwatch = await this.table
      .watch(() => void this.sync())
      .catch((error: unknown) => {
        // The timer still syncs: a change another daemon makes arrives within `everyMs`.
        log("warn", "cron: watching the team's jobs", error);
        return null;
      });
    this.timer = setInterval(() => void this.sync(), everyMs);
    this.timer.unref();
    return this.sync();
  }

  /** Stops syncing; resolves once a sync under way has ended (the ledger may be closed then). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unwatch?.();
    if (this.timer) clearInterval(this.timer);
    await this.again;
    await this.running;
  }

  /** One sync; a call during one runs another after it (it may carry a change the first missed). */
  sync(): Promise<SyncReport> {
    if (this.stopped) return Promise.resolve({ lost: [], error: "the daemon is stopping" });
    if (!this.running) {
      this.running = this.pass().finally(() => (this.running = null));
      return this.running;
    }
    this.again ??= this.running.then(() => {
      this.again = null;
      return this.sync();
    });
    return this.again;
  }

  private base(): Map<string, SharedJob> {
    const rows = this.db.prepare("SELECT job FROM team_jobs").all() as { job: string }[];
    return new Map(rows.map((r) => JSON.parse(r.job) as SharedJob).map((job) => [job.name, job]));
  }

  private async pass(): Promise<SyncReport> {
    const report: SyncReport = { lost: [] };
    let local = new Map<string, SharedJob>();
    try {
      local = new Map(this.store.jobs().map((job) => [job.name, sharedOf(job)]));
      const base = this.base();
      let team = new Map((await this.table.all()).map((job) => [job.name, sharedOf(job)]));
      let pushed = false;
      for (const name of new Set([...local.keys(), ...base.keys()])) {
        const mine = local.get(name);
        const was = base.get(name);
        if (same(mine, was)) continue;
        pushed = true;
        const reason = await this.push(mine, was);
        if (reason) report.lost.push({ name, reason });
      }
      if (pushed) team = new Map((await this.table.all()).map((job) => [job.name, sharedOf(job)]));
      if (this.apply(local, team)) this.changed();
    } catch (error) {
      // Nothing was taken back: the ledger keeps its changes, and the next sync tries them again.
      report.lost = [];
      report.error = (error as Error).message;
      log("warn", "cron: syncing the jobs with the team's database", error);
    }
    // The runs and inbox go after the jobs: an inbox item parked below goes at the next sync.
    if (this.ledger)
      await this.ledger.sync().catch((error: unknown) => {
        // The outbox keeps what was not sent; the next sync sends it.
        report.error ??= (error as Error).message;
        log("warn", "cron: sharing the runs and inbox with the team's database", error);
      });
    for (const { name, reason } of report.lost) {
      const mine = local.get(name);
      // The inbox is this ledger's: a note that cannot be written is logged instead.
      this.park(
        name,
        null,
        `cron ${name}: the change made on this daemon was not shared (${reason}); the team's job stands${mine ? `. Yours was: --schedule "${mine.schedule}" --prompt ${JSON.stringify(mine.prompt)} in ${mine.workspace}` : ""}`,
      );
    }
    return report;
  }

  private park(job: string, runId: null, text: string): void {
    try {
      this.store.park(job, runId, text);
    } catch (error) {
      log("error", `cron: ${text}`, error);
    }
  }

  /** Sends one change made here to the team; the reason when the team refused it. */
  private async push(mine: SharedJob | undefined, was: SharedJob | undefined): Promise<string | null> {
    // Removed here, or removed and added again (another job under the same name).
    if (was && (!mine || mine.createdAt !== was.createdAt)) await this.table.remove(was.name, was.createdAt);
    if (!mine) return null;
    if (was && mine.createdAt === was.createdAt)
      return (await this.table.update(mine)) ? null : "the team removed or replaced this job meanwhile";
    if (await this.table.insert(mine)) return null;
    // The same job (name and creation) is there: an earlier sync sent it and stopped before taking it back.
    return (await this.table.update(mine)) ? null : "the team has a job of that name already";
  }

  /**
   * The ledger takes the team's rows, in one transaction. A job written here while the sync was
   * under way is left for the next one. Returns whether any job changed.
   */
  private apply(before: Map<string, SharedJob>, team: Map<string, SharedJob>): boolean {
    const upsert = this.db.prepare(
      `INSERT INTO jobs (name, schedule, tz, prompt, workspace, model, approval, missed, enabled, paused_reason, created_at)
       VALUES (@name, @schedule, @tz, @prompt, @workspace, @model, @approval, @missed, @enabled, @pausedReason, @createdAt)
       ON CONFLICT (name) DO UPDATE SET schedule = excluded.schedule, tz = excluded.tz, prompt = excluded.prompt,
         workspace = excluded.workspace, model = excluded.model, approval = excluded.approval, missed = excluded.missed,
         enabled = excluded.enabled, paused_reason = excluded.paused_reason, created_at = excluded.created_at,
         failures = CASE WHEN excluded.enabled = 1 AND jobs.enabled = 0 THEN 0
                         WHEN excluded.created_at <> jobs.created_at THEN 0 ELSE jobs.failures END`,
    );
    const remember = this.db.prepare("INSERT OR REPLACE INTO team_jobs (name, job) VALUES (?, ?)");
    const forget = this.db.prepare("DELETE FROM team_jobs WHERE name = ?");
    return this.db.transaction(() => {
      let changed = false;
      const now = new Map(this.store.jobs().map((job) => [job.name, sharedOf(job)]));
      for (const name of new Set([...now.keys(), ...team.keys(), ...this.base().keys()])) {
        const mine = now.get(name);
        if (!same(mine, before.get(name))) continue;
        const theirs = team.get(name);
        if (theirs) {
          if (!same(mine, theirs)) {
            upsert.run({ ...theirs, enabled: theirs.enabled ? 1 : 0 });
            changed = true;
          }
          remember.run(name, JSON.stringify(theirs));
        } else {
          if (mine) {
            this.store.removeJob(name);
            changed = true;
          }
          forget.run(name);
        }
      }
      return changed;
    })();
  }
}

// The cron ledger in SQLite (~/.nanohermes/cron.db): the jobs, one row per scheduled instant of each
// (UNIQUE(job, scheduled_for), claimed before the run starts), the inbox of refused calls, and
// marks (what the one-shot run has told about missed runs).
// Contract: every schedule decision is written here first; the daemon keeps no schedule state that
// a restart could lose, and an instant with a row is never run again.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import type { ApprovalPolicy } from "../protocol/events.js";
import type { MissedPolicy } from "./plan.js";
import { CronInputError } from "./errors.js";

export interface CronJob {
  name: string;
  schedule: string;
  tz: string;
  prompt: string;
  workspace: string;
  /** null: the daemon's model. */
  model: string | null;
  approval: ApprovalPolicy;
  missed: MissedPolicy;
  enabled: boolean;
  /** Why the job is paused (by the user, or after repeated failures). */
  pausedReason: string | null;
  /** Failed runs in a row; reset by a completed run or `resume`. */
  failures: number;
  /** When the job was added or its schedule last changed: no instant before it is due (and `@every` counts from it). */
  createdAt: number;
}

/** The fields `updateJob` may change. */
export type JobChange = Partial<
  Pick<CronJob, "schedule" | "tz" | "prompt" | "workspace" | "model" | "approval" | "missed" | "createdAt">
>;

const CHANGE_COLUMNS: Record<keyof JobChange, string> = {
  schedule: "schedule",
  tz: "tz",
  prompt: "prompt",
  workspace: "workspace",
  model: "model",
  approval: "approval",
  missed: "missed",
  createdAt: "created_at",
};

/**
 * A run's life: claimed -> running -> completed | failed; interrupted when the daemon died with it
 * claimed or running; skipped and coalesced instants never ran (missed-run rules).
 */
export type RunStatus = "claimed" | "running" | "completed" | "failed" | "interrupted" | "skipped" | "coalesced";

export interface CronRun {
  id: number;
  job: string;
  scheduledFor: number;
  manual: boolean;
  status: RunStatus;
  session: string | null;
  startedAt: number | null;
  endedAt: number | null;
  response: string | null;
  error: string | null;
  /** In a team: the daemon (`HOST:PID`) that ran it, for a row another daemon wrote (cron/team-ledger.ts). */
  node?: string;
}

export interface InboxItem {
  id: number;
  job: string;
  runId: number | null;
  at: number;
  text: string;
  seen: boolean;
  /** In a team: the daemon whose run parked it, for an item another daemon wrote. */
  node?: string;
}

export const JOB_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export const cronDbPath = (home: string) => join(home, "cron.db");

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  name TEXT PRIMARY KEY, schedule TEXT NOT NULL, tz TEXT NOT NULL, prompt TEXT NOT NULL,
  workspace TEXT NOT NULL, model TEXT, approval TEXT NOT NULL, missed TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1, paused_reason TEXT, failures INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, job TEXT NOT NULL, scheduled_for INTEGER NOT NULL,
  manual INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL, session TEXT,
  claimed_at INTEGER NOT NULL, started_at INTEGER, ended_at INTEGER, response TEXT, error TEXT,
  UNIQUE (job, scheduled_for)
);
CREATE TABLE IF NOT EXISTS inbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT, job TEXT NOT NULL, run_id INTEGER, at INTEGER NOT NULL,
  text TEXT NOT NULL, seen INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS marks (name TEXT PRIMARY KEY, at INTEGER NOT NULL);`;

type Row = Record<string, unknown>;

const jobOf = (r: Row): CronJob => ({
  name: r.name as string,
  schedule: r.schedule as string,
  tz: r.tz as string,
  prompt: r.prompt as string,
  workspace: r.workspace as string,
  model: (r.model as string | null) ?? null,
  approval: r.approval as ApprovalPolicy,
  missed: r.missed as MissedPolicy,
  enabled: r.enabled === 1,
  pausedReason: (r.paused_reason as string | null) ?? null,
  failures: r.failures as number,
  createdAt: r.created_at as number,
});

const runOf = (r: Row): CronRun => ({
  id: r.id as number,
  job: r.job as string,
  scheduledFor: r.scheduled_for as number,
  manual: r.manual === 1,
  status: r.status as RunStatus,
  session: (r.session as string | null) ?? null,
  startedAt: (r.started_at as number | null) ?? null,
  endedAt: (r.ended_at as number | null) ?? null,
  response: (r.response as string | null) ?? null,
  error: (r.error as string | null) ?? null,
  ...(typeof r.node === "string" ? { node: r.node } : {}),
});

/** Why a claim was refused: the instant has a row already, or the job has a run going. */
export type Claim = { id: number } | { refused: "recorded" | "busy" };

export class CronStore {
  private constructor(private readonly db: BetterSqlite3.Database) {}

  /** A team daemon's ledger also holds the other daemons' runs and inbox (cron/team-ledger.ts). */
  private get team(): boolean {
    return (
      this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'team_inbox'").get() !== undefined
    );
  }

  /** Opens (creating) the ledger; better-sqlite3 loads here, only for the daemon and `cron`. */
  static async open(file: string): Promise<CronStore> {
    const { default: Database } = await import("better-sqlite3");
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const db = new Database(file, { timeout: 5000 });
    db.pragma("journal_mode = WAL");
    db.exec(SCHEMA);
    return new CronStore(db);
  }

  close(): void {
    this.db.close();
  }

  /** The connection, for a team's mirror of the jobs (team-jobs.ts), which syncs this ledger's `jobs`. */
  get sqlite(): BetterSqlite3.Database {
    return this.db;
  }

  /** Adds a job; a name in use is refused (nothing stored). */
  addJob(job: Omit<CronJob, "enabled" | "pausedReason" | "failures">): CronJob {
    if (!JOB_NAME.test(job.name))
      throw new CronInputError(
        `invalid job name "${job.name}": 1 to 40 of a-z 0-9 _ -, starting with a letter or digit`,
      );
    const result = this.db
      .prepare(
        `INSERT INTO jobs (name, schedule, tz, prompt, workspace, model, approval, missed, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
      )
      .run(
        job.name,
        job.schedule,
        job.tz,
        job.prompt,
        job.workspace,
        job.model,
        job.approval,
        job.missed,
        job.createdAt,
      );
    if (result.changes === 0)
      throw new CronInputError(`a job named "${job.name}" exists already (cron remove ${job.name} first)`);
    return this.job(job.name)!;
  }

  /** Changes the given fields of job `name` in one statement; throws CronInputError when there is no such job. */
  updateJob(name: string, change: JobChange): CronJob {
    const keys = Object.keys(change) as (keyof JobChange)[];
    const sets = keys.map((k) => `${CHANGE_COLUMNS[k]} = ?`).join(", ");
    const result = this.db
      .prepare(`UPDATE jobs SET ${sets} WHERE name = ?`)
      .run(...keys.map((k) => change[k] ?? null), name);
    if (result.changes === 0) throw new CronInputError(`no cron job named "${name}" (cron list shows them)`);
    return this.job(name)!;
  }

  job(name: string): CronJob | null {
    const row = this.db.prepare("SELECT * FROM jobs WHERE name = ?").get(name) as Row | undefined;
    return row ? jobOf(row) : null;
  }

  jobs(): CronJob[] {
    return (this.db.prepare("SELECT * FROM jobs ORDER BY name").all() as Row[]).map(jobOf);
  }

  /** Pauses (with a reason) or resumes a job; resuming clears its failure count. False: no such job. */
  setEnabled(name: string, enabled: boolean, reason: string | null = null): boolean {
    const sql = enabled
      ? "UPDATE jobs SET enabled = 1, paused_reason = NULL, failures = 0 WHERE name = ?"
      : "UPDATE jobs SET enabled = 0, paused_reason = ? WHERE name = ?";
    const args = enabled ? [name] : [reason ?? "paused", name];
    return this.db.prepare(sql).run(...args).changes > 0;
  }

  /** Removes the job and its ledger (its inbox items stay until read). */
  removeJob(name: string): boolean {
    return this.db.transaction(() => {
      this.db.prepare("DELETE FROM runs WHERE job = ?").run(name);
      if (this.team) this.db.prepare("DELETE FROM team_runs WHERE job = ?").run(name);
      return this.db.prepare("DELETE FROM jobs WHERE name = ?").run(name).changes > 0;
    })();
  }

  /** The newest scheduled instant with a row (manual runs aside), or the job's creation. */
  watermark(job: CronJob): number {
    const row = this.db
      .prepare("SELECT MAX(scheduled_for) AS at FROM runs WHERE job = ? AND manual = 0")
      .get(job.name) as { at: number | null };
    return Math.max(row.at ?? 0, job.createdAt);
  }

  /** Records instants that will not run (skipped or coalesced); instants with a row are left alone. */
  record(job: string, instants: readonly number[], status: "skipped" | "coalesced", note?: string): void {
    const insert = this.db.prepare(
      "INSERT OR IGNORE INTO runs (job, scheduled_for, status, claimed_at, ended_at, error) VALUES (?, ?, ?, ?, ?, ?)",
    );
    const now = Date.now();
    this.db.transaction(() => {
      for (const at of instants) insert.run(job, at, status, now, now, note ?? null);
    })();
  }

  /**
   * Claims `instant` for a run, in one immediate transaction: refused when it has a row already
   * (it ran, or is running, or was recorded) or when the job has a claimed or running row.
   */
  claim(job: string, instant: number, manual: boolean): Claim {
    return this.db
      .transaction((): Claim => {
        const busy = this.db
          .prepare("SELECT 1 FROM runs WHERE job = ? AND status IN ('claimed', 'running') LIMIT 1")
          .get(job);
        if (busy) return { refused: "busy" };
        const result = this.db
          .prepare(
            "INSERT OR IGNORE INTO runs (job, scheduled_for, manual, status, claimed_at) VALUES (?, ?, ?, 'claimed', ?)",
          )
          .run(job, instant, manual ? 1 : 0, Date.now());
        return result.changes === 0 ? { refused: "recorded" } : { id: Number(result.lastInsertRowid) };
      })
      .immediate();
  }

  markRunning(id: number, session: string): void {
    this.db
      .prepare("UPDATE runs SET status = 'running', session = ?, started_at = ? WHERE id = ?")
      .run(session, Date.now(), id);
  }

  /** Ends a run and keeps its result; a failure counts toward pausing the job, a success resets it. */
  finish(id: number, status: "completed" | "failed", response: string | null, error: string | null): CronRun {
    return this.db.transaction(() => {
      this.db
        .prepare("UPDATE runs SET status = ?, ended_at = ?, response = ?, error = ? WHERE id = ?")
        .run(status, Date.now(), response, error, id);
      const run = runOf(this.db.prepare("SELECT * FROM runs WHERE id = ?").get(id) as Row);
      this.db
        .prepare(`UPDATE jobs SET failures = ${status === "failed" ? "failures + 1" : "0"} WHERE name = ?`)
        .run(run.job);
      return run;
    })();
  }

  /** A claimed run another daemon of the team fired: recorded as skipped, with who did, never run here. */
  firedElsewhere(id: number, note: string): void {
    this.db
      .prepare("UPDATE runs SET status = 'skipped', ended_at = ?, error = ? WHERE id = ? AND status = 'claimed'")
      .run(Date.now(), note, id);
  }

  /** Runs a dead daemon left claimed or running become interrupted (their instants never run again). */
  interruptLeftovers(): number {
    return this.db
      .prepare(
        "UPDATE runs SET status = 'interrupted', ended_at = ?, error = 'the daemon stopped during this run' WHERE status IN ('claimed', 'running')",
      )
      .run(Date.now()).changes;
  }

  /** The job's runs, newest first; in a team, every daemon's (an instant has a row from each that claimed it). */
  runs(job: string, limit = 50): CronRun[] {
    const sql = this.team
      ? `SELECT * FROM (
           SELECT id, job, scheduled_for, manual, status, session, started_at, ended_at, response, error, NULL AS node FROM runs WHERE job = ?
           UNION ALL SELECT id, job, scheduled_for, manual, status, session, started_at, ended_at, response, error, node FROM team_runs WHERE job = ?)
         ORDER BY scheduled_for DESC, node IS NOT NULL, id DESC LIMIT ?`
      : "SELECT * FROM runs WHERE job = ? ORDER BY scheduled_for DESC, id DESC LIMIT ?";
    const args = this.team ? [job, job, limit] : [job, limit];
    return (this.db.prepare(sql).all(...args) as Row[]).map(runOf);
  }

  running(job: string): CronRun | null {
    const row = this.db
      .prepare("SELECT * FROM runs WHERE job = ? AND status IN ('claimed', 'running') LIMIT 1")
      .get(job) as Row | undefined;
    return row ? runOf(row) : null;
  }

  /** When `name` was last marked (e.g. missed runs told through then), or null. */
  mark(name: string): number | null {
    const row = this.db.prepare("SELECT at FROM marks WHERE name = ?").get(name) as { at: number } | undefined;
    return row?.at ?? null;
  }

  setMark(name: string, at: number): void {
    this.db
      .prepare("INSERT INTO marks (name, at) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET at = excluded.at")
      .run(name, at);
  }

  /** Inbox items not read yet (`cron inbox` marks them read). */
  unseen(): number {
    const sql = this.team
      ? "SELECT (SELECT COUNT(*) FROM inbox WHERE seen = 0) + (SELECT COUNT(*) FROM team_inbox WHERE seen = 0) AS n"
      : "SELECT COUNT(*) AS n FROM inbox WHERE seen = 0";
    return (this.db.prepare(sql).get() as { n: number }).n;
  }

  park(job: string, runId: number | null, text: string): void {
    this.db.prepare("INSERT INTO inbox (job, run_id, at, text) VALUES (?, ?, ?, ?)").run(job, runId, Date.now(), text);
  }

  /** The inbox, newest first (in a team, every daemon's); `markSeen` marks what it returns as read. */
  inbox(markSeen = false): InboxItem[] {
    const team = this.team;
    const sql = team
      ? `SELECT * FROM (SELECT id, job, run_id, at, text, seen, NULL AS node FROM inbox UNION ALL
         SELECT id, job, run_id, at, text, seen, node FROM team_inbox) ORDER BY at DESC, id DESC LIMIT 200`
      : "SELECT * FROM inbox ORDER BY id DESC LIMIT 200";
    const rows = (this.db.prepare(sql).all() as Row[]).map(
      (r): InboxItem => ({
        id: r.id as number,
        job: r.job as string,
        runId: (r.run_id as number | null) ?? null,
        at: r.at as number,
        text: r.text as string,
        seen: r.seen === 1,
        ...(typeof r.node === "string" ? { node: r.node } : {}),
      }),
    );
    if (markSeen) this.db.prepare("UPDATE inbox SET seen = 1 WHERE seen = 0").run();
    if (markSeen && team) this.db.prepare("UPDATE team_inbox SET seen = 1 WHERE seen = 0").run();
    return rows;
  }
}

// A team's cron ledger (issue 34): each daemon keeps its run rows and inbox in its own cron.db, as
// on a daemon of its own, and shares them through the team's database: every row it writes goes
// there (an outbox filled by triggers on this connection, so nothing the scheduler does changes),
// and the rows the other daemons wrote come back into `team_runs` and `team_inbox`, which
// CronStore's `runs` and `inbox` read with its own. A database that does not answer keeps the
// outbox for the next sync.
import type BetterSqlite3 from "better-sqlite3";
import type { CronRun, InboxItem } from "./store.js";

/** A row as the team keeps it: whose it is (`HOST:PID` of the daemon that wrote it) and its id there. */
export type SharedRun = CronRun & { node: string };
export type SharedInboxItem = Omit<InboxItem, "seen"> & { node: string };

/**
 * Contract: the team's run rows and inbox items, keyed by (node, id). `put*` replaces a row (a
 * run's status changes); `since` returns the other daemons' rows written after `cursor` (and
 * some before it: a row is returned again rather than missed), with the cursor to ask from next.
 */
export interface SharedLedger {
  putRuns(runs: readonly CronRun[]): Promise<void>;
  putInbox(items: readonly InboxItem[]): Promise<void>;
  since(cursor: number): Promise<{ runs: SharedRun[]; inbox: SharedInboxItem[]; cursor: number }>;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS team_outbox (
  n INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, id INTEGER NOT NULL, UNIQUE (kind, id)
);
CREATE TABLE IF NOT EXISTS team_runs (
  node TEXT NOT NULL, id INTEGER NOT NULL, job TEXT NOT NULL, scheduled_for INTEGER NOT NULL,
  manual INTEGER NOT NULL, status TEXT NOT NULL, session TEXT, started_at INTEGER, ended_at INTEGER,
  response TEXT, error TEXT, PRIMARY KEY (node, id)
);
CREATE INDEX IF NOT EXISTS team_runs_job ON team_runs (job, scheduled_for);
CREATE TABLE IF NOT EXISTS team_inbox (
  node TEXT NOT NULL, id INTEGER NOT NULL, job TEXT NOT NULL, run_id INTEGER, at INTEGER NOT NULL,
  text TEXT NOT NULL, seen INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (node, id)
);
CREATE TEMP TRIGGER IF NOT EXISTS team_run_added AFTER INSERT ON main.runs
  BEGIN INSERT OR REPLACE INTO team_outbox (kind, id) VALUES ('run', NEW.id); END;
CREATE TEMP TRIGGER IF NOT EXISTS team_run_changed AFTER UPDATE ON main.runs
  BEGIN INSERT OR REPLACE INTO team_outbox (kind, id) VALUES ('run', NEW.id); END;
CREATE TEMP TRIGGER IF NOT EXISTS team_inbox_added AFTER INSERT ON main.inbox
  BEGIN INSERT OR REPLACE INTO team_outbox (kind, id) VALUES ('inbox', NEW.id); END;`;

/** The mark (cron.db `marks`) holding the cursor of the team's rows taken so far. */
const CURSOR = "team-ledger-cursor";
/** Rows sent per statement. */
const BATCH = 200;

type Row = Record<string, unknown>;

export class TeamLedgerMirror {
  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly ledger: SharedLedger,
  ) {
    const fresh = !db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'team_outbox'").get();
    db.exec(SCHEMA);
    // A ledger that ran before it joined a team (or before this version) shares what it has.
    if (fresh)
      db.exec(
        "INSERT OR IGNORE INTO team_outbox (kind, id) SELECT 'run', id FROM runs; INSERT OR IGNORE INTO team_outbox (kind, id) SELECT 'inbox', id FROM inbox",
      );
  }

  /** Sends this daemon's new and changed rows, then takes the other daemons'. Throws when the database does not answer. */
  async sync(): Promise<void> {
    await this.push();
    await this.pull();
  }

  private async push(): Promise<void> {
    for (;;) {
      const waiting = this.db.prepare("SELECT n, kind, id FROM team_outbox ORDER BY n LIMIT ?").all(BATCH) as {
        n: number;
        kind: string;
        id: number;
      }[];
      if (waiting.length === 0) return;
      const ids = (kind: string) => waiting.filter((w) => w.kind === kind).map((w) => w.id);
      const runs = this.rows("runs", ids("run"));
      const inbox = this.rows("inbox", ids("inbox"));
      if (runs.length) await this.ledger.putRuns(runs.map(runOf));
      if (inbox.length) await this.ledger.putInbox(inbox.map(inboxOf));
      // Only what was sent: a row changed again meanwhile has a new entry (a new n) and goes next.
      const sent = this.db.prepare("DELETE FROM team_outbox WHERE n = ?");
      this.db.transaction(() => {
        for (const w of waiting) sent.run(w.n);
      })();
    }
  }

  private rows(table: "runs" | "inbox", ids: number[]): Row[] {
    if (ids.length === 0) return [];
    return this.db
      .prepare(`SELECT * FROM ${table} WHERE id IN (${ids.map(() => "?").join(", ")})`)
      .all(...ids) as Row[];
  }

  private async pull(): Promise<void> {
    const from = (this.db.prepare("SELECT at FROM marks WHERE name = ?").get(CURSOR) as { at: number } | undefined)?.at;
    const got = await this.ledger.since(from ?? 0);
    const run = this.db.prepare(
      `INSERT OR REPLACE INTO team_runs (node, id, job, scheduled_for, manual, status, session, started_at, ended_at, response, error)
       VALUES (@node, @id, @job, @scheduledFor, @manual, @status, @session, @startedAt, @endedAt, @response, @error)`,
    );
    // An item read here stays read when it comes again.
    const item = this.db.prepare(
      "INSERT OR IGNORE INTO team_inbox (node, id, job, run_id, at, text) VALUES (@node, @id, @job, @runId, @at, @text)",
    );
    this.db.transaction(() => {
      for (const r of got.runs) run.run({ ...r, manual: r.manual ? 1 : 0 });
      for (const i of got.inbox) item.run(i);
      this.db
        .prepare("INSERT INTO marks (name, at) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET at = excluded.at")
        .run(CURSOR, got.cursor);
    })();
  }
}

const runOf = (r: Row): CronRun => ({
  id: r.id as number,
  job: r.job as string,
  scheduledFor: r.scheduled_for as number,
  manual: r.manual === 1,
  status: r.status as CronRun["status"],
  session: (r.session as string | null) ?? null,
  startedAt: (r.started_at as number | null) ?? null,
  endedAt: (r.ended_at as number | null) ?? null,
  response: (r.response as string | null) ?? null,
  error: (r.error as string | null) ?? null,
});

const inboxOf = (r: Row): InboxItem => ({
  id: r.id as number,
  job: r.job as string,
  runId: (r.run_id as number | null) ?? null,
  at: r.at as number,
  text: r.text as string,
  seen: r.seen === 1,
});

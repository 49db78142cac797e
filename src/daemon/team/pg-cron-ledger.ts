// The team's cron runs and inbox on PostgreSQL (nh_cron_runs, nh_cron_inbox): every daemon's rows,
// keyed by (node, id), which each daemon's ledger reads with its own (src/cron/team-ledger.ts).
import type { Pool } from "pg";
import type { CronRun, InboxItem } from "../../cron/store.js";
import type { SharedInboxItem, SharedLedger, SharedRun } from "../../cron/team-ledger.js";

type Row = Record<string, unknown>;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Rows written this long before the cursor are read again: a seq taken before another but committed after it is not missed. */
const LOOKBACK = "1 minute";

export class PgCronLedger implements SharedLedger {
  constructor(
    private readonly pool: Pool,
    private readonly node: string,
  ) {}

  async putRuns(runs: readonly CronRun[]): Promise<void> {
    await this.pool.query(
      `INSERT INTO nh_cron_runs (node, id, job, scheduled_for, manual, status, session, started_at, ended_at, response, error)
       SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::boolean[], $6::text[], $7::text[], $8::bigint[], $9::bigint[], $10::text[], $11::text[])
       ON CONFLICT (node, id) DO UPDATE SET job = excluded.job, scheduled_for = excluded.scheduled_for, manual = excluded.manual,
         status = excluded.status, session = excluded.session, started_at = excluded.started_at, ended_at = excluded.ended_at,
         response = excluded.response, error = excluded.error, seq = nextval('nh_cron_ledger_seq'), at = now()`,
      [
        this.node,
        runs.map((r) => r.id),
        runs.map((r) => r.job),
        runs.map((r) => r.scheduledFor),
        runs.map((r) => r.manual),
        runs.map((r) => r.status),
        runs.map((r) => r.session),
        runs.map((r) => r.startedAt),
        runs.map((r) => r.endedAt),
        runs.map((r) => r.response),
        runs.map((r) => r.error),
      ],
    );
  }

  async putInbox(items: readonly InboxItem[]): Promise<void> {
    await this.pool.query(
      `INSERT INTO nh_cron_inbox (node, id, job, run_id, at, text)
       SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::text[])
       ON CONFLICT (node, id) DO NOTHING`,
      [
        this.node,
        items.map((i) => i.id),
        items.map((i) => i.job),
        items.map((i) => i.runId),
        items.map((i) => i.at),
        items.map((i) => i.text),
      ],
    );
  }

  async since(cursor: number): Promise<{ runs: SharedRun[]; inbox: SharedInboxItem[]; cursor: number }> {
    const runs = await this.pool.query<Row>(
      `SELECT * FROM nh_cron_runs WHERE node <> $1 AND (seq > $2 OR at > now() - interval '${LOOKBACK}') ORDER BY seq`,
      [this.node, cursor],
    );
    const inbox = await this.pool.query<Row>(
      "SELECT * FROM nh_cron_inbox WHERE node <> $1 AND (seq > $2 OR at > extract(epoch FROM now()) * 1000 - 60000) ORDER BY seq",
      [this.node, cursor],
    );
    const seqs = [...runs.rows, ...inbox.rows].map((r) => Number(r.seq));
    return {
      runs: runs.rows.map(
        (r): SharedRun => ({
          node: r.node as string,
          id: Number(r.id),
          job: r.job as string,
          scheduledFor: Number(r.scheduled_for),
          manual: r.manual as boolean,
          status: r.status as SharedRun["status"],
          session: (r.session as string | null) ?? null,
          startedAt: num(r.started_at),
          endedAt: num(r.ended_at),
          response: (r.response as string | null) ?? null,
          error: (r.error as string | null) ?? null,
        }),
      ),
      inbox: inbox.rows.map(
        (r): SharedInboxItem => ({
          node: r.node as string,
          id: Number(r.id),
          job: r.job as string,
          runId: num(r.run_id),
          at: Number(r.at),
          text: r.text as string,
        }),
      ),
      cursor: seqs.reduce((a, b) => Math.max(a, b), cursor),
    };
  }

  /** A removed job's rows go with it (as `cron remove` removes its runs from the ledger). */
  async forget(job: string): Promise<void> {
    await this.pool.query("DELETE FROM nh_cron_runs WHERE job = $1", [job]);
  }
}

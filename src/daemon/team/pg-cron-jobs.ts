// The team's cron jobs on PostgreSQL (nh_cron_jobs): what each daemon's ledger mirrors
// (src/cron/team-jobs.ts). Every change notifies `nh_cron_jobs`, so the other daemons sync at once.
import type { Pool } from "pg";
import type { SharedJob, SharedJobTable } from "../../cron/team-jobs.js";
import { PgCronLedger } from "./pg-cron-ledger.js";
import type { PgListener } from "./pg-listen.js";

type Row = Record<string, unknown>;

const jobOf = (r: Row): SharedJob => ({
  name: r.name as string,
  schedule: r.schedule as string,
  tz: r.tz as string,
  prompt: r.prompt as string,
  workspace: r.workspace as string,
  model: (r.model as string | null) ?? null,
  approval: r.approval as SharedJob["approval"],
  missed: r.missed as SharedJob["missed"],
  enabled: r.enabled as boolean,
  pausedReason: (r.paused_reason as string | null) ?? null,
  createdAt: Number(r.created_at),
});

export class PgCronJobs implements SharedJobTable {
  readonly ledger: PgCronLedger;

  constructor(
    private readonly pool: Pool,
    private readonly listener: PgListener,
    private readonly node: string,
  ) {
    this.ledger = new PgCronLedger(pool, node);
  }

  async all(): Promise<SharedJob[]> {
    const { rows } = await this.pool.query<Row>("SELECT * FROM nh_cron_jobs ORDER BY name");
    return rows.map(jobOf);
  }

  async insert(job: SharedJob): Promise<boolean> {
    const { rows } = await this.pool.query(
      `WITH added AS (
         INSERT INTO nh_cron_jobs (name, schedule, tz, prompt, workspace, model, approval, missed, enabled, paused_reason, created_at, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (name) DO NOTHING RETURNING name)
       SELECT name, pg_notify('nh_cron_jobs', name) FROM added`,
      [...this.values(job), this.node],
    );
    return rows.length === 1;
  }

  async update(job: SharedJob): Promise<boolean> {
    const { rows } = await this.pool.query(
      `WITH changed AS (
         UPDATE nh_cron_jobs SET schedule = $2, tz = $3, prompt = $4, workspace = $5, model = $6, approval = $7,
           missed = $8, enabled = $9, paused_reason = $10, updated_by = $12, updated_at = now()
         WHERE name = $1 AND created_at = $11 RETURNING name)
       SELECT name, pg_notify('nh_cron_jobs', name) FROM changed`,
      [...this.values(job), this.node],
    );
    return rows.length === 1;
  }

  async remove(name: string, createdAt: number): Promise<void> {
    await this.pool.query(
      `WITH gone AS (DELETE FROM nh_cron_jobs WHERE name = $1 AND created_at = $2 RETURNING name)
       SELECT pg_notify('nh_cron_jobs', name) FROM gone`,
      [name, createdAt],
    );
    await this.ledger.forget(name);
  }

  watch(onChange: () => void): Promise<() => void> {
    // A null payload (the LISTEN connection came back) means the same: read the table again.
    return this.listener.on("nh_cron_jobs", () => onChange());
  }

  private values(job: SharedJob): unknown[] {
    return [
      job.name,
      job.schedule,
      job.tz,
      job.prompt,
      job.workspace,
      job.model,
      job.approval,
      job.missed,
      job.enabled,
      job.pausedReason,
      job.createdAt,
    ];
  }
}

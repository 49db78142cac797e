// TurnQueue on PostgreSQL: a table of turns, taken under a transaction-scoped advisory lock so two
// daemons never take the same turn or two turns of one session. A session's oldest open turn is
// its only candidate (arrival order); a running turn whose lease ran out (its daemon died) is
// taken again. NOTIFY wakes idle workers and waiters; a slow poll covers a missed wake-up.
import { randomUUID } from "node:crypto";
import type { Pool } from "pg";
import { log } from "../../config/log.js";
import type { TurnHandler, TurnImage, TurnJob, TurnQueue, TurnResult } from "./contract.js";
import type { PgListener } from "./pg-listen.js";

export interface PgTurnQueueOptions {
  /** This daemon's name in the table (host, pid). */
  node: string;
  /** How long a taken turn stays taken without a renewal (default 15 s). */
  leaseMs?: number;
  /** How often idle workers and waiters look again without a wake-up (default 1 s). */
  pollMs?: number;
  /** Runs of one turn at most (default 3): a turn that kills its daemon each time ends as an error. */
  maxAttempts?: number;
}

const CLAIM_LOCK = 734_034_002;

interface TurnRow {
  id: string;
  session: string;
  prompt: string;
  attempt: number;
  events_from: string | null;
  images: number;
}

export class PgTurnQueue implements TurnQueue {
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private readonly active = new Map<string, AbortController>();
  private readonly runs = new Set<Promise<void>>();
  private stopped = false;
  private wake: () => void = () => {};
  /** Set by a wake-up that came while the loop was busy: the loop looks again before it waits. */
  private kicked = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly listener: PgListener,
    private readonly opts: PgTurnQueueOptions,
  ) {
    this.leaseMs = opts.leaseMs ?? 15_000;
    this.pollMs = opts.pollMs ?? 1_000;
    this.maxAttempts = opts.maxAttempts ?? 3;
  }

  /** Subscribes to the cancel channel (called once by the store). */
  async init(): Promise<void> {
    await this.listener.on("nh_turn_cancel", (id) => {
      if (id) this.active.get(id)?.abort();
      else void this.checkCancels();
    });
    await this.listener.on("nh_turn_new", () => this.kick());
    // A turn that ended (on any daemon) may free its session's next one.
    await this.listener.on("nh_turn_done", () => this.kick());
  }

  async enqueue(session: string, prompt: string, images: TurnImage[] = []): Promise<string> {
    const id = randomUUID();
    // One statement: the turn is never visible without its images.
    await this.pool.query(
      `WITH t AS (INSERT INTO nh_turns (id, session, prompt, images) VALUES ($1, $2, $3, $4) RETURNING id),
            i AS (INSERT INTO nh_turn_images (turn_id, n, name, data)
                  SELECT (SELECT id FROM t), n::int, name, data FROM unnest($5::text[], $6::bytea[]) WITH ORDINALITY AS x(name, data, n))
       SELECT pg_notify('nh_turn_new', $2)`,
      [id, session, prompt, images.length, images.map((i) => i.name), images.map((i) => i.data)],
    );
    return id;
  }

  private async imagesOf(turnId: string): Promise<TurnImage[]> {
    const { rows } = await this.pool.query<{ name: string; data: Buffer }>(
      "SELECT name, data FROM nh_turn_images WHERE turn_id = $1 ORDER BY n",
      [turnId],
    );
    return rows.map((r) => ({ name: r.name, data: r.data }));
  }

  work(concurrency: number, handler: TurnHandler): void {
    if (this.loop) throw new Error("the turn queue is already being worked");
    this.loop = this.workLoop(Math.max(1, concurrency), handler);
  }

  private async workLoop(concurrency: number, handler: TurnHandler): Promise<void> {
    while (!this.stopped) {
      this.kicked = false;
      let job: TurnJob | null = null;
      if (this.active.size < concurrency) {
        try {
          job = await this.claim();
        } catch (error) {
          log("warn", "team store: taking a turn failed (the database may be away)", error);
        }
      }
      if (job) {
        const run = this.run(job, handler);
        this.runs.add(run);
        void run.finally(() => this.runs.delete(run));
        continue;
      }
      if (this.kicked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private kick(): void {
    this.kicked = true;
    this.wake();
  }

  /** Takes the oldest turn that is its session's oldest open one; null when none is free. */
  private async claim(): Promise<TurnJob | null> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock($1)", [CLAIM_LOCK]);
      const { rows } = await client.query<TurnRow>(
        `WITH head AS (
           SELECT DISTINCT ON (session) seq, id, state, lease_until FROM nh_turns WHERE state <> 'done' ORDER BY session, seq)
         UPDATE nh_turns t SET state = 'running', node = $1, attempt = t.attempt + 1,
           lease_until = now() + make_interval(secs => $2::double precision / 1000)
         WHERE t.id = (SELECT id FROM head WHERE state = 'queued' OR lease_until < now() ORDER BY seq LIMIT 1)
         RETURNING t.id, t.session, t.prompt, t.attempt, t.events_from, t.images`,
        [this.opts.node, this.leaseMs],
      );
      await client.query("COMMIT");
      const row = rows[0];
      if (!row) return null;
      if (row.attempt > this.maxAttempts) {
        await this.finish(row.id, {
          reason: "error",
          response: "",
          error: `the turn was started ${this.maxAttempts} times and its daemon stopped each time; it is not run again`,
        });
        return this.claim();
      }
      const images = row.images > 0 ? await this.imagesOf(row.id) : [];
      return {
        turnId: row.id,
        session: row.session,
        prompt: row.prompt,
        ...(images.length > 0 ? { images } : {}),
        attempt: row.attempt,
        eventsFrom: row.events_from === null ? null : Number(row.events_from),
      };
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  private async run(job: TurnJob, handler: TurnHandler): Promise<void> {
    const control = new AbortController();
    this.active.set(job.turnId, control);
    // Renewed at a third of the lease. A lease this daemon lost (taken over, or not renewed for a
    // whole lease while the database was away) stops the turn here and leaves its end to whoever
    // takes it next: it resumes from the last whole step stored.
    let renewedAt = Date.now();
    let leaseLost = false;
    const lose = () => {
      leaseLost = true;
      control.abort();
    };
    const renew = setInterval(() => {
      if (Date.now() - renewedAt > this.leaseMs) lose();
      this.pool
        .query<{ cancel: boolean }>(
          `UPDATE nh_turns SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
           WHERE id = $1 AND node = $2 AND state = 'running' RETURNING cancel`,
          [job.turnId, this.opts.node, this.leaseMs],
        )
        .then(
          ({ rows }) => {
            if (rows.length === 0) return lose();
            renewedAt = Date.now();
            if (rows[0]?.cancel) control.abort();
          },
          (error: unknown) => log("warn", `team store: renewing the lease of turn ${job.turnId}`, error),
        );
    }, this.leaseMs / 3);
    let result: TurnResult;
    try {
      result = await handler(job, control.signal);
    } catch (error) {
      log("error", `team store: turn ${job.turnId} threw`, error);
      result = { reason: "error", response: "", error: `internal error: ${(error as Error).message}` };
    } finally {
      clearInterval(renew);
    }
    if (leaseLost) {
      this.active.delete(job.turnId);
      this.kick();
      return;
    }
    this.active.delete(job.turnId);
    // Kept trying: the result must reach the table, or the turn would run again after its lease.
    for (let attempt = 0; !this.stopped || attempt < 3; attempt++) {
      try {
        await this.finish(job.turnId, result);
        break;
      } catch (error) {
        log("warn", `team store: recording the end of turn ${job.turnId}`, error);
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * 2 ** attempt)));
      }
    }
    this.kick();
  }

  private async finish(id: string, result: TurnResult): Promise<void> {
    await this.pool.query(
      // Only by the daemon that holds it: one whose lease was taken over has no say in the result.
      `WITH t AS (UPDATE nh_turns SET state = 'done', result = $2::jsonb, ended_at = now(), lease_until = NULL
         WHERE id = $1 AND node = $3 AND state <> 'done' RETURNING id),
            i AS (DELETE FROM nh_turn_images WHERE turn_id IN (SELECT id FROM t))
       SELECT pg_notify('nh_turn_done', $1)`,
      [id, JSON.stringify(result), this.opts.node],
    );
  }

  private async checkCancels(): Promise<void> {
    if (this.active.size === 0) return;
    const { rows } = await this.pool.query<{ id: string }>("SELECT id FROM nh_turns WHERE id = ANY($1) AND cancel", [
      [...this.active.keys()],
    ]);
    for (const row of rows) this.active.get(row.id)?.abort();
  }

  async markStart(turnId: string, eventsFrom: number): Promise<void> {
    await this.pool.query("UPDATE nh_turns SET events_from = $2 WHERE id = $1 AND events_from IS NULL", [
      turnId,
      eventsFrom,
    ]);
  }

  async wait(turnId: string): Promise<TurnResult> {
    let wake: () => void = () => {};
    const off = await this.listener.on("nh_turn_done", (id) => {
      if (id === null || id === turnId) wake();
    });
    try {
      for (;;) {
        if (this.stopped) throw new Error("this daemon is stopping");
        const woken = new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, this.pollMs * 2).unref();
        });
        try {
          const { rows } = await this.pool.query<{ state: string; result: TurnResult | null }>(
            "SELECT state, result FROM nh_turns WHERE id = $1",
            [turnId],
          );
          const row = rows[0];
          if (!row) throw new Error(`no turn ${turnId}`);
          if (row.state === "done" && row.result) return row.result;
        } catch (error) {
          if ((error as Error).message.startsWith("no turn") || this.stopped) throw error;
          // The database is away: keep waiting, the turn's result is recorded once it is back.
        }
        await woken;
      }
    } finally {
      off();
    }
  }

  async cancel(session: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ id: string }>(
      `WITH c AS (UPDATE nh_turns SET cancel = true WHERE session = $1 AND state = 'running' RETURNING id)
       SELECT id, pg_notify('nh_turn_cancel', id) FROM c`,
      [session],
    );
    return rows.length > 0;
  }

  async running(session: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ id: string }>(
      "SELECT id FROM nh_turns WHERE session = $1 AND state = 'running' AND lease_until > now() LIMIT 1",
      [session],
    );
    return rows[0]?.id ?? null;
  }

  async depth(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>("SELECT count(*) AS n FROM nh_turns WHERE state = 'queued'");
    return Number(rows[0]?.n ?? 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    for (const control of this.active.values()) control.abort();
    await this.loop;
    await Promise.all(this.runs);
  }
}

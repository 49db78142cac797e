// CommandRelay on PostgreSQL: a command for the daemon running a turn is a row of nh_commands
// (NOTIFY nh_commands names the daemon); that daemon takes it, applies it and writes its answer
// (NOTIFY nh_command_answers), which the sender reads and removes. Front ends attached to a
// session are rows of nh_attached that their daemon renews; every daemon keeps the set of
// attached sessions, read again on NOTIFY nh_attached and at every renewal.
import type { Pool } from "pg";
import { log } from "../../config/log.js";
import type { BusCommand } from "../../protocol/commands.js";
import type { CommandRelay } from "./contract.js";
import type { PgListener } from "./pg-listen.js";

export interface PgRelayOptions {
  node: string;
  /** How long an attachment counts without a renewal (default 15 s; renewed every third of it). */
  ttlMs?: number;
  /** How long a sender waits for the answer (default 10 s). */
  answerMs?: number;
}

export class PgRelay implements CommandRelay {
  readonly node: string;
  private readonly ttlMs: number;
  private readonly answerMs: number;
  /** Senders waiting for an answer, by command id. */
  private readonly waiting = new Map<number, () => void>();
  private handler: ((session: string, command: BusCommand) => string | null) | null = null;
  private serving: Promise<void> = Promise.resolve();
  /** Front ends attached here, by session. */
  private readonly here = new Map<string, number>();
  private attached = new Set<string>();
  private reading: Promise<void> = Promise.resolve();
  private readonly watchers: ((sessions: ReadonlySet<string>) => void)[] = [];
  private readonly renewal: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly listener: PgListener,
    opts: PgRelayOptions,
  ) {
    this.node = opts.node;
    this.ttlMs = opts.ttlMs ?? 15_000;
    this.answerMs = opts.answerMs ?? 10_000;
    this.renewal = setInterval(() => void this.renew(), this.ttlMs / 3);
    this.renewal.unref();
  }

  async init(): Promise<void> {
    await this.listener.on("nh_commands", (node) => {
      if (node === null || node === this.node) this.drain();
    });
    await this.listener.on("nh_command_answers", (id) => {
      if (id !== null) this.waiting.get(Number(id))?.();
      else for (const wake of this.waiting.values()) wake();
    });
    await this.listener.on("nh_attached", () => void this.refresh().catch(() => {}));
  }

  async runningOn(session: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ node: string }>(
      "SELECT node FROM nh_turns WHERE session = $1 AND state = 'running' AND lease_until > now() LIMIT 1",
      [session],
    );
    return rows[0]?.node ?? null;
  }

  async send(node: string, session: string, command: BusCommand): Promise<string | null> {
    const { rows } = await this.pool.query<{ id: string }>(
      `WITH c AS (INSERT INTO nh_commands (node, session, command) VALUES ($1, $2, $3) RETURNING id)
       SELECT id, pg_notify('nh_commands', $1) FROM c`,
      [node, session, JSON.stringify(command)],
    );
    const id = Number(rows[0]!.id);
    const deadline = Date.now() + this.answerMs;
    let withdrawn = false;
    try {
      for (;;) {
        // Set before the read: an answer between the read and the wait still wakes it.
        const woken = new Promise<void>((resolve) => {
          this.waiting.set(id, resolve);
          setTimeout(resolve, 250).unref();
        });
        const answer = await this.pool.query<{ refused: string | null }>(
          "SELECT refused FROM nh_commands WHERE id = $1 AND state = 'answered'",
          [id],
        );
        if (answer.rows.length === 1) return answer.rows[0]!.refused;
        if (this.closed) return "this daemon is stopping";
        if (!withdrawn && Date.now() > deadline) {
          // Withdrawn unless the other daemon took it already (then its answer comes).
          const gone = await this.pool.query("DELETE FROM nh_commands WHERE id = $1 AND state = 'sent'", [id]);
          withdrawn = true;
          if (gone.rowCount === 1)
            return `the daemon running this turn (${node}) did not answer; nothing was applied, try again`;
        }
        await woken;
      }
    } finally {
      this.waiting.delete(id);
      await this.pool.query("DELETE FROM nh_commands WHERE id = $1", [id]).catch(() => {});
    }
  }

  async serve(handler: (session: string, command: BusCommand) => string | null): Promise<void> {
    this.handler = handler;
    this.drain();
    await this.serving;
  }

  /** Takes and applies this daemon's commands, one read at a time, oldest first. */
  private drain(): void {
    this.serving = this.serving.then(async () => {
      const handler = this.handler;
      if (!handler || this.closed) return;
      try {
        const { rows } = await this.pool.query<{ id: string; session: string; command: BusCommand }>(
          `UPDATE nh_commands SET state = 'taken' WHERE node = $1 AND state = 'sent'
           RETURNING id, session, command`,
          [this.node],
        );
        // A front end that sends a command is attached (it attached before sending): counted first.
        if (rows.length > 0) await this.refresh().catch(() => {});
        for (const row of rows.sort((a, b) => Number(a.id) - Number(b.id))) {
          let refused: string | null;
          try {
            refused = handler(row.session, row.command);
          } catch (error) {
            log("error", `team: applying a relayed ${row.command.type}`, error);
            refused = `the daemon running this turn could not apply it: ${(error as Error).message}`;
          }
          await this.pool.query(
            `WITH a AS (UPDATE nh_commands SET state = 'answered', refused = $2 WHERE id = $1)
             SELECT pg_notify('nh_command_answers', $1::text)`,
            [row.id, refused],
          );
        }
      } catch (error) {
        log("warn", "team store: reading the commands sent to this daemon", error);
      }
    });
  }

  async attach(session: string): Promise<() => void> {
    const count = (this.here.get(session) ?? 0) + 1;
    this.here.set(session, count);
    let attached = true;
    const detach = () => {
      if (!attached) return;
      attached = false;
      const left = (this.here.get(session) ?? 1) - 1;
      if (left > 0) {
        this.here.set(session, left);
        return;
      }
      this.here.delete(session);
      this.pool
        .query(
          `WITH d AS (DELETE FROM nh_attached WHERE session = $1 AND node = $2) SELECT pg_notify('nh_attached', $1)`,
          [session, this.node],
        )
        .catch((error: unknown) => log("warn", `team store: detaching from ${session}`, error));
    };
    if (count === 1) {
      try {
        await this.write([session]);
        await this.pool.query("SELECT pg_notify('nh_attached', $1)", [session]);
      } catch (error) {
        detach();
        throw error;
      }
    }
    return detach;
  }

  /** Writes (or renews) this daemon's attachment to `sessions`. */
  private async write(sessions: string[]): Promise<void> {
    await this.pool.query(
      `INSERT INTO nh_attached (session, node, until)
       SELECT s, $2, now() + make_interval(secs => $3::double precision / 1000) FROM unnest($1::text[]) AS s
       ON CONFLICT (session, node) DO UPDATE SET until = excluded.until`,
      [sessions, this.node, this.ttlMs],
    );
  }

  private async renew(): Promise<void> {
    try {
      if (this.here.size > 0) await this.write([...this.here.keys()]);
      await this.pool.query("DELETE FROM nh_commands WHERE at < now() - interval '1 hour'");
      await this.refresh();
    } catch (error) {
      log("warn", "team store: renewing this daemon's front ends", error);
    }
  }

  /** Reads one after another: an older read never lands after a newer one. */
  refresh(): Promise<void> {
    const read = this.reading.then(async () => {
      const { rows } = await this.pool.query<{ session: string }>(
        "SELECT DISTINCT session FROM nh_attached WHERE until > now()",
      );
      const now = new Set(rows.map((r) => r.session));
      const changed = now.size !== this.attached.size || [...now].some((s) => !this.attached.has(s));
      this.attached = now;
      if (changed) for (const watcher of this.watchers) watcher(now);
    });
    this.reading = read.catch(() => {});
    return read;
  }

  onAttached(onChange: (sessions: ReadonlySet<string>) => void): void {
    this.watchers.push(onChange);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.renewal);
    for (const wake of this.waiting.values()) wake();
    await this.serving;
    if (this.here.size > 0)
      await this.pool
        .query("DELETE FROM nh_attached WHERE node = $1", [this.node])
        .then(() => this.pool.query("SELECT pg_notify('nh_attached', '')"))
        .catch(() => {});
  }
}

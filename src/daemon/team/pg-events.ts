// EventFanout on PostgreSQL: events are rows (so a follower that connects late, or reconnects,
// reads what it missed), and NOTIFY with the session id wakes the followers on every daemon.
import type { Pool } from "pg";
import type { BusEvent } from "../../protocol/events.js";
import { log } from "../../config/log.js";
import type { EventFanout, FannedEvent, Following } from "./contract.js";
import type { PgListener } from "./pg-listen.js";

interface Follower {
  session: string;
  last: number;
  send(event: FannedEvent): void;
  /** Reads are one at a time per follower, so events go out in order and once. */
  reading: Promise<void>;
}

/** Events older than this are dropped (a follower further behind gets the session's snapshot). */
const KEEP_MS = 60 * 60_000;

export class PgEventFanout implements EventFanout {
  private readonly followers = new Set<Follower>();
  /** Publishes of one session in the order they were made. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly pruner: NodeJS.Timeout;

  constructor(
    private readonly pool: Pool,
    private readonly listener: PgListener,
  ) {
    this.pruner = setInterval(() => {
      this.pool
        .query("DELETE FROM nh_events WHERE at < now() - make_interval(secs => $1::double precision / 1000)", [KEEP_MS])
        .catch((error: unknown) => log("warn", "team store: pruning old events", error));
    }, 10 * 60_000);
    this.pruner.unref();
  }

  async init(): Promise<void> {
    await this.listener.on("nh_events", (session) => {
      for (const follower of this.followers) if (session === null || follower.session === session) this.read(follower);
    });
  }

  /** Events waiting for their session's next insert (a busy session's events go in batches). */
  private readonly pending = new Map<string, { events: string[]; written: Promise<number[]> }>();

  publish(session: string, event: BusEvent): Promise<number> {
    const waiting = this.pending.get(session);
    if (waiting) {
      const index = waiting.events.push(JSON.stringify(event)) - 1;
      return waiting.written.then((seqs) => seqs[index]!);
    }
    const batch = { events: [JSON.stringify(event)], written: Promise.resolve([] as number[]) };
    this.pending.set(session, batch);
    const previous = this.chains.get(session) ?? Promise.resolve();
    // One insert per batch, after the session's previous one: order is kept, round trips shared.
    // The seqs come back in insertion order (the batch's order): the i-th event has the i-th.
    batch.written = previous.then(async () => {
      this.pending.delete(session);
      const { rows } = await this.pool.query<{ seqs: string[] }>(
        `WITH e AS (INSERT INTO nh_events (session, event) SELECT $1, x FROM unnest($2::jsonb[]) WITH ORDINALITY AS t(x, n) ORDER BY n RETURNING seq)
         SELECT (SELECT array_agg(seq ORDER BY seq) FROM e) AS seqs, pg_notify('nh_events', $1)`,
        [session, batch.events],
      );
      return (rows[0]?.seqs ?? []).map(Number);
    });
    const settled = batch.written.then(
      () => {},
      (error: unknown) => log("warn", `team store: publishing events of ${session}`, error),
    );
    this.chains.set(session, settled);
    void settled.then(() => {
      if (this.chains.get(session) === settled) this.chains.delete(session);
    });
    return batch.written.then((seqs) => seqs[0]!);
  }

  private read(follower: Follower): void {
    follower.reading = follower.reading.then(async () => {
      if (!this.followers.has(follower)) return;
      try {
        const { rows } = await this.pool.query<{ seq: string; event: BusEvent }>(
          "SELECT seq, event FROM nh_events WHERE session = $1 AND seq > $2 ORDER BY seq LIMIT 1000",
          [follower.session, follower.last],
        );
        for (const row of rows) {
          if (!this.followers.has(follower)) return;
          follower.last = Number(row.seq);
          follower.send({ seq: follower.last, event: row.event });
        }
        if (rows.length === 1000) this.read(follower);
      } catch (error) {
        log("warn", `team store: reading the events of ${follower.session}`, error);
      }
    });
  }

  async head(): Promise<number> {
    const { rows } = await this.pool.query<{ last: string | null }>("SELECT max(seq) AS last FROM nh_events");
    return Number(rows[0]?.last ?? 0);
  }

  async follow(session: string, after: number | null, send: (event: FannedEvent) => void): Promise<Following> {
    let start = after;
    if (start === null) {
      // The running turn's events from its start; with none running, only what comes next.
      const { rows } = await this.pool.query<{ started: string | null; last: string | null }>(
        `SELECT
           (SELECT max(e.seq) FROM nh_events e WHERE e.session = $1 AND e.event->>'type' = 'turn.started'
              AND e.event->>'agentId' IS NULL
              AND EXISTS (SELECT 1 FROM nh_turns t WHERE t.session = $1 AND t.state = 'running')) AS started,
           (SELECT max(seq) FROM nh_events) AS last`,
        [session],
      );
      const row = rows[0];
      start = row?.started ? Number(row.started) - 1 : Number(row?.last ?? 0);
    }
    const follower: Follower = { session, last: start, send, reading: Promise.resolve() };
    this.followers.add(follower);
    this.read(follower);
    await follower.reading;
    return {
      stop: () => this.followers.delete(follower),
      caughtUp: () => {
        this.read(follower);
        return follower.reading;
      },
    };
  }

  close(): void {
    clearInterval(this.pruner);
    this.followers.clear();
  }
}

// The PostgreSQL team store: a pool, the shared LISTEN connection, the migrations, and the three
// implementations on them. Loaded (with the pg driver) only when a database URL is given.
import { log } from "../../config/log.js";
import type { TeamStore } from "./contract.js";
import { migrate, SCHEMA_VERSION } from "./migrations.js";
import { PgCronJobs } from "./pg-cron-jobs.js";
import { PgEventFanout } from "./pg-events.js";
import { PgListener } from "./pg-listen.js";
import { PgRelay } from "./pg-relay.js";
import { PgSessionStore } from "./pg-sessions.js";
import { PgTurnQueue } from "./pg-turns.js";
import { safeUrl } from "./open.js";

export interface PgStoreOptions {
  url: string;
  node: string;
  leaseMs?: number;
  pollMs?: number;
  answerMs?: number;
}

export async function openPgStore(opts: PgStoreOptions): Promise<TeamStore> {
  const { default: pg } = await import("pg");
  const where = safeUrl(opts.url);
  const pool = new pg.Pool({ connectionString: opts.url, max: 20, connectionTimeoutMillis: 10_000 });
  // A connection the server dropped (restart, failover) is an event, not a crash: idle ones are
  // reported on the pool, busy ones on the client, and the query that used it fails.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  let client: import("pg").PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(`cannot reach the database ${where}: ${(error as Error).message}`);
  }
  try {
    await migrate(client);
  } catch (error) {
    client.release();
    await pool.end().catch(() => {});
    throw error;
  }
  client.release();
  const listener = new PgListener(pg, opts.url);
  await listener.start();
  const turns = new PgTurnQueue(pool, listener, {
    node: opts.node,
    ...(opts.leaseMs ? { leaseMs: opts.leaseMs } : {}),
    ...(opts.pollMs ? { pollMs: opts.pollMs } : {}),
  });
  await turns.init();
  const events = new PgEventFanout(pool, listener);
  await events.init();
  const relay = new PgRelay(pool, listener, {
    node: opts.node,
    ...(opts.answerMs ? { answerMs: opts.answerMs } : {}),
  });
  await relay.init();
  return {
    kind: "postgres",
    describe: `PostgreSQL ${where} (schema ${SCHEMA_VERSION})`,
    sessions: new PgSessionStore(pool),
    turns,
    events,
    cronJobs: new PgCronJobs(pool, listener, opts.node),
    relay,
    async claimInstant(job, instant) {
      const won = await pool.query(
        "INSERT INTO nh_cron_fired (job, instant, node) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        [job, instant, opts.node],
      );
      if (won.rowCount === 1) return null;
      // A second statement: the insert's snapshot predates the winner's commit it waited for.
      const { rows } = await pool.query<{ node: string }>(
        "SELECT node FROM nh_cron_fired WHERE job = $1 AND instant = $2",
        [job, instant],
      );
      return rows[0]?.node ?? "another daemon";
    },
    async health() {
      try {
        return { database: "ok", queueDepth: await turns.depth() };
      } catch (error) {
        // /health answers without a token: the reason goes to the log, not to the caller.
        log("warn", "team store: the database does not answer", error);
        return { database: "unreachable", queueDepth: -1 };
      }
    },
    async close() {
      await turns.stop();
      await relay.close();
      events.close();
      await listener.close();
      await pool.end();
    },
  };
}

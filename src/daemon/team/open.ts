// Opens the team store: the embedded one (files, SQLite, in-process) without a database URL, else
// PostgreSQL, whose driver is imported here and only here, so a daemon without DATABASE_URL (and
// a one-shot turn) never loads it. Migrations run before anything else touches the database.
import { hostname } from "node:os";
import { join } from "node:path";
import type { TeamStore } from "./contract.js";
import { EmbeddedEventFanout } from "./embedded-events.js";
import { EmbeddedSessionStore } from "./embedded-sessions.js";
import { EmbeddedTurnQueue } from "./embedded-turns.js";

export interface TeamStoreOptions {
  /** postgres://… or null for the embedded store. */
  databaseUrl: string | null;
  /** The embedded store's session folder. */
  sessionDir: string;
  /** The embedded store's search index file. */
  indexFile?: string;
  /** PostgreSQL: lease and poll timings of the turn queue (tests shorten them). */
  leaseMs?: number;
  pollMs?: number;
  /** PostgreSQL: this daemon's name in the turn table (default host:pid). */
  node?: string;
  /** PostgreSQL: how long a relayed command waits for its answer (default 10 s). */
  answerMs?: number;
}

/** The URL without its password, for messages. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unreadable database URL)";
  }
}

export async function openTeamStore(opts: TeamStoreOptions): Promise<TeamStore> {
  if (!opts.databaseUrl) {
    const sessions = new EmbeddedSessionStore(
      opts.sessionDir,
      opts.indexFile ?? join(opts.sessionDir, "..", "team-index.db"),
    );
    const turns = new EmbeddedTurnQueue();
    return {
      kind: "embedded",
      describe: `embedded store (session files in ${opts.sessionDir})`,
      sessions,
      turns,
      events: new EmbeddedEventFanout(),
      claimInstant: async () => null,
      cronJobs: null,
      relay: null,
      health: async () => ({ database: "embedded", queueDepth: await turns.depth() }),
      close: async () => {
        await turns.stop();
        await sessions.close();
      },
    };
  }
  const { openPgStore } = await import("./pg-store.js");
  return openPgStore({
    url: opts.databaseUrl,
    node: opts.node ?? `${hostname()}:${process.pid}`,
    ...(opts.leaseMs ? { leaseMs: opts.leaseMs } : {}),
    ...(opts.pollMs ? { pollMs: opts.pollMs } : {}),
    ...(opts.answerMs ? { answerMs: opts.answerMs } : {}),
  });
}

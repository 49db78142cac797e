// The PostgreSQL schema, as numbered migrations run at start under an advisory lock (so daemons
// starting together migrate once). A database whose schema is newer than this program knows is
// refused: an older daemon must not write rows it does not understand.
import type { PoolClient } from "pg";

/** Appended to, never edited: a database records the highest number it has run. */
export const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
CREATE TABLE nh_sessions (
  id text PRIMARY KEY,
  data jsonb NOT NULL,
  title text,
  messages integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  body text NOT NULL,
  search tsvector GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED
);
CREATE INDEX nh_sessions_search ON nh_sessions USING gin (search);
CREATE TABLE nh_turns (
  seq bigserial PRIMARY KEY,
  id text UNIQUE NOT NULL,
  session text NOT NULL,
  prompt text NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done')),
  node text,
  attempt integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  cancel boolean NOT NULL DEFAULT false,
  events_from bigint,
  result jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz
);
CREATE INDEX nh_turns_open ON nh_turns (session, seq) WHERE state <> 'done';
CREATE TABLE nh_events (
  seq bigserial PRIMARY KEY,
  session text NOT NULL,
  event jsonb NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX nh_events_session ON nh_events (session, seq);
CREATE TABLE nh_cron_fired (
  job text NOT NULL,
  instant bigint NOT NULL,
  node text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (job, instant)
);
`,
  },
  {
    // The cron jobs themselves, shared (version 1 shared only their fired instants).
    version: 2,
    sql: `
CREATE TABLE nh_cron_jobs (
  name text PRIMARY KEY,
  schedule text NOT NULL,
  tz text NOT NULL,
  prompt text NOT NULL,
  workspace text NOT NULL,
  model text,
  approval text NOT NULL,
  missed text NOT NULL,
  enabled boolean NOT NULL,
  paused_reason text,
  created_at bigint NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    // Commands for the daemon running a session's turn (steering, approvals, a forced stop), and
    // which daemons have a front end attached to which session (so the turn's daemon asks).
    version: 3,
    sql: `
CREATE TABLE nh_commands (
  id bigserial PRIMARY KEY,
  node text NOT NULL,
  session text NOT NULL,
  command jsonb NOT NULL,
  state text NOT NULL DEFAULT 'sent' CHECK (state IN ('sent', 'taken', 'answered')),
  refused text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX nh_commands_waiting ON nh_commands (node, id) WHERE state = 'sent';
CREATE TABLE nh_attached (
  session text NOT NULL,
  node text NOT NULL,
  until timestamptz NOT NULL,
  PRIMARY KEY (session, node)
);
`,
  },
  {
    // The fan-out's seq of the last event a stored session reflects: where a follower starts.
    version: 4,
    sql: "ALTER TABLE nh_sessions ADD COLUMN events_seq bigint;",
  },
  {
    // A prompt's images travel with its turn to whichever daemon takes it (kept until it ends).
    version: 5,
    sql: `
ALTER TABLE nh_turns ADD COLUMN images integer NOT NULL DEFAULT 0;
CREATE TABLE nh_turn_images (
  turn_id text NOT NULL REFERENCES nh_turns (id) ON DELETE CASCADE,
  n integer NOT NULL,
  name text NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (turn_id, n)
);
`,
  },
  {
    // The cron ledger's runs and inbox, every daemon's (src/cron/team-ledger.ts): one seq over
    // both, taken again on every change, is where a daemon reads the others' rows from.
    version: 6,
    sql: `
CREATE SEQUENCE nh_cron_ledger_seq;
CREATE TABLE nh_cron_runs (
  node text NOT NULL,
  id bigint NOT NULL,
  job text NOT NULL,
  scheduled_for bigint NOT NULL,
  manual boolean NOT NULL,
  status text NOT NULL,
  session text,
  started_at bigint,
  ended_at bigint,
  response text,
  error text,
  seq bigint NOT NULL DEFAULT nextval('nh_cron_ledger_seq'),
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (node, id)
);
CREATE INDEX nh_cron_runs_seq ON nh_cron_runs (seq);
CREATE TABLE nh_cron_inbox (
  node text NOT NULL,
  id bigint NOT NULL,
  job text NOT NULL,
  run_id bigint,
  at bigint NOT NULL,
  text text NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('nh_cron_ledger_seq'),
  PRIMARY KEY (node, id)
);
CREATE INDEX nh_cron_inbox_seq ON nh_cron_inbox (seq);
`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
/** pg_advisory_xact_lock key of the migration (any constant no other program uses). */
const MIGRATION_LOCK = 734_034_001;

/** Runs the migrations this database lacks; throws (with what to do) on a newer schema. */
export async function migrate(client: PoolClient): Promise<{ from: number; to: number }> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query("CREATE TABLE IF NOT EXISTS nh_schema (version integer NOT NULL, at timestamptz DEFAULT now())");
    const { rows } = await client.query<{ v: number | null }>("SELECT max(version) AS v FROM nh_schema");
    const from = rows[0]?.v ?? 0;
    if (from > SCHEMA_VERSION)
      throw new Error(
        `the database's schema is version ${from}, newer than this nanohermes knows (${SCHEMA_VERSION}): upgrade nanohermes on this machine, or point --database-url at another database`,
      );
    for (const migration of MIGRATIONS) {
      if (migration.version <= from) continue;
      await client.query(migration.sql);
      await client.query("INSERT INTO nh_schema (version) VALUES ($1)", [migration.version]);
    }
    await client.query("COMMIT");
    return { from, to: SCHEMA_VERSION };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

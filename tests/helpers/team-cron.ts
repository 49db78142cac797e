// The team cron tests' bench: one private PostgreSQL cluster for a test file, a fresh database a
// test, and "daemons" that are each their own cron.db, team store and TeamJobMirror between them
// (no timer, no watch: a test calls sync() itself). All closed after the file.
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { CronStore } from "../../src/cron/store.js";
import { TeamJobMirror } from "../../src/cron/team-jobs.js";
import type { TeamStore } from "../../src/daemon/team/contract.js";
import { openTeamStore } from "../../src/daemon/team/open.js";
import { tempDir } from "./cli.js";
import { startPgCluster, type PgCluster } from "./postgres.js";

export interface TeamCronDaemon {
  team: TeamStore;
  ledger: CronStore;
  mirror: TeamJobMirror;
  /** When the mirror said it changed the ledger (Date.now() each time). */
  changes: number[];
  home: string;
}

export interface TeamCronBench {
  /** The cluster (started before the file's first test): kill() and start() it to take it away. */
  readonly cluster: PgCluster;
  /** A database of its own for one test, named `<prefix><n>`. */
  database(): Promise<string>;
  /** A daemon's side on the database at `url` as team node `node`; `home` holds its cron.db. */
  daemon(url: string, node: string, home?: string): Promise<TeamCronDaemon>;
}

/** Registers the file's beforeAll (the cluster) and afterAll (every daemon, then the cluster). */
export function teamCronBench(prefix: string): TeamCronBench {
  let cluster: PgCluster | undefined;
  let databases = 0;
  const opened: TeamCronDaemon[] = [];
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 60_000);
  afterAll(async () => {
    for (const o of opened.splice(0)) {
      await o.mirror.stop();
      o.ledger.close();
      await Promise.race([o.team.close().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
    }
    cluster?.stop();
  });
  const started = () => {
    if (!cluster) throw new Error("the PostgreSQL cluster is not started (use the bench inside a test)");
    return cluster;
  };
  return {
    get cluster() {
      return started();
    },
    database: () => started().createDatabase(`${prefix}${++databases}`),
    async daemon(url, node, home = tempDir("nh-home-")) {
      const team = await openTeamStore({ databaseUrl: url, sessionDir: "", node });
      const ledger = await CronStore.open(join(home, "cron.db"));
      const changes: number[] = [];
      const mirror = new TeamJobMirror(ledger, team.cronJobs!, () => changes.push(Date.now()));
      const d = { team, ledger, mirror, changes, home };
      opened.push(d);
      return d;
    },
  };
}

/** A job as the ledger adds it: daily at 09:00 UTC in /srv/repo, never asking for approval. */
export const cronJob = (name: string, prompt: string, createdAt: number) => ({
  name,
  schedule: "0 9 * * *",
  tz: "UTC",
  prompt,
  workspace: "/srv/repo",
  model: null,
  approval: "never" as const,
  missed: "once" as const,
  createdAt,
});

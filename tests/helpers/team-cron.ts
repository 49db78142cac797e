// The team cron tests' bench: one private PostgreSQL cluster for a test file, a fresh database a
// test, and "daemons" that are each their own cron.db, team store and TeamJobMirror between them
// (no timer, no watch: a test calls sync() itself). All closed after the file.
import { join } from "node:path";
import { CronStore } from "../../src/cron/store.js";
import { TeamJobMirror } from "../../src/cron/team-jobs.js";
import type { TeamStore } from "../../src/daemon/team/contract.js";
import { openTeamStore } from "../../src/daemon/team/open.js";
import { tempDir } from "./cli.js";
import { type FileCluster, pgClusterPerFile } from "./postgres.js";

export interface TeamCronDaemon {
  team: TeamStore;
  ledger: CronStore;
  mirror: TeamJobMirror;
  /** When the mirror said it changed the ledger (Date.now() each time). */
  changes: number[];
  home: string;
}

export interface TeamCronBench extends FileCluster {
  /** A daemon's side on the database at `url` as team node `node`; `home` holds its cron.db. */
  daemon(url: string, node: string, home?: string): Promise<TeamCronDaemon>;
}

/** The file's cluster (pgClusterPerFile); after the file, every daemon is closed, then the cluster. */
export function teamCronBench(prefix: string): TeamCronBench {
  const opened: TeamCronDaemon[] = [];
  const pg = pgClusterPerFile(prefix, async () => {
    for (const o of opened.splice(0)) {
      await o.mirror.stop();
      o.ledger.close();
      await Promise.race([o.team.close().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
    }
  });
  return {
    get cluster() {
      return pg.cluster;
    },
    database: pg.database,
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

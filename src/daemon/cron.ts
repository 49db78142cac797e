// The daemon's side of scheduled runs: opens the ledger, runs each claimed instant as a session in
// the daemon's folder, and serves the finished session like any other. In a team the ledger's jobs
// mirror the team's (cron/team-jobs.ts), synced before the first plan.
import type { Extensions } from "../agent/extensions.js";
import type { ModelClient } from "../agent/model-client.js";
import type { Settings } from "../config/schema.js";
import { runJob, runSessionId } from "./cron-runner.js";
import { CronScheduler } from "../cron/scheduler.js";
import { CronStore, cronDbPath } from "../cron/store.js";
import { type SharedJobTable, TeamJobMirror } from "../cron/team-jobs.js";
import type { CronService } from "./cron-routes.js";
import type { DaemonSessions } from "./sessions.js";

export interface CronStart {
  settings: Settings;
  sessionDir: string;
  sessions: DaemonSessions;
  extensions: Promise<Extensions>;
  client?: ModelClient;
  report(line: string): void;
  /** In a team: the shared claim on each scheduled instant (see SchedulerOptions.claimShared). */
  claimShared?(job: string, instant: number): Promise<string | null>;
  /** In a team: the team's jobs, which this daemon's ledger mirrors. */
  sharedJobs?: SharedJobTable;
}

/** Opens ~/.nanohermes/cron.db; the caller starts the service once the daemon listens (it catches up then). */
export async function startCron(opts: CronStart): Promise<CronService> {
  const store = await CronStore.open(cronDbPath(opts.settings.home));
  const maxConcurrent = Number(process.env.NANOHERMES_CRON_CONCURRENCY) || 2;
  const scheduler = new CronScheduler({
    store,
    maxConcurrent,
    report: opts.report,
    ...(opts.claimShared ? { claimShared: opts.claimShared } : {}),
    run: async (job, runId, signal) => {
      const session = runSessionId(job.name, runId);
      store.markRunning(runId, session);
      // In a team the other daemons see the run going at once, not at the next sync.
      void team?.sync();
      opts.sessions.scheduledStarted(session, `cron:${job.name}`);
      const ctx = {
        settings: opts.settings,
        sessionDir: opts.sessionDir,
        extensions: opts.extensions,
        ...(opts.client ? { client: opts.client } : {}),
      };
      return { ...(await runJob(job, session, ctx, signal)), session };
    },
    onRunEnd: (run) => {
      if (run.session) opts.sessions.adopt(run.session);
      void team?.sync();
    },
  });
  let planning = false;
  const team = opts.sharedJobs
    ? new TeamJobMirror(store, opts.sharedJobs, () => {
        if (planning) scheduler.wake();
      })
    : null;
  if (team) {
    // The team's jobs are in the ledger before the first plan: one removed while this daemon was
    // down does not fire at start.
    const first = await team.sync();
    if (first.error) opts.report(`cron: the team's jobs could not be read (${first.error}); planning from cron.db`);
  }
  return {
    store,
    scheduler,
    team,
    start() {
      scheduler.start();
      planning = true;
      void team?.start();
    },
    async stop() {
      await scheduler.stop();
      await team?.stop();
      store.close();
    },
  };
}

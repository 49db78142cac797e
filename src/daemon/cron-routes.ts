// The daemon's /v1/cron API: the same jobs, runs and inbox as `nanohermes cron`, behind the same
// auth as the rest of /v1 (server.ts checks it before routing here).
import type { IncomingMessage, ServerResponse } from "node:http";
import { addJob, nextRunOf, updateJob } from "../cron/jobs.js";
import { CronInputError } from "../cron/schedule.js";
import type { CronScheduler } from "../cron/scheduler.js";
import type { CronJob, CronStore } from "../cron/store.js";
import type { SyncReport, TeamJobMirror } from "../cron/team-jobs.js";
import { HttpError, readJson, sendJson } from "./http.js";

export interface CronService {
  store: CronStore;
  scheduler: CronScheduler;
  /** In a team: the mirror of the team's jobs; a change made here is shared before it is answered. */
  team: TeamJobMirror | null;
  /** Plans (and, in a team, syncs the jobs) from now on. */
  start(): void;
  stop(): Promise<void>;
}

/**
 * In a team, sends the change just made to `name` to the team's table: a change the team refused
 * is a 409 (the team's job stands, the ledger has it back). A database that does not answer keeps
 * the change here for the next sync: `shared: false` says so.
 */
async function share(cron: CronService, name: string): Promise<{ shared?: boolean; sharedError?: string }> {
  if (!cron.team) return {};
  const report: SyncReport = await cron.team.sync();
  const lost = report.lost.find((l) => l.name === name);
  if (lost) throw new HttpError(409, `cron ${name}: ${lost.reason}; the team's job stands (cron list shows it)`);
  return report.error ? { shared: false, sharedError: report.error } : { shared: true };
}

const withNext = (job: CronJob) => ({ ...job, nextRun: nextRunOf(job), running: false });

function only(req: IncomingMessage, ...methods: string[]): void {
  if (!methods.includes(req.method ?? ""))
    throw new HttpError(405, `use ${methods.join(" or ")} here`, { Allow: methods.join(", ") });
}

/** Serves `path` (under /v1/cron). */
export async function cronRoute(
  cron: CronService,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  cap: number,
): Promise<void> {
  const { store, scheduler } = cron;
  // The team's jobs, runs and inbox as they are now, not as of the last sync (a job added on another daemon).
  if (cron.team && path !== "/v1/cron/wake") await cron.team.sync();
  if (path === "/v1/cron/jobs") {
    only(req, "GET", "POST");
    if (req.method === "GET")
      return sendJson(res, 200, {
        jobs: store.jobs().map((job) => ({ ...withNext(job), running: scheduler.isRunning(job.name) })),
      });
    const body = await readJson(req, cap);
    try {
      const job = addJob(store, body);
      const shared = await share(cron, job.name);
      scheduler.wake();
      return sendJson(res, 201, { ...withNext(job), ...shared });
    } catch (error) {
      if (error instanceof CronInputError) throw new HttpError(400, error.message);
      throw error;
    }
  }
  if (path === "/v1/cron/inbox") {
    only(req, "GET");
    const seen = new URL(req.url ?? "/", "http://daemon").searchParams.get("mark") === "seen";
    return sendJson(res, 200, { inbox: store.inbox(seen) });
  }
  if (path === "/v1/cron/wake") {
    only(req, "POST");
    // `nanohermes cron` wrote the ledger: in a team, its change is shared (or refused) before the answer.
    const team = cron.team ? await cron.team.sync() : null;
    scheduler.wake();
    return sendJson(res, 202, { accepted: true, ...(team ? { team } : {}) });
  }
  const match = /^\/v1\/cron\/jobs\/([a-z0-9][a-z0-9_-]{0,39})(?:\/(runs|run|pause|resume))?$/.exec(path);
  if (!match) throw new HttpError(404, `no such endpoint: ${path}`);
  const name = match[1]!;
  const job = store.job(name);
  if (!job) throw new HttpError(404, `no cron job named "${name}"`);
  switch (match[2]) {
    case undefined: {
      only(req, "GET", "PATCH", "DELETE");
      if (req.method === "GET") return sendJson(res, 200, { ...withNext(job), running: scheduler.isRunning(name) });
      if (req.method === "PATCH") {
        const body = await readJson(req, cap);
        try {
          const changed = updateJob(store, name, body);
          scheduler.wake();
          return sendJson(res, 200, withNext(changed));
        } catch (error) {
          if (error instanceof CronInputError) throw new HttpError(400, error.message);
          throw error;
        }
      }
      store.removeJob(name);
      await share(cron, name);
      res.writeHead(204).end();
      return;
    }
    case "runs":
      only(req, "GET");
      return sendJson(res, 200, { runs: store.runs(name, 200) });
    case "run": {
      only(req, "POST");
      const started = scheduler.runNow(name);
      if ("refused" in started) throw new HttpError(started.refused === "busy" ? 409 : 404, started.message);
      return sendJson(res, 202, { run: started.id, job: name });
    }
    case "pause":
    case "resume":
      only(req, "POST");
      store.setEnabled(name, match[2] === "resume", match[2] === "pause" ? "paused by the user" : null);
      {
        const shared = await share(cron, name);
        scheduler.wake();
        return sendJson(res, 200, { ...withNext(store.job(name)!), ...shared });
      }
  }
}

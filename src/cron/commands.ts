// `nanohermes cron ...`: jobs, their runs and the inbox, read and written in ~/.nanohermes/cron.db;
// `cron run` asks the running daemon (over its socket) to start a run now.
import { request } from "node:http";
import { UsageError, type Flags } from "../config/flags.js";
import type { Settings } from "../config/schema.js";
import { defaultSocketPath } from "../remote/wire.js";
import { addJob, nextRunOf } from "./jobs.js";
import { CronInputError } from "./schedule.js";
import { CronStore, cronDbPath, type CronJob, type CronRun } from "./store.js";

export interface CronIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export const CRON_USAGE = `usage: nanohermes cron add NAME --schedule EXPR --prompt TEXT [-C DIR] [--missed skip|once|all] [--approval P] [--model M] [--tz ZONE]
       nanohermes cron list | runs NAME | run NAME | pause NAME | resume NAME | remove NAME | inbox   (each with --json)`;

/** One request to the local daemon over its socket; null when no daemon listens there. */
function askDaemon(
  home: string,
  method: string,
  path: string,
): Promise<{ status: number; body: Record<string, unknown> } | null> {
  return new Promise((resolve) => {
    const req = request({ socketPath: defaultSocketPath(home), path, method }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // an empty answer
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on("error", () => resolve(null));
    req.end();
  });
}

/**
 * Asks the running daemon to plan again after this command wrote the ledger; a team daemon first
 * shares the change with the team (cron/team-jobs.ts). Returns why the team refused the change to
 * `name`, or null; a team whose database does not answer gets a note (the change waits here).
 */
async function wakeDaemon(home: string, name: string | null, io: CronIO): Promise<string | null> {
  const answer = await askDaemon(home, "POST", "/v1/cron/wake");
  const team = answer?.body.team as { lost?: { name: string; reason: string }[]; error?: string } | undefined;
  if (!team) return null;
  const lost = team.lost?.find((l) => l.name === name);
  if (lost) return `${lost.reason}; the team's job stands (cron list shows it)`;
  if (team.error)
    io.stderr.write(
      `nanohermes: the team's database does not answer (${team.error}): the change is kept here and shared when it does\n`,
    );
  return null;
}

const when = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString().replace(".000Z", "Z"));

function jobLine(job: CronJob): string {
  const state = job.enabled ? `next ${when(nextRunOf(job))}` : `paused (${job.pausedReason ?? "paused"})`;
  return `${job.name}  ${job.schedule} [${job.tz}]  missed:${job.missed}  ${state}\n    ${job.workspace}: ${job.prompt.split("\n", 1)[0]}`;
}

function runLine(run: CronRun): string {
  const detail = run.error ?? (run.response ? run.response.split("\n", 1)[0]!.slice(0, 80) : "");
  return `${run.id}  ${when(run.scheduledFor)}  ${run.status}${run.manual ? " (manual)" : ""}${run.session ? `  ${run.session}` : ""}${detail ? `  ${detail}` : ""}`;
}

export async function runCron(settings: Settings, args: string[], flags: Flags, io: CronIO): Promise<number> {
  const [sub, name, ...extra] = args;
  const json = flags.values.json === true;
  const out = (value: unknown, text: string) => io.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
  if (sub === undefined || sub === "help") {
    io.stdout.write(`${CRON_USAGE}\n`);
    return sub === undefined ? 2 : 0;
  }
  if (extra.length > 0)
    throw new UsageError(`cron ${sub}: unexpected ${extra.join(" ")} (quote the prompt)\n${CRON_USAGE}`);
  const needsName = sub !== "list" && sub !== "inbox";
  if (needsName && !name) throw new UsageError(`cron ${sub} needs the job's name\n${CRON_USAGE}`);
  if (!needsName && name) throw new UsageError(`cron ${sub} takes no name\n${CRON_USAGE}`);
  const job = name ?? "";

  if (sub === "run") {
    const answer = await askDaemon(settings.home, "POST", `/v1/cron/jobs/${encodeURIComponent(job)}/run`);
    if (!answer) {
      io.stderr.write(
        `nanohermes: no daemon is running (socket ${defaultSocketPath(settings.home)}); start one with nanohermes --daemon, which runs cron jobs\n`,
      );
      return 1;
    }
    if (answer.status !== 202) {
      io.stderr.write(`nanohermes: ${String(answer.body.error ?? `the daemon answered ${answer.status}`)}\n`);
      return 1;
    }
    out(answer.body, `started run ${String(answer.body.run)} of ${job} on the daemon (cron runs ${job} shows it)`);
    return 0;
  }

  const store = await CronStore.open(cronDbPath(settings.home));
  try {
    const missing = () => {
      io.stderr.write(`nanohermes: no cron job named "${job}" (cron list shows them)\n`);
      return 1;
    };
    switch (sub) {
      case "add": {
        const str = (key: string) => (typeof flags.values[key] === "string" ? flags.values[key] : undefined);
        let added: CronJob;
        try {
          added = addJob(store, {
            name: job,
            schedule: str("schedule"),
            prompt: str("prompt"),
            workspace: settings.workspace,
            tz: str("tz"),
            missed: str("missed"),
            approval: str("approval"),
            model: str("model"),
          });
        } catch (error) {
          if (error instanceof CronInputError) throw new UsageError(`cron add: ${error.message}`);
          throw error;
        }
        // A running daemon plans the new job now rather than at its next safety tick (a team
        // daemon shares it first).
        const refused = await wakeDaemon(settings.home, job, io);
        if (refused) {
          io.stderr.write(`nanohermes: cron add ${job}: ${refused}\n`);
          return 1;
        }
        out({ ...added, nextRun: nextRunOf(added) }, `added ${jobLine(added)}`);
        return 0;
      }
      case "list": {
        // A team daemon syncs its ledger with the team's jobs first.
        await wakeDaemon(settings.home, null, io);
        const jobs = store.jobs();
        out(
          { jobs: jobs.map((j) => ({ ...j, nextRun: nextRunOf(j) })) },
          jobs.length ? jobs.map(jobLine).join("\n") : "no cron jobs (cron add NAME --schedule EXPR --prompt TEXT)",
        );
        return 0;
      }
      case "runs": {
        if (!store.job(job)) return missing();
        const runs = store.runs(job);
        out({ runs }, runs.length ? runs.map(runLine).join("\n") : `${job} has not run yet`);
        return 0;
      }
      case "pause":
      case "resume": {
        if (!store.setEnabled(job, sub === "resume", "paused by the user")) return missing();
        const refused = await wakeDaemon(settings.home, job, io);
        if (refused) {
          io.stderr.write(`nanohermes: cron ${sub} ${job}: ${refused}\n`);
          return 1;
        }
        const after = store.job(job);
        if (!after) return missing();
        out({ ...after, nextRun: nextRunOf(after) }, `${sub === "pause" ? "paused" : "resumed"} ${jobLine(after)}`);
        return 0;
      }
      case "remove": {
        if (!store.removeJob(job)) return missing();
        await wakeDaemon(settings.home, job, io);
        out({ removed: job }, `removed ${job} and its runs`);
        return 0;
      }
      case "inbox": {
        const items = store.inbox(true);
        out(
          { inbox: items },
          items.length
            ? items.map((i) => `${i.seen ? " " : "*"} ${when(i.at)}  ${i.text}`).join("\n")
            : "the inbox is empty: no scheduled run was refused anything",
        );
        return 0;
      }
      default:
        throw new UsageError(`unknown cron command "${sub}"\n${CRON_USAGE}`);
    }
  } finally {
    store.close();
  }
}

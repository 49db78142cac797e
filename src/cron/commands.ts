// `nanohermes cron ...`: jobs, their runs and the inbox, read and written in ~/.nanohermes/cron.db;
// `cron run` asks the running daemon (over its socket) to start a run now.
import { UsageError, type Flags } from "../config/flags.js";
import type { Settings } from "../config/schema.js";
import { runOnDaemon, wakeDaemon } from "./daemon-link.js";
import { addJob, nextRunOf, updateJob, type JobInput } from "./jobs.js";
import { inboxLine, jobLine, runLine } from "./lines.js";
import { CronInputError } from "./errors.js";
import { CronStore, cronDbPath, type CronJob } from "./store.js";

export interface CronIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export const CRON_USAGE = `usage: nanohermes cron add NAME --schedule EXPR --prompt TEXT [-C DIR] [--missed skip|once|all] [--approval P] [--model M] [--tz ZONE]
       nanohermes cron update NAME [--schedule EXPR] [--prompt TEXT] [-C DIR] [--missed R] [--approval P] [--model M] [--tz ZONE]
       nanohermes cron list | runs NAME | run NAME | pause NAME | resume NAME | remove NAME | inbox   (each with --json)`;

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
    const started = await runOnDaemon(settings.home, job);
    if ("error" in started) {
      io.stderr.write(`nanohermes: ${started.error}\n`);
      return 1;
    }
    out({ ...started, job }, `started run ${started.run} of ${job} on the daemon (cron runs ${job} shows it)`);
    return 0;
  }

  const store = await CronStore.open(cronDbPath(settings.home));
  try {
    const missing = () => {
      io.stderr.write(`nanohermes: no cron job named "${job}" (cron list shows them)\n`);
      return 1;
    };
    const str = (key: string) => (typeof flags.values[key] === "string" ? flags.values[key] : undefined);
    const fields = (): JobInput => ({
      schedule: str("schedule"),
      prompt: str("prompt"),
      tz: str("tz"),
      missed: str("missed"),
      approval: str("approval"),
      model: str("model"),
    });
    /** Checks and stores; a refusal is a usage error (exit 2, nothing stored). */
    const change = (make: () => CronJob): CronJob => {
      try {
        return make();
      } catch (error) {
        if (error instanceof CronInputError) throw new UsageError(`cron ${sub}: ${error.message}`);
        throw error;
      }
    };
    /** Wakes the daemon after a change; the team's refusal of it, if any (the note is said here). */
    const wake = async (name: string | null): Promise<string | null> => {
      const answer = await wakeDaemon(settings.home, name);
      if (answer.teamError)
        io.stderr.write(
          `nanohermes: the team's database does not answer (${answer.teamError}): the change is kept here and shared when it does\n`,
        );
      return answer.refused;
    };
    switch (sub) {
      case "add":
      case "update": {
        const changed = change(() =>
          sub === "add"
            ? addJob(store, { ...fields(), name: job, workspace: settings.workspace })
            : updateJob(store, job, {
                ...fields(),
                // -C names the job's new workspace only when given (the default is the current folder).
                ...(typeof flags.values.cwd === "string" ? { workspace: settings.workspace } : {}),
              }),
        );
        // A running daemon plans the new job now rather than at its next safety tick (a team
        // daemon shares it first).
        const refused = await wake(job);
        if (refused) {
          io.stderr.write(`nanohermes: cron ${sub} ${job}: ${refused}\n`);
          return 1;
        }
        out({ ...changed, nextRun: nextRunOf(changed) }, `${sub === "add" ? "added" : "updated"} ${jobLine(changed)}`);
        return 0;
      }
      case "list": {
        // A team daemon syncs its ledger with the team's jobs first.
        await wake(null);
        const jobs = store.jobs();
        out(
          { jobs: jobs.map((j) => ({ ...j, nextRun: nextRunOf(j) })) },
          jobs.length ? jobs.map(jobLine).join("\n") : "no cron jobs (cron add NAME --schedule EXPR --prompt TEXT)",
        );
        return 0;
      }
      case "runs": {
        // A team daemon takes the other daemons' runs first.
        await wake(null);
        if (!store.job(job)) return missing();
        const runs = store.runs(job);
        out({ runs }, runs.length ? runs.map(runLine).join("\n") : `${job} has not run yet`);
        return 0;
      }
      case "pause":
      case "resume": {
        if (!store.setEnabled(job, sub === "resume", "paused by the user")) return missing();
        const refused = await wake(job);
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
        await wake(job);
        out({ removed: job }, `removed ${job} and its runs`);
        return 0;
      }
      case "inbox": {
        await wake(null);
        const items = store.inbox(true);
        out(
          { inbox: items },
          items.length ? items.map(inboxLine).join("\n") : "the inbox is empty: no scheduled run was refused anything",
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

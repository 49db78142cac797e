// What the cron tool does, on the same ledger (~/.nanohermes/cron.db) and daemon socket as
// `nanohermes cron`: every call is checked first (checkCronCall: before the user is asked, nothing
// stored), then done (runCronCall). Loaded with the tool's first call; croner and SQLite with it.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { ToolError, type ToolOutput } from "../tools/define.js";
import { askDaemon, noDaemonMessage, runOnDaemon, wakeDaemon } from "./daemon-link.js";
import { addJob, jobChange, newJob, nextRunOf, updateJob, type JobInput } from "./jobs.js";
import { jobLine, when } from "./lines.js";
import { CronInputError } from "./errors.js";
import { CronStore, cronDbPath, type CronJob } from "./store.js";
import type { CronArgs, CronToolOptions } from "./tool.js";

/** The job fields a call gives, its workspace resolved against the task's. */
function fieldsOf(args: CronArgs, workspace: string): Omit<JobInput, "name"> {
  return {
    schedule: args.schedule,
    prompt: args.prompt,
    tz: args.tz,
    missed: args.missed,
    approval: args.approval,
    model: args.model,
    ...(args.workspace !== undefined ? { workspace: resolve(workspace, args.workspace) } : {}),
  };
}

/** A new job's fields: in the task's workspace unless the call names another. */
function createInput(args: CronArgs, name: string, workspace: string): JobInput {
  const fields = fieldsOf(args, workspace);
  return { ...fields, name, workspace: fields.workspace ?? workspace };
}

/** The job's name, or why the call cannot name one. */
function nameOf(args: CronArgs): string {
  if (args.name === undefined || args.name.trim() === "")
    throw new ToolError(`cron ${args.action} needs the job's name (list shows them)`);
  return args.name;
}

/** A ledger with no jobs, for a home that has none yet: reading it must not create the file. */
const noLedger: Pick<CronStore, "job" | "jobs"> = { job: () => null, jobs: () => [] };

/** Reads the ledger where there is one, else `noLedger`: a check or a listing creates nothing. */
async function reading<T>(opts: CronToolOptions, use: (store: Pick<CronStore, "job" | "jobs">) => T): Promise<T> {
  if (!existsSync(cronDbPath(opts.home))) return asToolError(() => use(noLedger));
  return withStore(opts, use);
}

function asToolError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof CronInputError) throw new ToolError(error.message);
    throw error;
  }
}

async function withStore<T>(opts: CronToolOptions, use: (store: CronStore) => T | Promise<T>): Promise<T> {
  const store = await CronStore.open(cronDbPath(opts.home));
  try {
    return await use(store);
  } catch (error) {
    if (error instanceof CronInputError) throw new ToolError(error.message);
    throw error;
  } finally {
    store.close();
  }
}

const existing = (store: Pick<CronStore, "job">, name: string): CronJob => {
  const job = store.job(name);
  if (!job) throw new ToolError(`no cron job named "${name}" (list shows them)`);
  return job;
};

/**
 * Contract: throws a ToolError, having stored nothing, for any call bound to fail (bad fields, a
 * name in use or unknown, `run` with no daemon or while the job runs); reads at most.
 */
export async function checkCronCall(args: CronArgs, opts: CronToolOptions, workspace: string): Promise<void> {
  if (args.action === "list") return;
  const name = nameOf(args);
  await reading(opts, (store) => {
    if (args.action === "create") newJob(store, createInput(args, name, workspace));
    else if (args.action === "update") jobChange(store, name, fieldsOf(args, workspace));
    else existing(store, name);
  });
  if (args.action === "run") {
    const answer = await askDaemon(opts.home, "GET", `/v1/cron/jobs/${encodeURIComponent(name)}`);
    if (!answer) throw new ToolError(noDaemonMessage(opts.home));
    if (answer.body.running === true) throw new ToolError(`cron ${name} is running already; try again when it ends`);
  }
}

const described = (job: CronJob) =>
  `${jobLine(job)}\n    approval ${job.approval}${job.model ? `, model ${job.model}` : ""}${job.enabled ? "" : " (paused)"}`;

/** Does the call; the model reads one line per job touched. */
export async function runCronCall(args: CronArgs, opts: CronToolOptions, workspace: string): Promise<ToolOutput> {
  if (args.action === "run") {
    const name = nameOf(args);
    await reading(opts, (store) => existing(store, name));
    const started = await runOnDaemon(opts.home, name);
    if ("error" in started) throw new ToolError(started.error);
    return {
      forModel: `started run ${started.run} of ${name} on the daemon; its result is kept in the job's runs (cron runs ${name})`,
      display: `run ${started.run} of ${name} started`,
    };
  }
  const action = args.action;
  if (action === "list") {
    const jobs = await reading(opts, (store) => store.jobs());
    return {
      forModel: jobs.length ? jobs.map(described).join("\n") : "no cron jobs",
      display: `${jobs.length} job(s)`,
    };
  }
  const output = await withStore(opts, (store): ToolOutput => {
    switch (action) {
      case "create": {
        const job = addJob(store, createInput(args, nameOf(args), workspace));
        return { forModel: `created ${described(job)}`, display: `created ${job.name}, next ${when(nextRunOf(job))}` };
      }
      case "update": {
        const job = updateJob(store, nameOf(args), fieldsOf(args, workspace));
        return { forModel: `updated ${described(job)}`, display: `updated ${job.name}` };
      }
      case "pause":
      case "resume": {
        const name = nameOf(args);
        existing(store, name);
        store.setEnabled(name, action === "resume", "paused through the cron tool");
        const job = store.job(name)!;
        return { forModel: `${action}d ${described(job)}`, display: `${action}d ${name}` };
      }
      case "remove": {
        const name = nameOf(args);
        existing(store, name);
        store.removeJob(name);
        return { forModel: `removed ${name} and its runs`, display: `removed ${name}` };
      }
      default:
        return action satisfies never;
    }
  });
  // A team daemon shares the change first; a change the team refused was undone there.
  const woken = await wakeDaemon(opts.home, args.action === "list" ? null : nameOf(args));
  if (woken.refused) throw new ToolError(`the team refused the change: ${woken.refused}`);
  return output;
}

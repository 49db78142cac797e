// A new or changed job from what the user gave (the CLI's flags, the API's body, the cron tool's
// arguments): every field checked before anything is stored, each refusal one clear line.
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { approvalPolicies } from "../protocol/enums.js";
import type { ApprovalPolicy } from "../protocol/events.js";
import { defaultMissedPolicy, MISSED_POLICIES, type MissedPolicy } from "./plan.js";
import { compileSchedule, CronInputError } from "./schedule.js";
import { JOB_NAME, type CronJob, type CronStore, type JobChange } from "./store.js";

export interface JobInput {
  name?: unknown;
  schedule?: unknown;
  prompt?: unknown;
  workspace?: unknown;
  tz?: unknown;
  missed?: unknown;
  approval?: unknown;
  model?: unknown;
}

const text = (value: unknown, field: string, required: boolean): string | undefined => {
  if (value === undefined || value === null) {
    if (required) throw new CronInputError(`${field} is required`);
    return undefined;
  }
  if (typeof value !== "string" || value.trim() === "") throw new CronInputError(`${field} must be a non-empty string`);
  return value;
};

/** The zone of this machine, the default of a job that names none. */
export const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

function checkName(name: string): string {
  if (!JOB_NAME.test(name))
    throw new CronInputError(`invalid job name "${name}": 1 to 40 of a-z 0-9 _ -, starting with a letter or digit`);
  return name;
}

function checkWorkspace(workspace: string): string {
  if (!isAbsolute(workspace)) throw new CronInputError(`the workspace must be an absolute path, got "${workspace}"`);
  if (!statSync(workspace, { throwIfNoEntry: false })?.isDirectory())
    throw new CronInputError(`the workspace ${workspace} does not exist or is not a folder`);
  return workspace;
}

function checkMissed(value: unknown): MissedPolicy | undefined {
  const missed = text(value, "--missed", false);
  if (missed !== undefined && !(MISSED_POLICIES as readonly string[]).includes(missed))
    throw new CronInputError(`--missed must be one of ${MISSED_POLICIES.join(", ")}, got "${missed}"`);
  return missed as MissedPolicy | undefined;
}

function checkApproval(value: unknown): ApprovalPolicy | undefined {
  const approval = text(value, "--approval", false);
  if (approval !== undefined && !(approvalPolicies as readonly string[]).includes(approval))
    throw new CronInputError(`--approval must be one of ${approvalPolicies.join(", ")}, got "${approval}"`);
  return approval as ApprovalPolicy | undefined;
}

/** A checked job, ready to store. */
export type NewJob = Parameters<CronStore["addJob"]>[0];

/**
 * Checks `input` against the ledger without storing anything. Contract: throws CronInputError for
 * an invalid name or expression, an unknown zone, policy or rule, a missing workspace, or a name in use.
 */
export function newJob(store: Pick<CronStore, "job">, input: JobInput, now = Date.now()): NewJob {
  const name = checkName(text(input.name, "the name", true)!);
  const expr = text(input.schedule, "--schedule", true)!;
  const prompt = text(input.prompt, "--prompt", true)!;
  const workspace = text(input.workspace, "the workspace", true)!;
  const tz = text(input.tz, "--tz", false) ?? localZone();
  const schedule = compileSchedule(expr, tz, now);
  checkWorkspace(workspace);
  const missed = checkMissed(input.missed);
  const approval = checkApproval(input.approval) ?? "never";
  const model = text(input.model, "--model", false) ?? null;
  if (store.job(name)) throw new CronInputError(`a job named "${name}" exists already (cron remove ${name} first)`);
  return {
    name,
    schedule: schedule.expr,
    tz,
    prompt,
    workspace,
    model,
    approval,
    missed: missed ?? defaultMissedPolicy(schedule.periodMs(now)),
    createdAt: now,
  };
}

/** Checks `input` and stores the job; refusals as newJob's (nothing stored). */
export const addJob = (store: CronStore, input: JobInput, now = Date.now()): CronJob =>
  store.addJob(newJob(store, input, now));

/**
 * Checks the fields `input` gives for job `name` (the others stay) without storing anything. A new
 * schedule or zone counts from now: instants before the change are not missed runs. Contract:
 * throws CronInputError for an unknown job, a change of nothing, or any field newJob refuses.
 */
export function jobChange(
  store: Pick<CronStore, "job">,
  name: string,
  input: Omit<JobInput, "name">,
  now = Date.now(),
): JobChange {
  const job = store.job(name);
  if (!job) throw new CronInputError(`no cron job named "${name}" (cron list shows them)`);
  const change: JobChange = {};
  const expr = text(input.schedule, "--schedule", false);
  const tz = text(input.tz, "--tz", false);
  if (expr !== undefined || tz !== undefined) {
    const schedule = compileSchedule(expr ?? job.schedule, tz ?? job.tz, now);
    change.schedule = schedule.expr;
    change.tz = schedule.tz;
    change.createdAt = now;
  }
  const prompt = text(input.prompt, "--prompt", false);
  if (prompt !== undefined) change.prompt = prompt;
  const workspace = text(input.workspace, "the workspace", false);
  if (workspace !== undefined) change.workspace = checkWorkspace(workspace);
  const missed = checkMissed(input.missed);
  if (missed !== undefined) change.missed = missed;
  const approval = checkApproval(input.approval);
  if (approval !== undefined) change.approval = approval;
  const model = text(input.model, "--model", false);
  if (model !== undefined) change.model = model;
  if (Object.keys(change).length === 0)
    throw new CronInputError("nothing to change: give a schedule, tz, prompt, workspace, missed, approval or model");
  return change;
}

/** Checks the change and stores it; refusals as jobChange's (nothing stored). */
export const updateJob = (store: CronStore, name: string, input: Omit<JobInput, "name">, now = Date.now()): CronJob =>
  store.updateJob(name, jobChange(store, name, input, now));

/** The job's next instant after now, for listings (null when the schedule has none or is paused). */
export function nextRunOf(job: CronJob, now = Date.now()): number | null {
  if (!job.enabled) return null;
  try {
    return compileSchedule(job.schedule, job.tz, job.createdAt).next(now);
  } catch {
    return null;
  }
}

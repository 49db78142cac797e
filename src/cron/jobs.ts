// A new job from what the user gave (the CLI's flags or the API's body): every field checked
// before anything is stored, each refusal one clear line.
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { approvalPolicies } from "../protocol/enums.js";
import type { ApprovalPolicy } from "../protocol/events.js";
import { defaultMissedPolicy, MISSED_POLICIES, type MissedPolicy } from "./plan.js";
import { compileSchedule, CronInputError } from "./schedule.js";
import { JOB_NAME, type CronJob, type CronStore } from "./store.js";

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

/**
 * Checks `input` and stores the job. Contract: throws CronInputError (nothing stored) for an
 * invalid name or expression, an unknown zone, policy or rule, a missing workspace, or a name in use.
 */
export function addJob(store: CronStore, input: JobInput, now = Date.now()): CronJob {
  const name = text(input.name, "the name", true)!;
  if (!JOB_NAME.test(name))
    throw new CronInputError(`invalid job name "${name}": 1 to 40 of a-z 0-9 _ -, starting with a letter or digit`);
  const expr = text(input.schedule, "--schedule", true)!;
  const prompt = text(input.prompt, "--prompt", true)!;
  const workspace = text(input.workspace, "the workspace", true)!;
  const tz = text(input.tz, "--tz", false) ?? localZone();
  const schedule = compileSchedule(expr, tz, now);
  if (!isAbsolute(workspace)) throw new CronInputError(`the workspace must be an absolute path, got "${workspace}"`);
  if (!statSync(workspace, { throwIfNoEntry: false })?.isDirectory())
    throw new CronInputError(`the workspace ${workspace} does not exist or is not a folder`);
  const missed = text(input.missed, "--missed", false);
  if (missed !== undefined && !(MISSED_POLICIES as readonly string[]).includes(missed))
    throw new CronInputError(`--missed must be one of ${MISSED_POLICIES.join(", ")}, got "${missed}"`);
  const approval = text(input.approval, "--approval", false) ?? "never";
  if (!(approvalPolicies as readonly string[]).includes(approval))
    throw new CronInputError(`--approval must be one of ${approvalPolicies.join(", ")}, got "${approval}"`);
  const model = text(input.model, "--model", false) ?? null;
  return store.addJob({
    name,
    schedule: schedule.expr,
    tz,
    prompt,
    workspace,
    model,
    approval: approval as ApprovalPolicy,
    missed: (missed as MissedPolicy | undefined) ?? defaultMissedPolicy(schedule.periodMs(now)),
    createdAt: now,
  });
}

/** The job's next instant after now, for listings (null when the schedule has none or is paused). */
export function nextRunOf(job: CronJob, now = Date.now()): number | null {
  if (!job.enabled) return null;
  try {
    return compileSchedule(job.schedule, job.tz, job.createdAt).next(now);
  } catch {
    return null;
  }
}

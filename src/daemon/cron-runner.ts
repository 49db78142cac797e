// One scheduled run: the preflight (nothing is sent when the job cannot work), then a normal task
// in a fresh session tagged cron:NAME, in the job's workspace, with nobody to answer. Whatever
// would ask is refused by the gate and parked in the inbox for the user.
import { statSync } from "node:fs";
import type { Extensions } from "../agent/extensions.js";
import type { ModelClient } from "../agent/model-client.js";
import { knownContextWindow } from "../agent/providers/models.js";
import { TaskManager } from "../agent/tasks.js";
import { missingKeyMessage } from "../config/providers.js";
import type { Settings } from "../config/schema.js";
import { Bus } from "../protocol/bus.js";
import type { BusEvent } from "../protocol/events.js";
import { sessionFileFor } from "../session/store.js";
import type { RunResult } from "../cron/scheduler.js";
import { CRON_TOOL } from "../cron/tool.js";
import type { CronJob } from "../cron/store.js";

export interface RunContext {
  /** The daemon's settings; the job's workspace, model and policy replace theirs. */
  settings: Settings;
  sessionDir: string;
  extensions: Promise<Extensions>;
  client?: ModelClient;
  /** Every event of the run (the daemon logs them to the session like its own). */
  onEvent?: (event: BusEvent) => void;
}

/** The marker of the gate's refusal when nobody can answer (agent/gate.ts). */
const NOBODY_ASKED = "nobody can answer here";

/** Why the job cannot run as configured, or null; checked before anything is sent to a model. */
export function preflight(job: CronJob, settings: Settings): string | null {
  const stat = statSync(job.workspace, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return `the workspace ${job.workspace} does not exist or is not a folder`;
  const model = job.model ?? settings.model;
  if (job.model !== null && job.model !== settings.model && knownContextWindow(model, settings.models) === undefined)
    return `unknown model "${model}" (not in the model table; add it under "models" in config.json)`;
  const missing = missingKeyMessage(settings);
  if (missing) return missing;
  return null;
}

/**
 * The daemon's extensions without the cron tool: a scheduled run, which nobody watches, never
 * creates, changes or starts jobs (the tool is not offered to it or its subagents).
 */
const withoutCronTool = (extensions: Promise<Extensions>): Promise<Extensions> =>
  extensions.then((ext) => ({ ...ext, tools: ext.tools.filter((tool) => tool.name !== CRON_TOOL) }));

/** The session id of a run: listed by the daemon like any other session. */
export const runSessionId = (job: string, runId: number) => `cron-${job}-${runId}`;

/** Runs the job's prompt once in session `sessionId`. Never throws: failures are results. */
export async function runJob(
  job: CronJob,
  sessionId: string,
  ctx: RunContext,
  signal: AbortSignal,
): Promise<RunResult> {
  const problem = preflight(job, ctx.settings);
  if (problem) return { status: "failed", response: null, error: `preflight: ${problem}`, refused: [] };
  const settings: Settings = {
    ...ctx.settings,
    workspace: job.workspace,
    model: job.model ?? ctx.settings.model,
    approval: job.approval,
  };
  const bus = new Bus();
  const manager = new TaskManager({
    settings,
    bus,
    interactive: false,
    approval: job.approval,
    mode: settings.mode,
    extensions: withoutCronTool(ctx.extensions),
    index: false,
    ...(ctx.client ? { client: ctx.client } : {}),
  });
  const refused: string[] = [];
  let completed: Extract<BusEvent, { type: "turn.completed" }> | null = null;
  let failure: string | null = null;
  bus.subscribe((event) => {
    ctx.onEvent?.(event);
    if (event.taskId !== sessionId) return;
    if (event.type === "turn.completed" && event.agentId === undefined) completed ??= event;
    if (event.type === "notice" && event.level === "error") failure = event.text;
    if (event.type === "notice" && event.level === "warn" && event.text.includes(NOBODY_ASKED))
      refused.push(event.text);
  });
  const stop = () => bus.send({ type: "turn.interrupt", taskId: sessionId, force: true });
  signal.addEventListener("abort", stop, { once: true });
  try {
    manager.add(sessionId, { title: `cron:${job.name}`, sessionFile: sessionFileFor(ctx.sessionDir, sessionId) });
    bus.send({ type: "user.submit", taskId: sessionId, text: job.prompt });
    await manager.turn(sessionId);
  } catch (error) {
    failure = (error as Error).message;
  } finally {
    signal.removeEventListener("abort", stop);
    await manager.shutdown().catch(() => {});
  }
  const done = completed as Extract<BusEvent, { type: "turn.completed" }> | null;
  if (!done) return { status: "failed", response: null, error: failure ?? "the turn did not start", refused };
  const ok = done.reason === "completed" && !done.saveError;
  return {
    status: ok ? "completed" : "failed",
    response: done.response,
    error: ok ? null : (done.error ?? done.saveError ?? done.reason),
    refused,
  };
}

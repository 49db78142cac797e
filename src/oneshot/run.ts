// The one-shot front end: one turn from -p or stdin, printed as text, one JSON object, or NDJSON
// events; Ctrl-C stops the turn at a step boundary, saves the session and exits 130; SIGTERM and
// SIGHUP stop it at once (commands killed), save it and exit 128 + signal.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { createAgent } from "../agent/engine.js";
import { loadExtensions } from "../agent/extensions.js";
import { signalExitCode, withSigint, withTermination, type TerminationSignal } from "../agent/interrupt.js";
import type { Agent } from "../agent/agent.js";
import type { Extensions } from "../agent/extensions.js";
import { SessionBusyError, SessionUnwritableError, setLockRole } from "../session/session-lock.js";
import type { ModelClient } from "../agent/model-client.js";
import type { Flags } from "../config/flags.js";
import type { Settings } from "../config/schema.js";
import { Bus } from "../protocol/bus.js";
import { observerStarted } from "../protocol/observer.js";
import { VERSION } from "../version.js";
import type { BusEvent } from "../protocol/events.js";
import { log } from "../config/log.js";
import { updateTaskIndex } from "../session/task-index.js";
import { createTextPrinter, LONG_RETRY_MS, retryLine, waitingLine, type Writer } from "./printer.js";
import { preloadSdk } from "../agent/providers/openai-sdk.js";
import { startObservers, traceparentOf, type Observers } from "../telemetry/observers.js";
import { reportedCost } from "../agent/providers/usage.js";

export interface OneShotIO {
  stdout: Writer & { isTTY?: boolean };
  stderr: Writer & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;
/**
 * One-shot sessions join the task index, so `--continue` and /resume find them; a session already
 * listed keeps its id (the UI's task for it stays the same task) and adds this turn's tokens. The
 * UI's task list leaves a one-shot run out unless it was asked to be kept: `keep`, a run that
 * continued a session (--session, --resume, --continue), or a session the UI had listed already.
 */
async function recordInIndex(
  settings: Settings,
  agent: { sessionFile: string | null; session: { id: string; title?: string | undefined }; messages: unknown[] },
  prompt: string,
  usage: { prompt: number; completion: number },
  keep: boolean,
): Promise<void> {
  const file = agent.sessionFile;
  if (!file || agent.messages.length <= 1) return;
  const line = prompt.trim().split("\n", 1)[0] ?? "";
  await updateTaskIndex(settings.home, (entries) => {
    const existing = entries.find((e) => e.sessionFile === file);
    const entry = {
      id: existing?.id ?? agent.session.id,
      sessionFile: file,
      title:
        existing?.title ?? agent.session.title ?? (line.length > 48 ? `${line.slice(0, 47)}…` : line || "One-shot"),
      pinned: existing?.pinned ?? false,
      workspace: settings.workspace,
      updatedAt: new Date().toISOString(),
      usage: {
        prompt: (existing?.usage?.prompt ?? 0) + usage.prompt,
        completion: (existing?.usage?.completion ?? 0) + usage.completion,
      },
      ...(!keep && (existing?.oneShot ?? true) ? { oneShot: true } : {}),
    };
    return [entry, ...entries.filter((e) => e.sessionFile !== file)];
  }).catch((error: unknown) => log("warn", "task index not updated", error));
}

/** How long a one-shot run lets the end-of-turn memory distillation finish before it exits without it. */
const ONE_SHOT_MEMORY_WAIT_MS = 5_000;

/** How long a one-shot run waits for MCP servers to connect before its first request. */
const MCP_WAIT_MS = 15_000;

export async function runOneShot(
  settings: Settings,
  flags: Flags,
  prompt: string,
  io: OneShotIO,
  client?: ModelClient,
  sessionFile?: string,
): Promise<number> {
  setLockRole("run");
  // The openai SDK (every mode but Anthropic's, and any fallback) compiles while the turn is set up.
  if (!client && (settings.api !== "anthropic" || (settings.fallback?.length ?? 0) > 0)) preloadSdk();
  const mode = flags.values["stream-json"] ? "stream-json" : flags.values.json ? "json" : "text";
  const taskId = "main";
  const bus = new Bus({ onHandlerError: (error) => log("error", "bus handler threw", error) });
  const color = Boolean(io.stderr.isTTY) && io.env.NO_COLOR === undefined;
  // Observers (issue 32): the telemetry file and OpenTelemetry, each only when asked for.
  let observers: Observers;
  try {
    observers = await startObservers(settings, flags, io.env, taskId, (text) => io.stderr.write(`warn: ${text}\n`));
  } catch (error) {
    io.stderr.write(`nanohermes: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  if (observers.telemetry) {
    const { telemetry } = observers;
    bus.subscribe((event) => telemetry.onEvent(event));
    // A caller's trace (TRACEPARENT, as CI tools pass it) is continued by the turn.
    if (io.env.TRACEPARENT && !telemetry.continueTrace(taskId, io.env.TRACEPARENT))
      io.stderr.write("warn: TRACEPARENT is not a W3C traceparent; the turn starts its own trace\n");
  }
  if (observers.file) bus.subscribe(observers.file.write);
  try {
    return await oneShot(settings, flags, prompt, io, bus, { mode, taskId, color, observers }, client, sessionFile);
  } finally {
    await observers.close();
  }
}

async function oneShot(
  settings: Settings,
  flags: Flags,
  prompt: string,
  io: OneShotIO,
  bus: Bus,
  run: { mode: "text" | "json" | "stream-json"; taskId: string; color: boolean; observers: Observers },
  client?: ModelClient,
  sessionFile?: string,
): Promise<number> {
  const { mode, taskId, color, observers } = run;

  if (mode === "stream-json") {
    io.stdout.write(`${JSON.stringify(observerStarted(taskId, VERSION))}\n`);
    bus.subscribe((event) => io.stdout.write(`${JSON.stringify(event)}\n`));
    // Warnings (a sandbox that fell back to unsandboxed) also reach a human watching stderr.
    bus.subscribe((event: BusEvent) => {
      if (event.type === "notice" && event.level === "warn") io.stderr.write(`warn: ${event.text}\n`);
    });
  } else if (mode === "text") {
    const progress = flags.values.quiet !== true && (flags.values.verbose === true || Boolean(io.stderr.isTTY));
    bus.subscribe(
      createTextPrinter({
        stdout: io.stdout,
        stderr: io.stderr,
        progress,
        // A retry is said even to a stderr that is no terminal: a silent pause looks like a hang.
        retries: flags.values.quiet !== true,
        color,
        live: Boolean(io.stdout.isTTY),
      }),
    );
  } else {
    bus.subscribe((event: BusEvent) => {
      if (event.type === "notice" && event.level !== "info") io.stderr.write(`${event.level}: ${event.text}\n`);
      if (event.type === "model.waiting") io.stderr.write(`${waitingLine(event)}\n`);
      if (event.type === "model.retrying" && (flags.values.quiet !== true || event.delayMs >= LONG_RETRY_MS))
        io.stderr.write(`${retryLine(event)}\n`);
    });
  }

  if (settings.untrustedKeys.length > 0) {
    io.stderr.write(
      `warning: ignoring ${settings.untrustedKeys.join(", ")} from ${settings.workspace}/.nanohermes/config.json: this workspace is not trusted (pass --trust, or trust it once in the UI)\n`,
    );
  }
  // --session, --resume and --continue are resolved by the caller; tests pass --session only.
  const sessionFlag = sessionFile ?? flags.values.session;
  const extensions = await loadExtensions(settings, { emit: (event) => bus.emit(event), env: io.env });
  for (const problem of extensions.problems) io.stderr.write(`warning: ${problem}\n`);
  // No one can watch tools arrive here: give the servers their first try before the first request.
  if (extensions.mcp) await extensions.mcp.settled(MCP_WAIT_MS);
  let agent: Agent;
  try {
    agent = await createAgent({
      extensions,
      settings,
      taskId,
      emit: (event) => bus.emit(event),
      ...(observers.telemetry ? { traceparent: traceparentOf(observers.telemetry, taskId) } : {}),
      ...(typeof sessionFlag === "string" ? { sessionFile: resolve(io.cwd, sessionFlag) } : {}),
      ...(client ? { client } : {}),
    });
  } catch (error) {
    // Busy (another run holds the session) or not writable at all: no turn is worth running.
    if (!(error instanceof SessionBusyError || error instanceof SessionUnwritableError)) throw error;
    const busy = error instanceof SessionBusyError;
    const text = busy ? error.message : `cannot save the session: ${error.message}`;
    if (mode === "json")
      io.stdout.write(
        `${JSON.stringify({ response: "", reason: busy ? "session_busy" : "save_failed", error: text })}\n`,
      );
    io.stderr.write(`nanohermes: ${text}\n`);
    await extensions.close();
    return EXIT_FAILED;
  }
  const state: { signalled: TerminationSignal | null } = { signalled: null };
  return withTermination(
    (signal) => {
      state.signalled = signal;
      if (mode !== "stream-json")
        io.stderr.write(`\n${signal}: stopping the turn, killing its commands and saving the session\n`);
      agent.stop({ force: true });
      agent.hurryClose();
    },
    () =>
      runTurn(agent, { settings, prompt, flags, mode, io, extensions, state, keep: typeof sessionFlag === "string" }),
  );
}

/** The turn, its output and the run's exit code; a SIGTERM or SIGHUP on the way gives 128 + signal. */
async function runTurn(
  agent: Agent,
  run: {
    settings: Settings;
    prompt: string;
    flags: Flags;
    mode: "text" | "json" | "stream-json";
    io: OneShotIO;
    extensions: Extensions;
    state: { signalled: TerminationSignal | null };
    keep: boolean;
  },
): Promise<number> {
  const { settings, prompt, flags, mode, io, extensions, state } = run;
  const images = (flags.values.image as string[] | undefined) ?? [];
  const { buildPrompt } = await import("../agent/images.js");
  const built = await buildPrompt(prompt, images, io.cwd);
  if (built.errors.length > 0) {
    for (const error of built.errors) io.stderr.write(`nanohermes: image refused: ${error}\n`);
    await agent.close();
    await extensions.close();
    return EXIT_USAGE;
  }
  // Titled like a UI task, so search hits and the task list show the prompt, not a memory block.
  if (!agent.session.title) {
    const line = prompt.trim().split("\n", 1)[0] ?? "";
    agent.session.title = line.length > 48 ? `${line.slice(0, 47)}…` : line;
  }
  let interrupts = 0;
  const result = await withSigint(
    () => {
      interrupts++;
      if (interrupts === 1) {
        if (mode !== "stream-json")
          io.stderr.write("\nstopping after this step (Ctrl-C again to kill running commands)\n");
        agent.stop();
      } else {
        agent.stop({ force: true });
      }
    },
    () => agent.run(built.content),
  );

  if (mode === "json") {
    const body = {
      response: result.response,
      session: agent.session.id,
      sessionFile: agent.sessionFile,
      // A turn whose record was lost did not complete as far as the caller can tell.
      reason: result.saveError && result.reason === "completed" ? "save_failed" : result.reason,
      ...(result.error ? { error: result.error } : {}),
      ...(result.saveError ? { saveError: result.saveError } : {}),
      ...(result.warning ? { warning: result.warning } : {}),
      model: agent.model,
      steps: result.steps,
      usage: {
        prompt: result.usage.prompt,
        completion: result.usage.completion,
        total: result.usage.prompt + result.usage.completion,
        cachedPrompt: result.usage.cachedPrompt ?? 0,
        ...(result.usage.cacheWrite ? { cacheWrite: result.usage.cacheWrite } : {}),
        reasoning: result.usage.reasoning ?? 0,
      },
      // List prices (src/agent/providers/models.ts, config "models"); "unknown" when a model has none.
      costUsd: reportedCost(result.usage),
    };
    io.stdout.write(`${JSON.stringify(body)}\n`);
  }
  // A slow or hung distillation must not hold the exit long after the answer was printed.
  await agent.close({ memoryWaitMs: ONE_SHOT_MEMORY_WAIT_MS });
  await extensions.close();
  await recordInIndex(settings, agent, prompt, result.usage, run.keep);
  await tellMissedRuns(settings.home, io);
  if (result.saveError) io.stderr.write(`nanohermes: ${result.saveError}\n`);
  if (state.signalled) return signalExitCode(state.signalled);
  if (result.reason === "interrupted") return EXIT_INTERRUPTED;
  if (result.saveError) return EXIT_FAILED;
  if (result.reason === "error" || result.reason === "max_iterations") {
    io.stderr.write(`nanohermes: ${result.error ?? result.reason}\n`);
    return EXIT_FAILED;
  }
  return EXIT_OK;
}

/**
 * Scheduled runs missed with no daemon, told once on stderr after the turn (each missed instant
 * once, so a script calling -p in a loop hears of it once). Only where a ledger exists
 * (~/.nanohermes/cron.db, src/cron/store.ts): without one, nothing loads.
 */
async function tellMissedRuns(home: string, io: OneShotIO): Promise<void> {
  if (!existsSync(join(home, "cron.db"))) return;
  try {
    const line = await (await import("../cron/status.js")).missedOnce(home);
    if (line) io.stderr.write(`nanohermes: ${line}\n`);
  } catch (error) {
    log("warn", "reading the cron ledger", error);
  }
}

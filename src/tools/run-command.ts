// run_command: a shell command in the workspace, in its own process group, with bounded output,
// live output events, a timeout and a stop that kills the whole group; or a background job.
import { StringDecoder } from "node:string_decoder";
import { defineTool, ToolError, type ToolContext } from "./define.js";
import { BoundedOutput } from "./bounded-output.js";
import { jobsOf, type Job } from "./background.js";
import { commandEnv, onExitDrained, sandboxPrefix, SHELL, spawnGroup, stopGroup } from "./process-group.js";
import { changedInstructions, instructionChangeNotice, instructionState } from "../config/instruction-changes.js";
import { beginGuard } from "./protect-guard.js";

import { DEFAULT_TIMEOUT_MS, runCommandSpec } from "./specs/run-command.js";

export { commandEnv, sandboxPrefix } from "./process-group.js";
export { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from "./specs/run-command.js";

/** Per stream, while reading: the first 64 KB and the last 192 KB are kept. */
export const STREAM_CAP_BYTES = 256 * 1024;
const LIVE_INTERVAL_MS = 50;
const LIVE_CHUNK_CAP = 8 * 1024;

export interface CommandResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Bytes the program wrote to stdout, kept or not. */
  stdoutBytes: number;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
}

export interface RunOptions {
  cwd: string;
  /** Programs placed before `bash -c COMMAND` (the sandbox helper and its arguments). */
  prefix?: string[];
  timeoutMs: number;
  signal: AbortSignal;
  onOutput?: (stream: "stdout" | "stderr", chunk: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** Coalesces live output so a chatty command yields a few events per second, each bounded. */
class LiveOutput {
  private pending = "";
  private timer: NodeJS.Timeout | null = null;
  constructor(
    private readonly stream: "stdout" | "stderr",
    private readonly sink: ((stream: "stdout" | "stderr", chunk: string) => void) | undefined,
  ) {}
  push(text: string): void {
    if (!this.sink) return;
    this.pending += text;
    if (this.pending.length > LIVE_CHUNK_CAP * 2) this.pending = this.pending.slice(-LIVE_CHUNK_CAP);
    this.timer ??= setTimeout(() => this.flush(), LIVE_INTERVAL_MS);
  }
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.sink || this.pending === "") return;
    const chunk = this.pending.length > LIVE_CHUNK_CAP ? this.pending.slice(-LIVE_CHUNK_CAP) : this.pending;
    this.pending = "";
    this.sink(this.stream, chunk);
  }
}

/**
 * Contract: resolves (never rejects) once the program exited and its pipes drained; a stop or a
 * timeout stops the whole process group (TERM, then KILL after 2 s). `argv` runs without a shell.
 */
export function runProcess(argv: string[], options: Omit<RunOptions, "prefix">): Promise<CommandResult> {
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const child = spawnGroup(argv, { cwd: options.cwd, env: options.env ?? commandEnv() });
    const out = { stdout: new BoundedOutput(STREAM_CAP_BYTES), stderr: new BoundedOutput(STREAM_CAP_BYTES) };
    const live = {
      stdout: new LiveOutput("stdout", options.onOutput),
      stderr: new LiveOutput("stderr", options.onOutput),
    };
    let timedOut = false;
    let aborted = false;
    let stopping = false;
    let done = false;

    const stop = () => {
      if (stopping) return;
      stopping = true;
      void stopGroup(child.pid);
    };
    const timeout = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener("abort", onAbort, { once: true });

    for (const name of ["stdout", "stderr"] as const) {
      const decoder = new StringDecoder("utf8");
      child[name].on("data", (chunk: Buffer) => {
        out[name].push(chunk);
        live[name].push(decoder.write(chunk));
      });
      child[name].on("error", () => {});
    }

    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (done) return;
      done = true;
      clearTimeout(timeout);
      options.signal.removeEventListener("abort", onAbort);
      live.stdout.flush();
      live.stderr.flush();
      resolvePromise({
        exitCode,
        signal,
        stdout: out.stdout.text(),
        stderr: out.stderr.text(),
        stdoutBytes: out.stdout.totalBytes,
        timedOut,
        aborted,
        durationMs: Math.round(performance.now() - started),
      });
    };

    child.on("error", (error) => {
      out.stderr.push(Buffer.from(`failed to start ${argv[0]}: ${error.message}\n`));
      finish(null, null);
    });
    onExitDrained(child, finish);
  });
}

/** `bash -c command` behind the sandbox prefix; see `runProcess`. */
export function runShell(command: string, options: RunOptions): Promise<CommandResult> {
  const { prefix = [], ...rest } = options;
  return runProcess([...prefix, SHELL, "-c", command], rest);
}

/** The command as the model or the user gave it (the policy may run a rewritten form). */
function asked(command: string, ctx: ToolContext): string {
  const typed = ctx.asAsked?.command;
  return typeof typed === "string" ? typed : command;
}

export function formatCommandResult(command: string, r: CommandResult): string {
  const secs = (r.durationMs / 1000).toFixed(1);
  let status: string;
  if (r.aborted) status = `[interrupted] stopped by the user after ${secs} s`;
  else if (r.timedOut) status = `timed out after ${secs} s; the process group was killed`;
  else if (r.exitCode !== null) status = `exit code ${r.exitCode} (${secs} s)`;
  else status = `killed by ${r.signal ?? "a signal"} (${secs} s)`;
  const parts = [`$ ${command}`, status];
  if (r.stdout) parts.push(`--- stdout ---\n${r.stdout.replace(/\n$/, "")}`);
  if (r.stderr) parts.push(`--- stderr ---\n${r.stderr.replace(/\n$/, "")}`);
  if (!r.stdout && !r.stderr) parts.push("(no output)");
  return parts.join("\n");
}

export const runCommandTool = defineTool({
  ...runCommandSpec,
  async run(args, ctx) {
    if (args.command.includes("\0"))
      throw new ToolError("the command contains a NUL byte, which no program can receive");
    const network = args.network === true;
    if (args.background) return startInBackground(args.command, args.timeout_ms, network, ctx);
    const prefix = await sandboxPrefix(ctx, { network });
    const guard = beginGuard(ctx, prefix);
    const instructions = watchInstructions(ctx);
    const result = await runShell(args.command, {
      cwd: ctx.workspace,
      prefix,
      timeoutMs: args.timeout_ms ?? DEFAULT_TIMEOUT_MS,
      signal: ctx.signal,
      onOutput: (stream, chunk) => ctx.output(stream, chunk),
    });
    const reverted = guard?.() ?? null;
    const told = instructions?.() ?? null;
    const notice = joinNotices(reverted, told);
    const display = result.aborted
      ? "interrupted"
      : result.timedOut
        ? `timed out after ${(result.durationMs / 1000).toFixed(1)} s`
        : `exit ${result.exitCode ?? result.signal} in ${(result.durationMs / 1000).toFixed(1)} s`;
    if (notice) ctx.output("stderr", `\n${notice}\n`);
    return {
      forModel: formatCommandResult(asked(args.command, ctx), result) + (notice ? `\n${notice}` : ""),
      display: `${display}${reverted ? "; protected paths reverted" : ""}${told ? "; instruction files changed" : ""}`,
      isError: result.exitCode !== 0 || reverted !== null,
    };
  },
});

/**
 * Watches the instruction files around one command (not in read-only mode, where nothing changes):
 * the returned function gives the line for the model, and tells the engine, when they changed.
 */
function watchInstructions(ctx: ToolContext): (() => string | null) | null {
  if (ctx.sandbox?.mode === "read-only") return null;
  const before = instructionState(ctx.workspace);
  return () => {
    const after = instructionState(ctx.workspace);
    const changed = changedInstructions(before, after);
    if (changed.length === 0) return null;
    ctx.sandbox?.instructionsChanged?.(changed, after);
    return instructionChangeNotice(changed);
  };
}

const joinNotices = (a: string | null, b: string | null): string | null => (a && b ? `${a}\n${b}` : (a ?? b));

/** Starts a background job under the same sandbox, cwd and environment as a foreground command. */
async function startInBackground(command: string, timeoutMs: number | undefined, network: boolean, ctx: ToolContext) {
  const prefix = await sandboxPrefix(ctx, { waitOrphans: true, network });
  const guard = beginGuard(ctx, prefix);
  const instructions = watchInstructions(ctx);
  let job: Job;
  try {
    job = jobsOf(ctx).start(command, { cwd: ctx.workspace, prefix, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  } catch (error) {
    guard?.();
    throw error;
  }
  // The job's own output gets the notice, where task_output shows it.
  if (guard || instructions) {
    void job.finished.then(() => {
      const notice = joinNotices(guard?.() ?? null, instructions?.() ?? null);
      if (notice) job.log.append(Buffer.from(`\n${notice}\n`));
    });
  }
  const ref = JSON.stringify({ id: job.id });
  const limit = timeoutMs !== undefined ? `it is killed after ${timeoutMs} ms or ` : "it is killed ";
  return {
    forModel:
      `started ${job.id} in the background (pid ${job.pid ?? "?"}): ${command}\n` +
      `Read its output with task_output ${ref} (each call returns what is new), list jobs with task_list, ` +
      `stop it with task_kill ${ref}; ${limit}when the session ends.`,
    display: `started ${job.id} in the background`,
  };
}

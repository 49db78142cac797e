// run_command: a shell command in the workspace, in its own process group, with bounded output,
// live output events, a timeout and a stop that kills the whole group.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import * as z from "../protocol/zod.js";
import { secretEnvNames } from "../config/log.js";
import { defineTool, ToolError, type ToolContext } from "./define.js";
import { BoundedOutput } from "./bounded-output.js";

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
/** Per stream, while reading: the first 64 KB and the last 192 KB are kept. */
export const STREAM_CAP_BYTES = 256 * 1024;
const KILL_GRACE_MS = 2_000;
const DRAIN_MS = 150;
const LIVE_INTERVAL_MS = 50;
const LIVE_CHUNK_CAP = 8 * 1024;

const params = z.object({
  command: z.string().check(z.minLength(1), z.describe("Shell command (bash -c), run in the workspace directory.")),
  timeout_ms: z
    .optional(z.int().check(z.minimum(1), z.maximum(MAX_TIMEOUT_MS)))
    .check(z.describe(`Kill the command after this long (default ${DEFAULT_TIMEOUT_MS}).`)),
  background: z.optional(z.boolean()).check(z.describe("Run in the background and return an id at once (not available yet).")),
});

const shell = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";

export interface CommandResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
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

function killGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, sig);
  } catch {
    // The group is already gone.
  }
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
 * Contract: resolves (never rejects) once the shell exited and its pipes drained; a stop or a
 * timeout kills the whole process group (TERM, then KILL after 2 s).
 */
export function runShell(command: string, options: RunOptions): Promise<CommandResult> {
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const argv = [...(options.prefix ?? []), shell, "-c", command];
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: options.env ?? commandEnv(),
    });
    const out = { stdout: new BoundedOutput(STREAM_CAP_BYTES), stderr: new BoundedOutput(STREAM_CAP_BYTES) };
    const live = { stdout: new LiveOutput("stdout", options.onOutput), stderr: new LiveOutput("stderr", options.onOutput) };
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | null = null;
    let done = false;

    const stop = () => {
      killGroup(child.pid, "SIGTERM");
      killTimer ??= setTimeout(() => killGroup(child.pid, "SIGKILL"), KILL_GRACE_MS);
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
      if (killTimer) clearTimeout(killTimer);
      options.signal.removeEventListener("abort", onAbort);
      live.stdout.flush();
      live.stderr.flush();
      resolvePromise({
        exitCode,
        signal,
        stdout: out.stdout.text(),
        stderr: out.stderr.text(),
        timedOut,
        aborted,
        durationMs: Math.round(performance.now() - started),
      });
    };

    child.on("error", (error) => {
      out.stderr.push(Buffer.from(`failed to start ${shell}: ${error.message}\n`));
      finish(null, null);
    });
    child.on("exit", (code, signal) => {
      // A background grandchild may keep the pipes open forever: give them a moment, then stop reading.
      const drained = () => child.stdout.readableEnded && child.stderr.readableEnded;
      if (drained()) return finish(code, signal);
      let waited = 0;
      const poll = setInterval(() => {
        waited += 10;
        if (drained() || waited >= DRAIN_MS) {
          clearInterval(poll);
          child.stdout.destroy();
          child.stderr.destroy();
          finish(code, signal);
        }
      }, 10);
    });
  });
}

/**
 * The environment commands see: ours without the secrets NanoHermes holds (the API key variable,
 * the daemon token), with pagers and prompts that would hang a pipe turned off.
 */
export function commandEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0", NANOHERMES: "1" };
  for (const name of secretEnvNames()) delete env[name];
  return env;
}

/**
 * The sandbox helper's argv for this context, or none when the sandbox is off. A sandbox that was
 * asked for and cannot be applied refuses the command: it never runs unsandboxed.
 */
export function sandboxPrefix(ctx: ToolContext): string[] {
  const sandbox = ctx.sandbox;
  if (!sandbox || sandbox.mode === "off") return [];
  if (!sandbox.wrap) throw new ToolError(`sandbox ${sandbox.mode} refused: no sandbox launcher is configured`);
  const result = sandbox.wrap([]);
  if ("refused" in result) throw new ToolError(result.refused);
  return result.argv;
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
  name: "run_command",
  kind: "exec",
  description:
    "Run a shell command (bash -c) in the workspace directory and return its exit code, stdout and stderr. " +
    `Stdin is empty; commands time out after ${DEFAULT_TIMEOUT_MS / 1000} s unless timeout_ms is given (max ${MAX_TIMEOUT_MS / 1000} s). ` +
    "Long output keeps its start and end. Do not start interactive programs or servers that never exit.",
  params,
  truncate: "head-tail",
  moreHint: "Re-run with output redirected to a file and grep or read_file it.",
  summarize: (a) => a.command.split("\n", 1)[0]!.slice(0, 200),
  async run(args, ctx) {
    if (args.background) throw new ToolError("background commands are not available yet; run it in the foreground with a timeout");
    const prefix = sandboxPrefix(ctx);
    const result = await runShell(args.command, {
      cwd: ctx.workspace,
      prefix,
      timeoutMs: args.timeout_ms ?? DEFAULT_TIMEOUT_MS,
      signal: ctx.signal,
      onOutput: (stream, chunk) => ctx.output(stream, chunk),
    });
    const display = result.aborted
      ? "interrupted"
      : result.timedOut
        ? `timed out after ${(result.durationMs / 1000).toFixed(1)} s`
        : `exit ${result.exitCode ?? result.signal} in ${(result.durationMs / 1000).toFixed(1)} s`;
    return { forModel: formatCommandResult(args.command, result), display, isError: result.exitCode !== 0 };
  },
});

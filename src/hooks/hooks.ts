// Runs lifecycle hooks: each a `sh -c` command leading its own process group, fed the tool call as
// JSON on stdin, both pipes drained at once and capped, and the group stopped on timeout or abort.
import { spawn, type ChildProcess, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { BoundedOutput } from "../tools/bounded-output.js";
import { onExitDrained, stopGroup, type GroupChild } from "../tools/process-group.js";
import { hookMatches, type HookEvent, type HookSpec } from "../config/hooks.js";
import { launcherCwd, launcherPath, launcherProblem } from "../sandbox/launchers.js";

export {
  HOOK_TIMEOUT_MS,
  HooksConfigSchema,
  hookMatches,
  hookSpecs,
  type HookEvent,
  type HookSpec,
  type HooksConfig,
} from "../config/hooks.js";

/** Per stream: the first quarter and the last three quarters are kept, with a note of the cut. */
export const HOOK_OUTPUT_CAP = 16 * 1024;
/** Hooks are quick checks: a group that ignores SIGTERM gets SIGKILL after one second. */
const HOOK_KILL_GRACE_MS = 1_000;
/** Exit codes that are not the program's own. */
const EXIT_SIGNALLED = -1;
const EXIT_TIMED_OUT = -2;
const EXIT_NOT_STARTED = 127;
const SHELL = "/bin/sh";
const COMMAND_PREVIEW = 120;

/** What one hook did. */
export interface HookRun {
  event: HookEvent;
  command: string;
  /** The program's exit code; -1 when killed by a signal or an abort, -2 after our timeout, 127 when it did not start. */
  exitCode: number;
  /** Capped at HOOK_OUTPUT_CAP bytes, plus a note when cut. */
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
}

export interface RunHookOptions {
  /** The workspace root: NANOHERMES_WORKSPACE. The hook starts outside every writable root. */
  cwd: string;
  /** Where sandboxed commands can write (default: the workspace): no hook program may come from there. */
  roots?: string[];
  /** The base environment (pass `commandEnv()` to keep NanoHermes' secrets from hooks). */
  env: NodeJS.ProcessEnv;
  toolName: string;
  signal?: AbortSignal;
}

type HookChild = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * Contract: never rejects. Resolves once the hook exited and its pipes drained; after a timeout or
 * an abort, only once its whole process group is gone (or was sent SIGKILL). A hook that does not
 * read its stdin is fine: the broken pipe is ignored.
 */
export function runHook(spec: HookSpec, payload: Record<string, unknown>, opts: RunHookOptions): Promise<HookRun> {
  const started = performance.now();
  const run = (exitCode: number, stdout: string, stderr: string, timedOut: boolean): HookRun => ({
    event: spec.event,
    command: spec.command,
    exitCode,
    stdout,
    stderr,
    durationMs: Math.round(performance.now() - started),
    timedOut,
  });
  if (opts.signal?.aborted)
    return Promise.resolve(run(EXIT_SIGNALLED, "", "[interrupted before the hook started]", false));

  const roots = opts.roots ?? [opts.cwd];
  const refused = launcherProblem(spec.command, null, { workspace: opts.cwd, roots, env: opts.env });
  if (refused !== null)
    return Promise.resolve(run(EXIT_NOT_STARTED, "", `refused to start the hook: ${refused}`, false));
  let child: HookChild;
  try {
    child = spawn(SHELL, ["-c", spec.command], {
      cwd: launcherCwd(roots),
      env: {
        ...opts.env,
        PATH: launcherPath(opts.env.PATH, roots),
        NANOHERMES_TOOL_NAME: opts.toolName,
        NANOHERMES_HOOK_EVENT: spec.event,
        NANOHERMES_WORKSPACE: opts.cwd,
      },
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
  } catch (error) {
    // Synchronous refusals, e.g. a NUL byte in the command or the environment.
    return Promise.resolve(run(EXIT_NOT_STARTED, "", `failed to start the hook: ${errorMessage(error)}`, false));
  }

  return new Promise((resolve) => {
    const out = { stdout: new BoundedOutput(HOOK_OUTPUT_CAP), stderr: new BoundedOutput(HOOK_OUTPUT_CAP) };
    for (const name of ["stdout", "stderr"] as const) {
      // Both pipes flow at once: a hook filling one 64 KB pipe buffer must not stall the other.
      child[name].on("data", (chunk: Buffer) => out[name].push(chunk));
      child[name].on("error", () => {});
    }
    child.stdin.on("error", () => {}); // EPIPE: the hook exited without reading its payload
    child.stdin.end(encodePayload(payload));

    let timedOut = false;
    let aborted = false;
    let stopping: Promise<unknown> | undefined;
    let done = false;
    const stop = () => {
      stopping ??= stopGroup(child.pid, HOOK_KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, spec.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });

    const finish = (code: number | null, notStarted = false) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      const exitCode = notStarted
        ? EXIT_NOT_STARTED
        : timedOut
          ? EXIT_TIMED_OUT
          : aborted || code === null
            ? EXIT_SIGNALLED
            : code;
      const settle = () => resolve(run(exitCode, out.stdout.text(), out.stderr.text(), timedOut));
      if (stopping) void stopping.then(settle, settle);
      else settle();
    };
    child.on("error", (error) => {
      // Spawn failures (a missing cwd); 'exit' may or may not follow.
      out.stderr.push(Buffer.from(`failed to start the hook: ${error.message}\n`));
      finish(null, child.pid === undefined);
    });
    // onExitDrained reads only the exit event and the two output pipes, which both types share.
    onExitDrained(child as ChildProcess as GroupChild, (code) => finish(code));
  });
}

/** The payload as one line of JSON; a payload that cannot be encoded becomes an error object. */
function encodePayload(payload: Record<string, unknown>): string {
  try {
    return `${JSON.stringify(payload)}\n`;
  } catch (error) {
    return `${JSON.stringify({ tool: payload["tool"], event: payload["event"], error: `payload not encodable: ${errorMessage(error)}` })}\n`;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type PreHookOutcome = { blocked: false; runs: HookRun[] } | { blocked: true; message: string; runs: HookRun[] };

/**
 * The configured hooks of one session. Contract: hooks run one at a time in config order, started
 * outside every writable root (the workspace is in NANOHERMES_WORKSPACE); neither method rejects.
 */
export class HookRunner {
  private readonly specs: readonly HookSpec[];

  constructor(
    specs: HookSpec[],
    private readonly opts: { workspace: string; env: NodeJS.ProcessEnv; roots?: string[] },
  ) {
    this.specs = [...specs];
  }

  get size(): number {
    return this.specs.length;
  }

  /**
   * Runs matching PreToolUse hooks in config order; the first non-zero exit blocks the call and
   * later hooks do not run. `message` is for the model: which hook, why, and its output.
   */
  async pre(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<PreHookOutcome> {
    const runs: HookRun[] = [];
    for (const spec of this.matching("PreToolUse", tool)) {
      const run = await runHook(spec, { tool, event: "PreToolUse", arguments: args }, this.runOptions(tool, signal));
      runs.push(run);
      if (run.exitCode !== 0) {
        const message = `Blocked by a PreToolUse hook (${preview(spec.command)}): it ${describeExit(run, spec, signal)}.\n${combinedOutput(run)}`;
        return { blocked: true, message, runs };
      }
    }
    return { blocked: false, runs };
  }

  /**
   * Runs matching PostToolUse hooks in config order, all of them (stopping only on abort); every
   * non-zero exit adds an entry to `warning`, which is undefined when all passed.
   */
  async post(
    tool: string,
    args: Record<string, unknown>,
    result: { status: string; forModel: string },
    signal?: AbortSignal,
  ): Promise<{ warning?: string; runs: HookRun[] }> {
    const runs: HookRun[] = [];
    const warnings: string[] = [];
    for (const spec of this.matching("PostToolUse", tool)) {
      if (signal?.aborted) break;
      const payload = { tool, event: "PostToolUse", arguments: args, result: result.forModel, status: result.status };
      const run = await runHook(spec, payload, this.runOptions(tool, signal));
      runs.push(run);
      if (run.exitCode !== 0) {
        warnings.push(
          `PostToolUse hook (${preview(spec.command)}) ${describeExit(run, spec, signal)}:\n${combinedOutput(run)}`,
        );
      }
    }
    return warnings.length > 0 ? { warning: warnings.join("\n"), runs } : { runs };
  }

  private matching(event: HookEvent, tool: string): HookSpec[] {
    return this.specs.filter((spec) => spec.event === event && hookMatches(spec.matcher, tool));
  }

  private runOptions(tool: string, signal: AbortSignal | undefined): RunHookOptions {
    return {
      cwd: this.opts.workspace,
      env: this.opts.env,
      toolName: tool,
      ...(this.opts.roots ? { roots: this.opts.roots } : {}),
      ...(signal ? { signal } : {}),
    };
  }
}

function describeExit(run: HookRun, spec: HookSpec, signal: AbortSignal | undefined): string {
  if (run.timedOut) return `timed out after ${spec.timeoutMs / 1000} s and was killed`;
  if (run.exitCode === EXIT_SIGNALLED) return signal?.aborted ? "was interrupted" : "was killed by a signal";
  return `exited with code ${run.exitCode}`;
}

/** stdout then stderr, each trimmed, or a placeholder. */
function combinedOutput(run: HookRun): string {
  const parts = [run.stdout.trim(), run.stderr.trim()].filter((part) => part !== "");
  return parts.length > 0 ? parts.join("\n") : "(no output)";
}

/** The command's first line, shortened, in backticks. */
function preview(command: string): string {
  const trimmed = command.trim();
  const short = (trimmed.split("\n", 1)[0] ?? "").slice(0, COMMAND_PREVIEW);
  return `\`${short}${short === trimmed ? "" : " …"}\``;
}

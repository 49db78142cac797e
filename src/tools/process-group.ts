// Commands run as the leader of their own process group, and stopping means stopping the whole
// group. Shared by foreground commands, background jobs and the git tools.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { secretEnvNames } from "../config/log.js";
import { ToolError, type CommandOptions, type ToolContext } from "./define.js";

export const SHELL = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
/**
 * How long a group has between SIGTERM and SIGKILL. The sandbox helper kills what the command
 * left 1 s after its SIGTERM (REAPER_GRACE_MS in src/sandbox/native/reaper.h): keep this above,
 * or a SIGKILL of the helper would leave orphans in other sessions alive.
 */
export const KILL_GRACE_MS = 2_000;
/** How long pipes may stay open after the leader exited (a grandchild holding them). */
const DRAIN_MS = 150;
const POLL_MS = 50;

export type GroupChild = ChildProcessByStdio<null, Readable, Readable>;

/** Starts `argv` detached (so it leads a new process group) with empty stdin and piped output. */
export function spawnGroup(argv: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): GroupChild {
  return spawn(argv[0]!, argv.slice(1), {
    cwd: options.cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: options.env ?? commandEnv(),
  });
}

/** Sends `sig` to every process of the group; false when the group no longer exists. */
export function killGroup(pid: number | undefined, sig: NodeJS.Signals): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    return false;
  }
}

/**
 * True while a process of the group is alive. Zombies do not count: where PID 1 does not reap
 * orphans (containers) they keep the group id "in use" forever, so `kill(-pgid, 0)` alone lies.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return true; // no /proc: trust kill(0)
  }
  return pids.some((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // After the command name: state, ppid, pgrp.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return Number(pgrp) === pgid && state !== "Z";
    } catch {
      return false;
    }
  });
}

/**
 * Contract: stops the whole group: SIGTERM now, SIGKILL once `graceMs` passed with any process of
 * the group still alive. Exiting of the leader does not cancel the SIGKILL: a child that ignores
 * SIGTERM would outlive it. Resolves with the last signal sent, or null when the group was gone.
 */
export function stopGroup(pid: number | undefined, graceMs = KILL_GRACE_MS): Promise<"SIGTERM" | "SIGKILL" | null> {
  if (pid === undefined || !killGroup(pid, "SIGTERM")) return Promise.resolve(null);
  const started = performance.now();
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      if (!groupAlive(pid)) {
        clearInterval(poll);
        resolve("SIGTERM");
      } else if (performance.now() - started >= graceMs) {
        clearInterval(poll);
        killGroup(pid, "SIGKILL");
        resolve("SIGKILL");
      }
    }, POLL_MS);
  });
}

/**
 * Calls `done` once the leader exited and both pipes ended; when a grandchild keeps them open,
 * stops reading them shortly after the exit instead of waiting for it forever.
 */
export function onExitDrained(
  child: GroupChild,
  done: (code: number | null, signal: NodeJS.Signals | null) => void,
): void {
  child.on("exit", (code, signal) => {
    const drained = () => child.stdout.readableEnded && child.stderr.readableEnded;
    if (drained()) return done(code, signal);
    let waited = 0;
    const poll = setInterval(() => {
      waited += 10;
      if (drained() || waited >= DRAIN_MS) {
        clearInterval(poll);
        child.stdout.destroy();
        child.stderr.destroy();
        done(code, signal);
      }
    }, 10);
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
 * The sandbox helper's argv for this context: the Landlock sandbox, or with the sandbox off the
 * helper's reap-only mode (none when there is no helper). A sandbox that was asked for and cannot
 * be applied refuses the command: it never runs unsandboxed. `waitOrphans` (background jobs) keeps
 * the helper waiting for what the command leaves behind instead of killing it at once.
 */
export async function sandboxPrefix(ctx: ToolContext, options: CommandOptions = {}): Promise<string[]> {
  const sandbox = ctx.sandbox;
  if (!sandbox) return [];
  if (!sandbox.wrap) {
    if (sandbox.mode === "off") return [];
    throw new ToolError(`sandbox ${sandbox.mode} refused: no sandbox launcher is configured`);
  }
  const result = await sandbox.wrap([], options);
  if ("refused" in result) throw new ToolError(result.refused);
  return result.argv;
}

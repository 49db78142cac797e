// Reads the tmux NanoHermes runs inside (version and the options that decide whether copy,
// notifications, modified keys and Esc work) and turns them into exact tmux.conf lines.
import { execFile } from "node:child_process";

type Env = Record<string, string | undefined>;

export interface TmuxOptions {
  /** "on" | "external" | "off"; only "on" accepts OSC 52 from programs. */
  setClipboard?: string;
  /** "on" | "all" | "off"; tmux 3.3+, earlier versions always pass DCS through. */
  allowPassthrough?: string;
  /** "on" | "always" | "off"; tmux 3.2+. */
  extendedKeys?: string;
  /** Milliseconds tmux waits after Esc to see whether a key sequence follows. */
  escapeTime?: number;
}

export interface TmuxInfo {
  /** TMUX is set in the environment. */
  inside: boolean;
  /** `tmux -V` output, e.g. "tmux 3.3a". */
  version?: string;
  options: TmuxOptions;
  /** Why something could not be read (tmux missing, no answer, unknown option); never thrown. */
  problems: string[];
}

export interface TmuxRecommendation {
  line: string;
  reason: string;
}

/** Runs a command; resolves with stdout or rejects. Injected in tests. */
export type RunFile = (file: string, args: string[], options: { env: Env; timeoutMs: number }) => Promise<string>;

const runFile: RunFile = (file, args, { env, timeoutMs }) =>
  new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { env: env as NodeJS.ProcessEnv, timeout: timeoutMs, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error) {
          const e = error as NodeJS.ErrnoException & { killed?: boolean };
          if (e.code === "ENOENT") reject(new Error("tmux is not on PATH"));
          else if (e.killed) reject(new Error(`tmux did not answer within ${timeoutMs} ms`));
          else reject(new Error(stderr.trim() || error.message));
          return;
        }
        resolve(stdout);
      },
    );
  });

/** [major, minor] from "tmux 3.3a", "tmux next-3.5", "tmux 3.4-rc"; undefined for "tmux master". */
export function parseTmuxVersion(version: string | undefined): [number, number] | undefined {
  const m = /(\d+)\.(\d+)/.exec(version ?? "");
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** Unknown versions count as new: a build from master has every option. */
export function tmuxAtLeast(version: string | undefined, major: number, minor: number): boolean {
  const v = parseTmuxVersion(version);
  if (!v) return true;
  return v[0] > major || (v[0] === major && v[1] >= minor);
}

const optionNames = {
  setClipboard: "set-clipboard",
  allowPassthrough: "allow-passthrough",
  extendedKeys: "extended-keys",
  escapeTime: "escape-time",
} as const;

/**
 * Asks the tmux server named by $TMUX (the client finds its socket there). Outside tmux nothing
 * is run. `show-options -gv` finds server, session and window options by name alike.
 */
export async function readTmux({
  env,
  timeoutMs = 1000,
  run = runFile,
}: {
  env: Env;
  timeoutMs?: number;
  run?: RunFile;
}): Promise<TmuxInfo> {
  const info: TmuxInfo = { inside: Boolean(env.TMUX), options: {}, problems: [] };
  if (!info.inside) return info;
  const ask = async (args: string[]): Promise<string | undefined> => {
    try {
      return (await run("tmux", args, { env, timeoutMs })).trim();
    } catch (error) {
      const message = (error as Error).message;
      if (!info.problems.includes(message)) info.problems.push(message);
      return undefined;
    }
  };
  const [version, ...values] = await Promise.all([
    ask(["-V"]),
    ...Object.values(optionNames).map((name) => ask(["show-options", "-gv", name])),
  ]);
  if (version !== undefined) info.version = version;
  const [setClipboard, allowPassthrough, extendedKeys, escapeTime] = values;
  if (setClipboard) info.options.setClipboard = setClipboard;
  if (allowPassthrough) info.options.allowPassthrough = allowPassthrough;
  if (extendedKeys) info.options.extendedKeys = extendedKeys;
  if (escapeTime && /^\d+$/.test(escapeTime)) info.options.escapeTime = Number(escapeTime);
  return info;
}

/** Passthrough is always on before 3.3; from 3.3 only with allow-passthrough on/all. */
export function passthroughAllowed(info: TmuxInfo): boolean | undefined {
  if (!tmuxAtLeast(info.version, 3, 3)) return true;
  const v = info.options.allowPassthrough;
  return v === undefined ? undefined : v === "on" || v === "all";
}

/** How a copy should travel: plain OSC 52 for tmux to forward, wrapped for passthrough, or not at all. */
export interface ClipboardRoute {
  /** undefined: tmux's settings could not be read. */
  works: boolean | undefined;
  /** Pass `{ tmux: wrap }` to osc52(). */
  wrap: boolean;
  why: string;
}

export function clipboardRoute(info: TmuxInfo): ClipboardRoute {
  if (!info.inside) return { works: true, wrap: false, why: "not inside tmux: sent straight to the terminal" };
  // set-clipboard on: tmux keeps the text as a paste buffer too and forwards it to the terminal.
  if (info.options.setClipboard === "on")
    return { works: true, wrap: false, why: "tmux set-clipboard is on: tmux forwards it" };
  const pass = passthroughAllowed(info);
  if (pass === true) return { works: true, wrap: true, why: "tmux passthrough is allowed: sent wrapped" };
  if (pass === undefined)
    return { works: undefined, wrap: true, why: "tmux settings unknown: sent wrapped for passthrough" };
  return {
    works: false,
    wrap: true,
    why: `tmux drops it: set-clipboard is ${info.options.setClipboard ?? "unknown"} and allow-passthrough is ${info.options.allowPassthrough ?? "unknown"}`,
  };
}

/** The tmux.conf lines that would help, each with a one-line reason; none outside tmux. */
export function tmuxRecommendations(info: TmuxInfo): TmuxRecommendation[] {
  if (!info.inside) return [];
  const out: TmuxRecommendation[] = [];
  const o = info.options;
  if (o.setClipboard !== undefined && o.setClipboard !== "on") {
    out.push({
      line: "set -g set-clipboard on",
      reason: `lets programs copy to your clipboard with OSC 52 (now "${o.setClipboard}", which ignores them)`,
    });
  }
  if (tmuxAtLeast(info.version, 3, 3) && o.allowPassthrough === "off") {
    out.push({
      line: "set -g allow-passthrough on",
      reason: "lets wrapped sequences (desktop notifications, copy) through to your terminal",
    });
  }
  if (tmuxAtLeast(info.version, 3, 2) && o.extendedKeys === "off") {
    out.push({
      line: "set -s extended-keys on",
      reason: "passes keys like Shift+Enter and Ctrl+Enter to programs instead of plain Enter",
    });
  }
  if (o.escapeTime !== undefined && o.escapeTime > 50) {
    out.push({
      line: "set -sg escape-time 10",
      reason: `Esc now waits ${o.escapeTime} ms before it reaches programs; 10 ms is the usual choice`,
    });
  }
  return out;
}

// The one-line bars: the title bar (brand, model, workspace, mode, sandbox, policy, tokens,
// the approval inbox) and the task bar above the transcript. Pure: state in, one styled line out.
import type { TaskSnapshot, TaskStatus } from "../../protocol/events.js";
import { padToWidth, truncateToWidth, visibleWidth } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";

export const statusGlyph: Record<TaskStatus, string> = {
  idle: "○",
  running: "●",
  waiting: "!",
  failed: "✗",
  done: "✓",
};
export const statusGlyphAscii: Record<TaskStatus, string> = {
  idle: "o",
  running: "*",
  waiting: "!",
  failed: "x",
  done: "+",
};

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 100_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

export function statusPaint(p: Palette, status: TaskStatus): (s: string) => string {
  return {
    idle: p.statusIdle,
    running: p.statusRunning,
    waiting: p.statusWaiting,
    failed: p.statusFailed,
    done: p.statusDone,
  }[status];
}

/** A segment of a one-line bar; `shorter` forms replace its text when the line is too wide. */
export interface Segment {
  text: string;
  priority: number;
  /** Each form is taken when no step of lower priority is left (a form's priority is below the segment's). */
  shorter?: { text: string; priority: number }[];
}

/**
 * Joins segments left to right. While they do not fit, the lowest-priority step is taken: a
 * segment's next shorter form, or dropping a segment (never the last one).
 */
export function fit(segments: Segment[], width: number, sep: string): string {
  const kept = segments.map((s) => ({ ...s, on: true }));
  const total = () =>
    kept.filter((s) => s.on).reduce((n, s, i) => n + visibleWidth(s.text) + (i ? visibleWidth(sep) : 0), 0);
  const steps = kept.flatMap((s) => [
    ...(s.shorter ?? []).map((f) => ({ priority: f.priority, take: () => void (s.text = f.text) })),
    { priority: s.priority, take: () => void (s.on = kept.filter((k) => k.on).length === 1) },
  ]);
  steps.sort((a, b) => a.priority - b.priority);
  for (const step of steps) {
    if (total() <= width) break;
    step.take();
  }
  return truncateToWidth(
    kept
      .filter((s) => s.on)
      .map((s) => s.text)
      .join(sep),
    width,
  );
}

export interface TitleInfo {
  workspace: string;
  sandbox: string;
  totals: { prompt: number; completion: number };
  pendingApprovals: number;
  /** MCP servers by state; absent or empty when none are configured. */
  mcp?: { state: string }[];
  /** Scheduled runs: missed ones while no daemon runs, else the inbox's unread refusals. */
  cron?: { daemon: boolean; missed: number; more: boolean; inbox: number } | null;
}

/**
 * Runs missed with no daemon (how to start one, while there is room), or the unread inbox of a
 * running daemon's scheduled runs; null when there is nothing to say.
 */
function cronSegment(p: Palette, cron: TitleInfo["cron"]): Segment | null {
  if (!cron) return null;
  if (!cron.daemon && cron.missed > 0) {
    const n = `${cron.missed}${cron.more ? "+" : ""}`;
    return {
      text: p.warning(`${n} cron run${n === "1" ? "" : "s"} missed: start nanohermes --daemon`),
      shorter: [{ text: p.warning(`cron ${n} missed`), priority: 72 }],
      priority: 90,
    };
  }
  if (cron.daemon && cron.inbox > 0)
    return {
      text: p.statusWaiting(`cron inbox ${cron.inbox}`),
      shorter: [{ text: p.statusWaiting(`inbox ${cron.inbox}`), priority: 52 }],
      priority: 85,
    };
  return null;
}

/** `mcp 2/3`: ready of configured; a warning while some connect, an error when one failed. */
function mcpSegment(p: Palette, servers: { state: string }[]): string {
  const ready = servers.filter((s) => s.state === "ready").length;
  const failed = servers.some((s) => s.state === "failed");
  const text = `mcp ${ready}/${servers.length}${failed ? " failed" : ready < servers.length ? "…" : ""}`;
  return failed ? p.error(text) : ready < servers.length ? p.warning(text) : p.dim(text);
}

export function titleBar(p: Palette, task: TaskSnapshot | null, info: TitleInfo, width: number): string {
  const home = process.env.HOME;
  const where = home && info.workspace.startsWith(home) ? `~${info.workspace.slice(home.length)}` : info.workspace;
  const tokens = info.totals.prompt + info.totals.completion;
  // A remote task runs under the daemon's sandbox, in the daemon's workspace: neither is shown here.
  const remote = task?.location === "remote";
  const sandbox = remote
    ? p.info("⇄ remote")
    : /unsandboxed|unavailable/.test(info.sandbox)
      ? p.warning(info.sandbox)
      : p.dim(info.sandbox);
  const cron = cronSegment(p, info.cron);
  const segments: Segment[] = [
    { text: p.title("NanoHermes"), priority: 100 },
    ...(info.pendingApprovals
      ? [
          {
            text: p.statusWaiting(`! ${info.pendingApprovals} approval${info.pendingApprovals === 1 ? "" : "s"}`),
            priority: 95,
          },
        ]
      : []),
    ...(cron ? [cron] : []),
    ...(task ? [{ text: p.accent(task.model), priority: 80 }] : []),
    ...(task
      ? [{ text: task.mode === "default" ? p.dim("mode default") : p.warning(`mode ${task.mode}`), priority: 70 }]
      : []),
    { text: sandbox, priority: 60 },
    ...(info.mcp?.length
      ? [{ text: mcpSegment(p, info.mcp), priority: info.mcp.some((s) => s.state === "failed") ? 75 : 55 }]
      : []),
    ...(task ? [{ text: p.dim(`policy ${task.approval}`), priority: 50 }] : []),
    { text: p.dim(`${formatTokens(tokens)} tok`), priority: 40 },
    ...(remote ? [] : [{ text: p.dim(where), priority: 30 }]),
  ];
  return padToWidth(fit(segments, width, p.dim(" · ")), width);
}

export interface TaskBarInfo {
  running: boolean;
  stopping: boolean;
  elapsedMs: number | null;
  /** How long the open model request has sent nothing (model.waiting), when it has. */
  waitingMs?: number | null;
  /** The subagent board in one segment (view/agent-board.ts agentSummary), when the task has any. */
  agents?: { long: string; short: string } | null;
}

export function taskBar(
  p: Palette,
  task: TaskSnapshot | null,
  info: TaskBarInfo,
  width: number,
  ascii = false,
): string {
  if (!task) return padToWidth(p.dim("no task"), width);
  const glyph = (ascii ? statusGlyphAscii : statusGlyph)[task.status];
  const state = info.stopping
    ? p.warning("stopping after this step")
    : task.status === "waiting"
      ? p.statusWaiting("waiting for approval")
      : task.status;
  const segments = [
    { text: statusPaint(p, task.status)(glyph) + " " + p.title(task.title), priority: 100 },
    {
      text: typeof state === "string" && state === task.status ? statusPaint(p, task.status)(state) : state,
      // The long words give way before the subagent counts do.
      ...(info.stopping
        ? { shorter: [{ text: p.warning("stopping"), priority: 65 }] }
        : task.status === "waiting"
          ? { shorter: [{ text: p.statusWaiting("waiting"), priority: 65 }] }
          : {}),
      priority: 90,
    },
    // Counts by glyph before the tokens go, without the word before the elapsed time goes.
    ...(info.agents
      ? [
          {
            text: `${p.dim("agents")} ${info.agents.long}`,
            shorter: [
              { text: `${p.dim("agents")} ${info.agents.short}`, priority: 45 },
              { text: info.agents.short, priority: 55 },
            ],
            priority: 70,
          },
        ]
      : []),
    ...(info.running && info.waitingMs != null
      ? [
          {
            text: p.warning(`waiting for the model ${formatDuration(info.waitingMs)}`),
            shorter: [{ text: p.warning(`model ${formatDuration(info.waitingMs)}`), priority: 62 }],
            priority: 80,
          },
        ]
      : []),
    ...(info.running && info.elapsedMs !== null ? [{ text: p.dim(formatDuration(info.elapsedMs)), priority: 60 }] : []),
    { text: p.dim(`${formatTokens(task.usage.prompt + task.usage.completion)} tok`), priority: 50 },
  ];
  return padToWidth(fit(segments, width, p.dim(" · ")), width);
}

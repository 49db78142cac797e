// Lines of the live subagent board (the results pane's Agents tab) and its summary for the task
// bar. Pure: rows, the time and a width in; styled lines never wider than the width out.
import { padToWidth, truncateToWidth, visibleWidth } from "../render/wrap.js";
import type { AgentRow } from "../state/transcript.js";
import type { Palette } from "../theme/palette.js";
import { formatDuration, formatTokens } from "./chrome.js";

export type AgentStatus = AgentRow["status"];

/** The order counts are listed in: what needs you or runs first. */
const summaryOrder: AgentStatus[] = ["running", "waiting", "queued", "done", "failed", "stopped"];

export const agentGlyph: Record<AgentStatus, string> = {
  queued: "○",
  running: "●",
  waiting: "!",
  done: "✓",
  failed: "✗",
  stopped: "■",
};
export const agentGlyphAscii: Record<AgentStatus, string> = {
  queued: "o",
  running: "*",
  waiting: "!",
  done: "+",
  failed: "x",
  stopped: "-",
};
export const agentLabel: Record<AgentStatus, string> = {
  queued: "queued",
  running: "running",
  waiting: "needs approval",
  done: "done",
  failed: "failed",
  stopped: "stopped",
};

/** A running child that has neither streamed nor called a tool for this long is flagged as silent. */
export const SILENT_AFTER_MS = 60_000;

export function agentPaint(p: Palette, status: AgentStatus): (s: string) => string {
  return {
    queued: p.statusIdle,
    running: p.statusRunning,
    waiting: p.statusWaiting,
    done: p.statusDone,
    failed: p.statusFailed,
    stopped: p.warning,
  }[status];
}

export const isActive = (row: AgentRow): boolean => row.status === "running" || row.status === "waiting";

/** Running time: ticking while it runs, the final time once ended, none while queued. */
export function agentElapsed(row: AgentRow, now: number): number | null {
  if (row.status === "queued") return null;
  if (row.endedAt === null && row.startedAt !== null) return Math.max(0, now - Date.parse(row.startedAt));
  return row.durationMs > 0 ? row.durationMs : null;
}

/**
 * The running time as the board shows it: whole seconds while it ticks; once ended, under ten
 * seconds with a tenth (a child done in 0.4 s read "0s", as if it had never run).
 */
export function agentElapsedText(row: AgentRow, now: number): string | null {
  const ms = agentElapsed(row, now);
  if (ms === null) return null;
  const ended = row.endedAt !== null || row.startedAt === null;
  return ended && ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : formatDuration(ms);
}

/** How long a running child has been quiet, once that is more than SILENT_AFTER_MS. */
export function silentFor(row: AgentRow, now: number): number | null {
  if (row.status !== "running") return null;
  const quiet = now - Date.parse(row.lastActivityAt);
  return quiet >= SILENT_AFTER_MS ? quiet : null;
}

export function agentCounts(rows: readonly AgentRow[]): Record<AgentStatus, number> {
  const counts: Record<AgentStatus, number> = { queued: 0, running: 0, waiting: 0, done: 0, failed: 0, stopped: 0 };
  for (const r of rows) counts[r.status]++;
  return counts;
}

/**
 * The board in one segment, zero counts left out: `3 running, 2 queued, 5 done` and the short
 * form `●3 ○2 ✓5` (the glyphs of the board's rows). Null when the task has no subagents.
 */
export function agentSummary(
  p: Palette,
  rows: readonly AgentRow[],
  ascii: boolean,
): { long: string; short: string } | null {
  if (rows.length === 0) return null;
  const counts = agentCounts(rows);
  const present = summaryOrder.filter((s) => counts[s] > 0);
  const glyphs = ascii ? agentGlyphAscii : agentGlyph;
  return {
    long: present
      .map((s) =>
        agentPaint(p, s)(`${counts[s]} ${s === "waiting" && counts[s] > 1 ? "need approval" : agentLabel[s]}`),
      )
      .join(p.dim(", ")),
    short: present.map((s) => agentPaint(p, s)(`${glyphs[s]}${counts[s]}`)).join(" "),
  };
}

export interface BoardView {
  /** In display order (boardRows). */
  rows: readonly AgentRow[];
  selected: number;
  focused: boolean;
  now: number;
  ascii: boolean;
  /** What each waiting child asks (its approval's title), by agent id. */
  asks: Readonly<Record<string, string>>;
}

interface Segment {
  text: string;
  priority: number;
  right: boolean;
}

/** The first line of a row: `1 ● agent-3 worker running … 3.2k tok · 2 files · 1m05s`. */
function headLine(p: Palette, row: AgentRow, index: number, v: BoardView, width: number): string {
  const indent = "  ".repeat(Math.max(0, row.depth - 1));
  const glyph = agentPaint(p, row.status)((v.ascii ? agentGlyphAscii : agentGlyph)[row.status]);
  const lead = `${index < 9 ? p.dim(String(index + 1)) : " "} ${indent}${glyph} `;
  const room = width - visibleWidth(lead);
  const elapsed = agentElapsedText(row, v.now);
  const silent = silentFor(row, v.now);
  const tokens = row.usage.prompt + row.usage.completion;
  const segments: Segment[] = [
    { text: p.title(row.id), priority: 100, right: false },
    { text: row.name, priority: 90, right: false },
    // The glyph already says it; the word goes before the numbers when the row is narrow.
    { text: agentPaint(p, row.status)(agentLabel[row.status]), priority: 45, right: false },
    ...(silent !== null ? [{ text: p.warning(`silent ${formatDuration(silent)}`), priority: 85, right: false }] : []),
    ...(tokens > 0 ? [{ text: p.dim(`${formatTokens(tokens)} tok`), priority: 50, right: true }] : []),
    ...(row.files.length
      ? [{ text: p.dim(`${row.files.length} file${row.files.length === 1 ? "" : "s"}`), priority: 40, right: true }]
      : []),
    ...(elapsed !== null ? [{ text: p.dim(elapsed), priority: 80, right: true }] : []),
  ];
  const kept = segments.slice();
  const total = () => kept.reduce((n, s) => n + visibleWidth(s.text), 0) + kept.length - 1;
  while (total() > room && kept.length > 2) {
    const drop = kept.reduce((a, b) => (b.priority < a.priority ? b : a));
    kept.splice(kept.indexOf(drop), 1);
  }
  const left = kept
    .filter((s) => !s.right)
    .map((s) => s.text)
    .join(" ");
  const right = kept
    .filter((s) => s.right)
    .map((s) => s.text)
    .join(" ");
  if (!right) return truncateToWidth(lead + left, width);
  const gap = Math.max(1, room - visibleWidth(left) - visibleWidth(right));
  return truncateToWidth(lead + left + " ".repeat(gap) + right, width);
}

/** The second line: the tool it runs now, what it asks, why it failed, or its task. */
function detailLine(p: Palette, row: AgentRow, v: BoardView, width: number): { text: string; isTask: boolean } {
  const indent = 4 + 2 * Math.max(0, row.depth - 1);
  const room = Math.max(1, width - indent);
  const flat = (s: string) => s.replace(/\s+/g, " ").trim();
  let text: string;
  let isTask = false;
  const asks = v.asks[row.id];
  if (row.status === "waiting") text = p.statusWaiting(truncateToWidth(`asks: ${flat(asks ?? "an approval")}`, room));
  else if (row.status === "running" && row.tool) {
    const name = truncateToWidth(row.tool.name, room);
    text =
      p.toolName(name) +
      p.toolArgs(truncateToWidth(` ${flat(row.tool.summary)}`, Math.max(0, room - visibleWidth(name))));
  } else if (row.status === "failed" && row.preview) text = p.error(truncateToWidth(row.preview, room));
  else {
    text = p.dim(truncateToWidth(flat(row.task), room));
    isTask = true;
  }
  return { text: " ".repeat(indent) + text, isTask };
}

/**
 * Contract: exactly `min(height, needed)` lines, none wider than `width`: a summary line, then two
 * lines per child (three for the selected one: its task too), scrolled to keep the selection in view.
 */
export function boardLines(p: Palette, v: BoardView, width: number, height: number): string[] {
  if (width <= 0 || height <= 0) return [];
  if (v.rows.length === 0) return [p.dim(truncateToWidth("no subagents in this task", width))];
  const summary = agentSummary(p, v.rows, v.ascii)!;
  const head = visibleWidth(summary.long) <= width ? summary.long : truncateToWidth(summary.short, width);
  const lines: string[] = [];
  let from = 0;
  let to = 0;
  v.rows.forEach((row, i) => {
    const selected = v.focused && i === v.selected;
    const detail = detailLine(p, row, v, width);
    const group = [headLine(p, row, i, v, width), detail.text];
    if (selected && !detail.isTask)
      group.push(
        " ".repeat(4 + 2 * Math.max(0, row.depth - 1)) +
          p.dim(
            truncateToWidth(
              row.task.replace(/\s+/g, " ").trim(),
              Math.max(1, width - 4 - 2 * Math.max(0, row.depth - 1)),
            ),
          ),
      );
    if (i === v.selected) {
      from = lines.length;
      to = from + group.length;
    }
    lines.push(...group.map((l) => (selected ? p.selection(padToWidth(l, width)) : l)));
  });
  const body = Math.max(1, height - 1);
  let offset = 0;
  if (lines.length > body) {
    offset = Math.max(0, Math.min(lines.length - body, from - Math.floor((body - (to - from)) / 2)));
  }
  return [head, ...lines.slice(offset, offset + body)];
}

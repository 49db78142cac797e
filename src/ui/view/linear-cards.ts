// Lines for the screen-reader layout (components/LinearLayout.tsx): each transcript item starts on
// its own line with a role ("You:", "Assistant:", "Tool run_command:"), states are words instead
// of glyphs, and nothing is drawn as a box or a gutter, so a reader that speaks new lines speaks
// sentences. Gemini CLI's ScreenReaderAppLayout and codex's accessibility notes are the anchors.
import type { TaskSnapshot, TaskStatus } from "../../protocol/events.js";
import type { Block } from "../state/transcript.js";
import { padToWidth, truncateToWidth, visibleWidth, wrapLine } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";
import { approvalKeySegments, approvalTitle, compactionText, type CardContext } from "./cards.js";
import { formatDuration, formatTokens, statusPaint } from "./chrome.js";

type Of<K extends Block["kind"]> = Extract<Block, { kind: K }>;

const EXPANDED_MAX_LINES = 200;

/** What a task's state is called, where the other layouts show a glyph. */
export const taskStatusWord: Record<TaskStatus, string> = {
  idle: "idle",
  running: "running",
  waiting: "needs approval",
  failed: "failed",
  done: "done",
};

const toolStatusWord: Record<Of<"tool">["status"], string> = {
  running: "running",
  ok: "done",
  error: "failed",
  denied: "denied",
  aborted: "stopped",
};

function wrapAll(text: string, width: number): string[] {
  return text.split("\n").flatMap((l) => wrapLine(l, Math.max(1, width), { words: true }));
}

/** `role` then the text, wrapped to the width with no gutter (a reader speaks indentation as noise). */
function said(role: string, text: string, width: number, paint: (s: string) => string = (s) => s): string[] {
  return wrapAll(`${role} ${text}`, width).map(paint);
}

const selected = (c: CardContext, lines: string[]) =>
  c.focused ? lines.map((l) => c.p.selection(padToWidth(l, c.width))) : lines;

export function linearUserLines(block: Of<"user"> | Of<"steer">, c: CardContext): string[] {
  return said(block.kind === "steer" ? "You (steering):" : "You:", block.text, c.width, c.p.user);
}

/** A reply's rendered Markdown under its role: on the first line when it fits, else on a line of its own. */
export function linearAssistantLines(body: readonly string[], c: CardContext): string[] {
  const role = c.p.accent("Assistant:");
  const first = body[0] ?? "";
  if (body.length === 0) return [role];
  return visibleWidth(first) + 11 <= c.width ? [`${role} ${first}`, ...body.slice(1)] : [role, ...body];
}

export function linearToolLines(block: Of<"tool">, c: CardContext): string[] {
  const elapsed = block.durationMs ?? (block.status === "running" ? Math.max(0, c.now - block.startedAt) : null);
  const time =
    elapsed !== null
      ? `, ${block.status === "running" ? formatDuration(elapsed) : `${(elapsed / 1000).toFixed(1)}s`}`
      : "";
  const paint = {
    running: c.p.statusRunning,
    ok: c.p.success,
    error: c.p.error,
    denied: c.p.warning,
    aborted: c.p.warning,
  }[block.status];
  const head = `${c.p.toolName(`Tool ${block.name}:`)} ${paint(toolStatusWord[block.status])}${c.p.dim(time)}`;
  const lines = [head];
  const summary = block.summary.replace(/\s+/g, " ").trim();
  if (summary) lines.push(...wrapAll(summary, c.width).map((l) => c.p.toolArgs(l)));
  if (block.status === "running") {
    const tail = block.output
      .replace(/\n$/, "")
      .split("\n")
      .slice(-4)
      .filter((l) => l !== "");
    for (const l of tail) lines.push(c.p.dim(truncateToWidth(l, c.width)));
  } else if (block.display)
    lines.push(...said("Result:", block.display, c.width, block.status === "ok" ? c.p.dim : c.p.error));
  if (block.expanded) {
    const args = typeof block.args === "string" ? block.args : (JSON.stringify(block.args, null, 2) ?? "");
    const body = [
      c.p.dim("Arguments:"),
      ...wrapAll(args, c.width),
      c.p.dim("Output:"),
      ...wrapAll(block.forModel || block.output, c.width),
    ];
    lines.push(...body.slice(0, EXPANDED_MAX_LINES));
    if (body.length > EXPANDED_MAX_LINES)
      lines.push(c.p.dim(`${body.length - EXPANDED_MAX_LINES} more lines (export the task to read all)`));
  }
  return selected(c, lines);
}

export function linearReasoningLines(block: Of<"reasoning">, c: CardContext): string[] {
  const lines = wrapAll(block.text.trim(), c.width);
  if (!block.expanded) {
    const label = block.done
      ? `${lines.length} line${lines.length === 1 ? "" : "s"}, Enter in browse mode shows them`
      : "in progress";
    return selected(c, [c.p.reasoning(`Thinking: ${label}`)]);
  }
  return [c.p.reasoning("Thinking:"), ...lines.map((l) => c.p.reasoning(l))];
}

/** An approval as it stays in the transcript: what was asked and the answer, in words. */
export function linearApprovalSummaryLines(block: Of<"approval">, c: CardContext): string[] {
  const who = block.agentId ? ` (asked by ${block.agentId}${block.agentName ? ` ${block.agentName}` : ""})` : "";
  const answer =
    block.resolved === null
      ? "waiting"
      : block.resolved === "deny"
        ? "denied"
        : block.resolved === "cancelled"
          ? "cancelled"
          : `approved ${block.resolved}`;
  return selected(
    c,
    said(
      `Approval ${answer}${who}:`,
      approvalTitle(block),
      c.width,
      block.resolved === null ? c.p.statusWaiting : (s) => s,
    ),
  );
}

export function linearNoticeLines(block: Of<"notice">, c: CardContext): string[] {
  const role = block.level === "error" ? "Error:" : block.level === "warn" ? "Warning:" : "Note:";
  return said(
    role,
    block.text,
    c.width,
    block.level === "error" ? c.p.error : block.level === "warn" ? c.p.warning : c.p.info,
  );
}

export function linearTurnEndLines(block: Of<"turn-end">, c: CardContext): string[] {
  if (block.reason === "interrupted") return [c.p.warning("Stopped.")];
  return said("Failed:", block.text, c.width, c.p.error);
}

export function linearCompactionLines(block: Of<"compaction">, c: CardContext): string[] {
  const lines = said("Compacted:", compactionText(block), c.width, block.failed ? c.p.warning : c.p.info);
  return selected(c, c.focused ? [...lines, c.p.dim("Enter shows the summary the model now sees")] : lines);
}

/** The open question above the composer, as sentences; at most `maxLines` rows (the detail shrinks first). */
export function linearApprovalLines(block: Of<"approval">, c: CardContext, maxLines = 24): string[] {
  const who = block.agentId ? ` (asked by ${block.agentId}${block.agentName ? ` ${block.agentName}` : ""})` : "";
  const heading = block.dangerous ? `Dangerous${block.rule ? `, ${block.rule}` : ""}${who}:` : `Approval needed${who}:`;
  const paint = block.dangerous ? c.p.error : c.p.approval;
  const head = said(heading, approvalTitle(block), c.width, paint).slice(0, 2);
  const why = said(block.dangerous ? "Reason:" : "Why:", block.reason, c.width, c.p.dim).slice(0, 3);
  const matched =
    block.match && block.match !== block.detail.trim() ? said("Matched:", block.match, c.width).slice(0, 2) : [];
  const keys =
    block.resolved !== null
      ? [c.p.dim(`Answered: ${block.resolved}`)]
      : said("Keys:", approvalKeySegments(block).join(", "), c.width, c.p.accent);
  const room = Math.max(1, maxLines - head.length - why.length - matched.length - keys.length);
  const detail = wrapAll(block.detail, c.width);
  const shown =
    detail.length > room
      ? [
          ...detail.slice(0, Math.max(0, room - 1)),
          c.p.dim(`${detail.length - Math.max(0, room - 1)} more lines, Enter shows all`),
        ]
      : detail;
  return [...head, ...shown, ...matched, ...why, ...keys];
}

/** The line above the transcript: the task, its state in words, the time and tokens. */
export function linearTaskBar(
  p: Palette,
  task: TaskSnapshot | null,
  info: { stopping: boolean; running: boolean; elapsedMs: number | null; waitingMs?: number | null },
  width: number,
): string {
  if (!task) return padToWidth(p.dim("No task"), width);
  const state = info.stopping ? "stopping after this step" : taskStatusWord[task.status];
  const parts = [`Task ${task.title}: ${statusPaint(p, task.status)(state)}`];
  if (info.running && info.waitingMs != null)
    parts.push(p.warning(`waiting for the model ${formatDuration(info.waitingMs)}`));
  if (info.running && info.elapsedMs !== null) parts.push(p.dim(formatDuration(info.elapsedMs)));
  parts.push(p.dim(`${formatTokens(task.usage.prompt + task.usage.completion)} tokens`));
  return padToWidth(truncateToWidth(parts.join(", "), width), width);
}

// Box drawing (U+2500-U+257F) as ASCII of the same width, and the few one-column marks the dialogs
// and Markdown use: what the linear layout's own lines avoid, from the views it shares (dialogs,
// Markdown tables and rules), so nothing reaches a reader as "box drawings light horizontal".
const BOX = /[\u2500-\u257f]/g;
const MARKS: Record<string, string> = { "›": ">", "▏": "|", "•": "*", "◦": "-", "▪": "-", "…": "." };
const boxAscii = (ch: string): string => {
  const code = ch.codePointAt(0)!;
  // The horizontal lines (light, heavy, dashed, double) and the verticals; every corner and junction is "+".
  if ([0x2500, 0x2501, 0x2504, 0x2505, 0x2508, 0x2509, 0x2550, 0x254c, 0x254d].includes(code)) return "-";
  if ([0x2502, 0x2503, 0x2506, 0x2507, 0x250a, 0x250b, 0x2551, 0x254e, 0x254f].includes(code)) return "|";
  return "+";
};

/** Contract: the same width in columns (each mark becomes one ASCII character), styles kept. */
export function plainLine(line: string): string {
  return line.replace(BOX, boxAscii).replace(/[›▏•◦▪…]/g, (ch) => MARKS[ch]!);
}

// Lines for the non-Markdown transcript blocks: prompts, tool cards (collapsed by default, a live
// tail of command output while running), approval cards, notices and turn ends.
import { splitAttachments } from "./attachment-text.js";
import { fixedPromptHeader } from "./fixed-prompt-view.js";
import type { Block } from "../state/transcript.js";
import { padToWidth, truncateToWidth, visibleWidth, wrapLine, type WrapOptions } from "../render/wrap.js";
import { COLLAPSED_DIFF_LINES, editDiffLines } from "./edit-diff.js";
import { diffStyles } from "./panes.js";
import type { Palette } from "../theme/palette.js";
import { formatDuration } from "./chrome.js";
import { shellNoteView } from "./shell-note-view.js";
import { SHELL_CALL_PREFIX } from "../../protocol/shell-note.js";

export const LIVE_TAIL_LINES = 4;
/** Lines of output a finished command card keeps under it. */
const FINISHED_TAIL_LINES = 3;
const EXPANDED_MAX_LINES = 200;

type Of<K extends Block["kind"]> = Extract<Block, { kind: K }>;

export interface CardContext {
  p: Palette;
  width: number;
  now: number;
  /** The card under the transcript cursor. */
  focused: boolean;
  ascii: boolean;
}

function wrapAll(text: string, width: number, opts: WrapOptions = {}): string[] {
  return text.split("\n").flatMap((l) => wrapLine(l, Math.max(1, width), opts));
}

/** Prose (prompts, notices, errors) breaks between words. */
const PROSE: WrapOptions = { words: true };

/** Prefixes the first line with `first` and the rest with `rest` (same display width). */
function gutter(lines: string[], first: string, rest: string): string[] {
  return lines.map((l, i) => (i === 0 ? first : rest) + l);
}

export function userLines(block: Of<"user"> | Of<"steer">, c: CardContext): string[] {
  const mark = block.kind === "steer" ? c.p.accent("↳ ") : c.p.user("› ");
  const fixed = block.kind === "user" ? fixedPromptHeader(block.text) : null;
  if (fixed)
    return [
      ...gutter(
        wrapAll(`${fixed.command} · ${fixed.about}`, c.width - 2, PROSE).map((l) => c.p.user(l)),
        mark,
        "  ",
      ),
      c.p.dim("  (a fixed prompt; Enter in browse mode shows it in full)"),
    ];
  const shell = block.kind === "user" ? shellNoteView(block.text) : null;
  const split = block.kind === "user" && !shell ? splitAttachments(block.text) : null;
  if (split && split.files.length)
    return [
      ...gutter(
        wrapAll(split.text, c.width - 2, PROSE).map((l) => c.p.user(l)),
        mark,
        "  ",
      ),
      ...split.files.map((f) =>
        c.p.dim(truncateToWidth(`  attached ${f.path} (${f.lines} line${f.lines === 1 ? "" : "s"})`, c.width)),
      ),
    ];
  const label =
    block.kind === "steer"
      ? [c.p.dim("  (steering, delivered at a step boundary)")]
      : shell
        ? [c.p.dim(`  (${shell.lines} line${shell.lines === 1 ? "" : "s"} of output went to the model)`)]
        : [];
  return [
    ...gutter(
      wrapAll(shell ? `!${shell.command}` : block.text, c.width - 2, PROSE).map((l) => c.p.user(l)),
      mark,
      "  ",
    ),
    ...label,
  ];
}

const statusMark = (c: CardContext, status: Of<"tool">["status"]) => {
  switch (status) {
    case "running":
      return c.p.statusRunning(c.ascii ? "*" : "●");
    case "ok":
      return c.p.success(c.ascii ? "+" : "✓");
    case "error":
      return c.p.error(c.ascii ? "x" : "✗");
    case "denied":
      return c.p.warning(c.ascii ? "-" : "⊘");
    case "aborted":
      return c.p.warning(c.ascii ? "!" : "■");
  }
};

/** A card rebuilt from a stored session has no summary: its command or path says what it was. */
function argsSummary(args: unknown): string {
  const a = args as { command?: unknown; path?: unknown } | null;
  return typeof a?.command === "string" ? a.command : typeof a?.path === "string" ? a.path : "";
}

export function toolLines(block: Of<"tool">, c: CardContext): string[] {
  const caret = block.expanded ? "▾" : "▸";
  const elapsed = block.durationMs ?? (block.status === "running" ? Math.max(0, c.now - block.startedAt) : null);
  const time =
    elapsed !== null
      ? c.p.dim(` ${block.status === "running" ? formatDuration(elapsed) : `${(elapsed / 1000).toFixed(1)}s`}`)
      : "";
  const head = `${c.ascii ? (block.expanded ? "v" : ">") : caret} ${statusMark(c, block.status)} ${c.p.toolName(block.name)} `;
  const room = Math.max(0, c.width - visibleWidth(head) - visibleWidth(time));
  const lines = [
    head + c.p.toolArgs(truncateToWidth((block.summary || argsSummary(block.args)).replace(/\s+/g, " "), room)) + time,
  ];
  const inner = Math.max(4, c.width - 4);
  if (block.status === "running") {
    const tail = block.output
      .replace(/\n$/, "")
      .split("\n")
      .slice(-LIVE_TAIL_LINES)
      .filter((l) => l !== "");
    for (const l of tail) lines.push(`    ${c.p.dim(truncateToWidth(l, inner))}`);
  } else if (block.display) {
    const paint = block.status === "ok" ? c.p.dim : block.status === "error" ? c.p.error : c.p.warning;
    lines.push(`    ${paint(truncateToWidth(block.display, inner))}`);
  }
  // A finished command keeps the tail of its output in view (a stopped one, what was on screen):
  // the live tail when this run streamed it, else the end of what the model got.
  if (block.status !== "running" && !block.expanded && block.toolKind === "exec") {
    const source = block.output || (block.status === "denied" ? "" : block.forModel);
    const tail = source
      .replace(/\n+$/, "")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .slice(-FINISHED_TAIL_LINES);
    for (const l of tail) lines.push(`    ${c.p.dim(`${c.ascii ? "|" : "│"} ${truncateToWidth(l, inner - 2)}`)}`);
  }
  // The plan shows inline: todo_write's checklist under its card, not only "1/4 done".
  if (block.name === "todo_write" && block.status === "ok" && !block.expanded)
    lines.push(...planLines(block.args, c, inner));
  // An edit keeps its change in view: a few lines collapsed, all of it expanded (in place of the raw arguments).
  const change =
    block.status === "ok" ? editDiffLines(block.name, block.args, block.display, inner, diffStyles(c.p)) : null;
  if (change && !block.expanded) {
    for (const l of change.slice(0, COLLAPSED_DIFF_LINES)) lines.push(`    ${l}`);
    const more = change.length - COLLAPSED_DIFF_LINES;
    if (more > 0)
      lines.push(`    ${c.p.dim(`… ${more} more line${more === 1 ? "" : "s"} (Enter in browse mode expands)`)}`);
  }
  if (block.expanded) {
    const args = typeof block.args === "string" ? block.args : (JSON.stringify(block.args, null, 2) ?? "");
    const shown = change ?? wrapAll(args, inner).map((l) => c.p.toolArgs(l));
    // A `!` command's output starts with the command itself: its arguments would say it twice.
    const head = block.callId.startsWith(SHELL_CALL_PREFIX)
      ? []
      : [...shown, ...(block.forModel ? [c.p.dim("─".repeat(Math.min(inner, 20)))] : [])];
    const body = [...head, ...wrapAll(block.forModel || block.output, inner)];
    const cut =
      body.length > EXPANDED_MAX_LINES
        ? [
            ...body.slice(0, EXPANDED_MAX_LINES),
            c.p.dim(`… ${body.length - EXPANDED_MAX_LINES} more lines (export the task to read all)`),
          ]
        : body;
    for (const l of cut) lines.push(`  ${c.p.border("│")} ${l}`);
  }
  return lines.map((l) => (c.focused ? c.p.selection(padToWidth(l, c.width)) : l));
}

/** Items a plan shows inline before "… N more". */
const PLAN_LINES = 12;

/** todo_write's items as a checklist: done, in progress, to do. */
function planLines(args: unknown, c: CardContext, inner: number): string[] {
  const items = (args as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return [];
  const mark = (status: unknown) =>
    status === "completed"
      ? c.p.success(c.ascii ? "[x]" : "✔")
      : status === "in_progress"
        ? c.p.statusRunning(c.ascii ? "[>]" : "▶")
        : c.p.dim(c.ascii ? "[ ]" : "☐");
  const shown = items.slice(0, PLAN_LINES).map((item: { content?: unknown; status?: unknown }) => {
    const text = typeof item?.content === "string" ? item.content.replace(/\s+/g, " ") : "";
    const done = item?.status === "completed";
    const cut = truncateToWidth(text, inner - 2);
    return `    ${mark(item?.status)} ${done ? c.p.dim(cut) : cut}`;
  });
  if (items.length > PLAN_LINES) shown.push(`    ${c.p.dim(`… ${items.length - PLAN_LINES} more`)}`);
  return shown;
}

/** Packs " · "-joined segments into as few lines of `width` as they fit (a segment never splits). */
export function packSegments(segments: string[], width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const seg of segments) {
    const next = line ? `${line} · ${seg}` : seg;
    if (line && visibleWidth(next) > width) {
      lines.push(line);
      line = seg;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The card's keys, spelled out: what "always" allows is said before the user chooses, and a
 * dangerous command is never offered "always for this workspace".
 */
export function approvalKeySegments(block: Of<"approval">): string[] {
  const always = block.always ?? "commands like this one";
  return [
    "y once",
    `a always allow ${always} in this task`,
    ...(block.alwaysWorkspace ? ["A the same in this workspace"] : []),
    "n deny and stop",
    "d deny with a note and go on",
  ];
}

/** `detail` with the first occurrence of `match` painted, so the eye lands on what the rule matched. */
function highlight(detail: string, match: string | null, paint: (s: string) => string): string {
  if (!match) return detail;
  const at = detail.indexOf(match);
  return at === -1 ? detail : detail.slice(0, at) + paint(match) + detail.slice(at + match.length);
}

/**
 * A bordered card: the exact command or diff, why it needs approval, and the keys. A dangerous
 * command gets its own red card headed "Dangerous" with the rule's reason in full colour and the
 * matched part highlighted. It never takes more than `maxLines` rows: the detail shrinks first
 * (the full text is one Enter away).
 */
export function approvalLines(block: Of<"approval">, c: CardContext, maxLines = 24): string[] {
  const inner = Math.max(8, c.width - 4);
  const danger = block.dangerous;
  const border = danger ? c.p.error : c.p.approval;
  const h = c.ascii ? "-" : "─";
  const v = c.ascii ? "|" : "│";
  const who = block.agentId ? ` (asked by ${block.agentId}${block.agentName ? ` ${block.agentName}` : ""})` : "";
  const heading = danger
    ? `${c.ascii ? "!!" : "⚠"} Dangerous${block.rule ? ` · ${block.rule}` : ""}`
    : "Approval needed";
  const title = truncateToWidth(` ${heading}${who} `, Math.max(1, c.width - 4));
  const top = border(
    (c.ascii ? "+" : "╭") +
      h +
      title +
      h.repeat(Math.max(0, c.width - 3 - visibleWidth(title))) +
      (c.ascii ? "+" : "╮"),
  );
  const bottom = border((c.ascii ? "+" : "╰") + h.repeat(Math.max(0, c.width - 2)) + (c.ascii ? "+" : "╯"));
  const row = (text: string) => `${border(v)} ${padToWidth(truncateToWidth(text, inner), inner)} ${border(v)}`;
  const segments = approvalKeySegments(block).flatMap((seg) => wrapLine(seg, inner, { words: true }));
  let keys =
    block.resolved !== null
      ? [c.p.dim(`answered: ${block.resolved}`)]
      : packSegments(segments, inner).map((l) => (danger ? c.p.error(l) : c.p.accent(l)));
  // "Run: CMD" over CMD said the command twice (and the transcript's line above says it again):
  // a one-line command the title only repeats stands alone.
  const repeats = approvalTitle(block) === `Run: ${block.detail.trim()}` && !block.detail.trim().includes("\n");
  const titleLines = repeats ? [] : wrapLine(approvalTitle(block), inner, { words: true }).slice(0, 2);
  const reason = danger ? block.reason : `why: ${block.reason}`;
  const paintReason = danger ? c.p.error : c.p.dim;
  let why = wrapLine(reason, inner, { words: true });
  // The matched part of a compound command, in words too: highlighting alone is lost without colour.
  const matched =
    block.match && block.match !== block.detail.trim()
      ? wrapLine(`matched: ${block.match}`, inner, { words: true }).slice(0, 2)
      : [];
  const fixed = () => 2 + titleLines.length + why.length + matched.length + keys.length;
  if (fixed() + 1 > maxLines) why = [truncateToWidth(reason, inner)];
  // Very short screens: the keys in one line (the status line spells them out).
  if (fixed() + 1 > maxLines && block.resolved === null)
    keys = [c.p.accent(truncateToWidth(block.alwaysWorkspace ? "y · a · A · n · d" : "y · a · n · d", inner))];
  const detailRoom = Math.max(1, maxLines - fixed());
  const isEdit = block.toolKind === "edit";
  const detail = wrapAll(highlight(block.detail, block.match, c.p.dangerMatch), inner).map((l) => {
    if (!isEdit) return l;
    const plain = l.replace(/\x1b\[[0-9;]*m/g, "");
    return plain.startsWith("+") && !plain.startsWith("+++")
      ? c.p.diffAdd(l)
      : plain.startsWith("-") && !plain.startsWith("---")
        ? c.p.diffDel(l)
        : plain.startsWith("@@")
          ? c.p.diffHunk(l)
          : l;
  });
  const shown =
    detail.length > detailRoom
      ? [
          ...detail.slice(0, Math.max(0, detailRoom - 1)),
          c.p.dim(`… ${detail.length - Math.max(0, detailRoom - 1)} more lines (Enter shows all)`),
        ]
      : detail;
  return [
    top,
    ...titleLines.map((l) => row(c.p.title(l))),
    ...shown.map(row),
    ...matched.map((l) => row(paintReason(l))),
    ...why.map((l) => row(paintReason(l))),
    ...keys.map(row),
    bottom,
  ];
}

export function noticeLines(block: Of<"notice">, c: CardContext): string[] {
  const paint = block.level === "error" ? c.p.error : block.level === "warn" ? c.p.warning : c.p.info;
  const mark = block.level === "error" ? "✗ " : block.level === "warn" ? "! " : "· ";
  return gutter(
    wrapAll(block.text, c.width - 2, PROSE).map((l) => paint(l)),
    paint(mark),
    "  ",
  );
}

export function turnEndLines(block: Of<"turn-end">, c: CardContext): string[] {
  if (block.reason === "interrupted") return [c.p.warning("■ stopped")];
  return gutter(
    wrapAll(block.text, c.width - 2, PROSE).map((l) => c.p.error(l)),
    c.p.error("✗ "),
    "  ",
  );
}

export function reasoningLines(block: Of<"reasoning">, c: CardContext): string[] {
  const lines = wrapAll(block.text.trim(), c.width - 2, PROSE);
  if (!block.expanded) {
    const label = block.done
      ? `thinking (${lines.length} line${lines.length === 1 ? "" : "s"})`
      : `thinking… ${truncateToWidth(lines.at(-1) ?? "", c.width - 16)}`;
    const line = c.p.reasoning(`${c.ascii ? ">" : "▸"} ${label}`);
    return [c.focused ? c.p.selection(padToWidth(line, c.width)) : line];
  }
  return [c.p.reasoning(`${c.ascii ? "v" : "▾"} thinking`), ...lines.map((l) => `  ${c.p.reasoning(l)}`)];
}

/** The question without the `[agent-N name] ` the engine puts first for a subagent: the card says who asks. */
export function approvalTitle(block: Of<"approval">): string {
  return block.agentId && block.title.startsWith(`[${block.agentId}`)
    ? block.title.replace(/^\[[^\]]*\]\s*/, "")
    : block.title;
}

/** The approval as it stays in the transcript: one line saying what was asked and the answer. */
export function approvalSummaryLines(block: Of<"approval">, c: CardContext): string[] {
  const who = block.agentId ? `${block.agentId}${block.agentName ? ` ${block.agentName}` : ""}: ` : "";
  const answer =
    block.resolved === null
      ? c.p.statusWaiting(`${c.ascii ? "!" : "⏸"} waiting for approval: `)
      : block.resolved === "deny"
        ? c.p.warning("⊘ denied: ")
        : block.resolved === "cancelled"
          ? c.p.dim("· cancelled: ")
          : c.p.success(`✓ approved ${block.resolved}: `);
  const line = truncateToWidth(answer + who + approvalTitle(block), c.width);
  return [c.focused ? c.p.selection(padToWidth(line, c.width)) : line];
}

/** 310,000 -> "310k", 2,140 -> "2.1k", 980 -> "980": sizes in the compaction marker. */
export function shortCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, "")}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

/** What the compaction marker says, on one line (wrapped by the card). */
export function compactionText(block: Of<"compaction">): string {
  const sizes =
    block.beforeChars !== null && block.afterChars !== null
      ? `${shortCount(block.beforeChars)} → ${shortCount(block.afterChars)} characters`
      : "";
  const what =
    block.folded === null
      ? "earlier messages"
      : `${block.folded.toLocaleString("en-US")} earlier message${block.folded === 1 ? "" : "s"}`;
  const focus = block.focus ? ` focused on "${block.focus}"` : "";
  if (block.failed) {
    const why = block.error ? `: ${block.error}` : "";
    const head =
      block.folded === null ? "earlier messages were left out" : `folded ${what}, but the summary failed${why}`;
    return `${head}; an omission note stands in${sizes ? ` (${sizes})` : ""}`;
  }
  const chars = `${block.summaryChars.toLocaleString("en-US")} chars`;
  return block.folded === null
    ? `earlier messages were folded into a summary${focus} (${chars})`
    : `folded ${what} into a summary${focus} (${chars}; ${sizes})`;
}

/**
 * A rule across the transcript where older messages were folded: `── folded 51 earlier messages
 * into a summary (…) ──`, wrapped on narrow screens. Focused (browse mode), it says how to read it.
 */
export function compactionLines(block: Of<"compaction">, c: CardContext): string[] {
  const rule = c.ascii ? "-" : "─";
  const paint = block.failed ? c.p.warning : c.p.info;
  const text = compactionText(block);
  const room = Math.max(4, c.width - 6);
  const wrapped = wrapLine(text, room, { words: true });
  const lines = wrapped.map((l, i) => {
    const lead = i === 0 ? `${rule}${rule} ` : "   ";
    const tail =
      i === wrapped.length - 1
        ? ` ${rule.repeat(Math.max(2, c.width - visibleWidth(lead) - visibleWidth(l) - 1))}`
        : "";
    return truncateToWidth(paint(lead + l + tail), c.width);
  });
  if (!c.focused) return lines;
  return [...lines, c.p.dim(truncateToWidth("   Enter shows the summary the model now sees", c.width))].map((l) =>
    c.p.selection(padToWidth(l, c.width)),
  );
}

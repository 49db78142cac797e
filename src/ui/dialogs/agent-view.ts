// One subagent's transcript, read-only and live (Enter on the Agents tab), drawn in place of the
// task's transcript: a header with its board row, the same virtualised renderer as the main view,
// and the card of an approval it waits for. Its keys are on the status line (panes/status.ts).
import type { Dialog } from "../state/ui-state.js";
import type { AppServices } from "../context/services.js";
import { padToWidth, truncateToWidth, visibleWidth } from "../render/wrap.js";
import type { FollowTop } from "../state/store.js";
import type { DialogScope } from "./dialog.js";
import type { TranscriptMeasure } from "../view/measures.js";
import { keyLabel } from "../controller/agents.js";
import { agentApproval } from "../state/children.js";
import {
  agentElapsedText,
  agentGlyph,
  agentGlyphAscii,
  agentLabel,
  agentPaint,
  silentFor,
} from "../view/agent-board.js";
import { approvalLines } from "../view/cards.js";
import { fit, formatDuration, formatTokens, type Segment } from "../view/chrome.js";
import { computeViewport, settleFollow } from "../view/transcript-view.js";
import type { Scroll } from "../state/scroll.js";

type AgentDialog = Extract<Dialog, { kind: "agent" }>;

/** A subagent's view as drawn, what the controller scrolls by, and the follow jump to remember. */
export interface AgentViewFrame {
  lines: string[];
  measure: TranscriptMeasure | null;
  follow: { key: string; top: FollowTop } | null;
}

/** The key its follow-mode jump is remembered under in the store (s.follow). */
export const agentFollowKey = (d: AgentDialog): string => `${d.taskId}/${d.agentId}`;

export function agentViewPane(
  s: DialogScope,
  sv: AppServices,
  dialog: AgentDialog,
  width: number,
  height: number,
): AgentViewFrame {
  const { palette: p, ctl, ascii } = sv;
  const renderer = sv.renderer.other;
  const t = s.transcripts[dialog.taskId];
  const row = t?.agents.find((a) => a.id === dialog.agentId);
  const blocks = t?.children[dialog.agentId]?.blocks ?? [];
  const now = s.clock;

  // Header: who, how it is doing, what it costs; the numbers go first when narrow.
  const head: Segment[] = [
    { text: p.borderFocused(p.title(`${dialog.agentId}${row ? ` ${row.name}` : ""}`)), priority: 100 },
  ];
  if (row) {
    const elapsed = agentElapsedText(row, now);
    const silent = silentFor(row, now);
    const tokens = row.usage.prompt + row.usage.completion;
    head.push({
      text: agentPaint(
        p,
        row.status,
      )(`${(ascii ? agentGlyphAscii : agentGlyph)[row.status]} ${agentLabel[row.status]}`),
      priority: 90,
    });
    if (silent !== null) head.push({ text: p.warning(`silent ${formatDuration(silent)}`), priority: 85 });
    if (elapsed !== null) head.push({ text: p.dim(elapsed), priority: 80 });
    if (tokens > 0) head.push({ text: p.dim(`${formatTokens(tokens)} tok`), priority: 50 });
    if (row.files.length)
      head.push({ text: p.dim(`${row.files.length} file${row.files.length === 1 ? "" : "s"}`), priority: 40 });
  }
  const header = fit(head, width, p.dim(" · "));

  // Bottom: the card of its pending approval (the status line has the view's keys).
  const bottom: string[] = [];
  const pending = agentApproval(s, dialog.taskId, dialog.agentId);
  if (pending)
    bottom.push(
      ...approvalLines(pending, { p, width, now, focused: false, ascii }, Math.max(5, Math.min(16, height - 4))),
    );

  const viewportHeight = Math.max(1, height - 1 - bottom.length);
  let body: string[];
  let measure: TranscriptMeasure | null = null;
  let follow: AgentViewFrame["follow"] = null;
  if (blocks.length === 0) {
    const why = !row
      ? "this subagent is gone (the task was cleared or removed)"
      : row.status === "queued"
        ? "queued: it starts when a running subagent of this depth ends"
        : "nothing yet";
    body = [
      p.dim(truncateToWidth(why, width)),
      "",
      ...(row ? [p.user(truncateToWidth(`› ${row.task.replace(/\s+/g, " ")}`, width))] : []),
    ];
  } else {
    const linesOf = (i: number) => renderer.lines(blocks[i]!, width, false, now);
    const followKey = agentFollowKey(dialog);
    let scroll: Scroll;
    if (!dialog.scroll.follow) scroll = dialog.scroll;
    else {
      // As in the main view: follow mode keeps its last jump, so streaming repaints little.
      const remembered = s.follow[followKey];
      scroll =
        remembered && remembered.width === width && remembered.height === viewportHeight
          ? { follow: true, top: remembered.top }
          : settleFollow(blocks.length, linesOf, viewportHeight);
    }
    const live = row ? row.status === "running" || row.status === "waiting" || row.status === "queued" : false;
    const vp = computeViewport(blocks.length, linesOf, viewportHeight, scroll, live);
    if (vp.scroll.follow) follow = { key: followKey, top: { top: vp.scroll.top, width, height: viewportHeight } };
    measure = {
      count: blocks.length,
      height: viewportHeight,
      top: vp.scroll.top ?? { block: 0, line: 0 },
      rowBlocks: vp.rowBlocks,
      linesOf,
    };
    body = vp.lines;
    if (!vp.scroll.follow && !vp.atEnd && viewportHeight > 2)
      body[viewportHeight - 1] = p.dim(`  ↓ more below · ${keyLabel(ctl, "scrollBottom")} follows the output`);
  }
  while (body.length < viewportHeight) body.push("");
  const lines = [header, ...body.slice(0, viewportHeight), ...bottom];
  return {
    lines: lines
      .slice(0, height)
      .map((l) => padToWidth(visibleWidth(l) > width ? truncateToWidth(l, width) : l, width)),
    measure,
    follow,
  };
}

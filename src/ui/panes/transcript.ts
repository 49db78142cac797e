// The centre column: the task bar, the virtualised transcript, pending steer/queue items, and at
// the bottom either the approval card or the composer (with completions). Dialogs draw here too.
import { layout as editorLayout, isEmpty } from "../input/editor.js";
import type { AppServices } from "../context/services.js";
import type { AppState } from "../state/store.js";
import { padToWidth, truncateToWidth } from "../render/wrap.js";
import { approvalLines } from "../view/cards.js";
import { agentSummary } from "../view/agent-board.js";
import { agentViewPane } from "./subagent-view.js";
import { taskBar } from "../view/chrome.js";
import { dialogLines } from "../view/dialog-view.js";
import { computeViewport, settleFollow, type Scroll } from "../view/transcript-view.js";

const MAX_COMPOSER_ROWS = 8;
const MAX_COMPLETIONS_SHOWN = 6;

/** Where the terminal cursor should be (the composer), in screen coordinates, or none. */
export type CursorSink = (position: { x: number; y: number } | undefined) => void;

export function transcriptPane(s: AppState, sv: AppServices, width: number, height: number, left: number, top: number, setCursorPosition: CursorSink): string[] {
  const { palette: p, ctl, renderer, ascii } = sv;
  const current = (s.current);
  const transcript = ((s.current ? s.transcripts[s.current] : undefined));
  const task = ((s.current ? s.tasks[s.current] : undefined));
  const focus = (s.ui.focus);
  const dialog = (s.ui.dialog);
  const composer = (s.ui.composer);
  const completion = (s.ui.completion);
  const stored = ((s.current ? s.ui.scroll[s.current] : undefined));
  const cursor = ((s.current ? s.ui.cursor[s.current] : undefined));
  const running = transcript?.running ?? false;

  if (width <= 0 || height <= 0) {
    setCursorPosition(undefined);
    return [];
  }
  if (dialog) {
    setCursorPosition(undefined);
    if (dialog.kind === "agent") return agentViewPane(s, sv, dialog, width, height);
    const lines = dialogLines(ctl, p, dialog, width, height).map((l) => padToWidth(truncateToWidth(l, width), width));
    while (lines.length < height) lines.push(" ".repeat(width));
    return lines.slice(0, height);
  }

  const blocks = transcript?.blocks ?? [];
  const pending = blocks.find((b) => b.kind === "approval" && b.resolved === null);
  const agents = transcript?.agents.length ? agentSummary(p, transcript.agents, ascii) : null;
  const bar = taskBar(p, task?.snapshot ?? null, { running, stopping: transcript?.stopping ?? false, elapsedMs: transcript?.turnStartedAt ? Date.now() - transcript.turnStartedAt : null, waitingMs: transcript?.waitingSince ? Date.now() - transcript.waitingSince : null, agents }, width, ascii);

  // The bottom area first: the transcript gets what is left.
  const bottom: string[] = [];
  for (const item of (task?.queue ?? []).slice(0, 3)) {
    const label = item.mode === "steer" ? p.accent("↳ steer ") : p.info("⏎ queued ");
    bottom.push(truncateToWidth(label + item.text.replace(/\n/g, " "), width));
  }
  const attachments = s.ui.attachments;
  if (attachments.length) bottom.push(p.info(truncateToWidth(`images for the next message: ${attachments.join(", ")}`, width)));
  if ((task?.queue.length ?? 0) > 0) bottom.push(p.dim(truncateToWidth(`${task!.queue.length} pending · Ctrl-E (empty input) to edit, reorder or drop`, width)));
  let cursorAt: { x: number; y: number } | undefined;
  if (pending && pending.kind === "approval" && focus === "composer") {
    // The card may take all but the task bar and two transcript rows.
    bottom.push(...approvalLines(pending, { p, width, now: Date.now(), focused: false, ascii }, Math.max(6, Math.min(24, height - 3 - bottom.length))));
  } else {
    if (completion) {
      const items = completion.list.items;
      const start = Math.max(0, Math.min(items.length - MAX_COMPLETIONS_SHOWN, completion.index - 2));
      items.slice(start, start + MAX_COMPLETIONS_SHOWN).forEach((item, k) => {
        const line = padToWidth(truncateToWidth(`${item.value}  ${p.dim(item.description ?? "")}`, width - 2), width - 2);
        bottom.push("  " + (start + k === completion.index ? p.selection(line) : line));
      });
    }
    const view = editorLayout(composer, Math.max(4, width - 2));
    const placeholder = running ? "Enter steers the turn · Tab queues the next one" : "Ask anything · / commands · @ files · ? keys";
    const rows = isEmpty(composer) ? [p.dim(truncateToWidth(placeholder, width - 2))] : view.lines;
    const first = Math.max(0, Math.min(rows.length - MAX_COMPOSER_ROWS, view.cursorRow - MAX_COMPOSER_ROWS + 1));
    const shown = rows.slice(first, first + MAX_COMPOSER_ROWS);
    const composerTop = bottom.length;
    shown.forEach((row, i) => bottom.push((i === 0 && first === 0 ? p.accent(ascii ? "> " : "› ") : "  ") + row));
    if (focus === "composer") cursorAt = { x: left + 2 + (isEmpty(composer) ? 0 : view.cursorCol), y: 0 + composerTop + (view.cursorRow - first) };
  }

  const viewportHeight = Math.max(1, height - 1 - bottom.length);
  const browsing = focus === "browse";
  const linesOf = (i: number) => renderer.lines(blocks[i]!, width, browsing && cursor === i);
  let scroll: Scroll;
  if (stored && !stored.follow) scroll = stored;
  else {
    const key = current ?? "";
    const remembered = renderer.followTops.get(key);
    scroll = remembered && remembered.width === width && remembered.height === viewportHeight ? { follow: true, top: remembered.top } : settleFollow(blocks.length, linesOf, viewportHeight);
  }
  const vp = computeViewport(blocks.length, linesOf, viewportHeight, scroll);
  if (vp.scroll.follow && current) renderer.followTops.set(current, { top: vp.scroll.top, width, height: viewportHeight });
  ctl.view = { count: blocks.length, height: viewportHeight, top: vp.scroll.top ?? { block: 0, line: 0 }, rowBlocks: vp.rowBlocks, linesOf };

  if (cursorAt) setCursorPosition({ x: cursorAt.x, y: top + 1 + viewportHeight + cursorAt.y });
  else setCursorPosition(undefined);

  const scrolledUp = !vp.scroll.follow && !vp.atEnd;
  const lines = [bar, ...vp.lines, ...bottom];
  if (scrolledUp && viewportHeight > 2) lines[viewportHeight] = p.dim(padToWidth("  ↓ more below · End or PgDn follows the output", width));
  return lines.slice(0, height).map((l) => padToWidth(truncateToWidth(l, width), width));
}

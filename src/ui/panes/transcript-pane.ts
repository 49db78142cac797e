// The centre column: the task bar, the virtualised transcript, pending steer/queue items, and at
// the bottom either the approval card or the composer (with completions). Pure: it draws from its
// model (`selectTranscript`), the scroll it follows included (s.follow), and what it measured goes
// back as values.
import { editorText, layout as editorLayout, isEmpty } from "../input/editor.js";
import type { AppServices } from "../context/services.js";
import type { AppState, FollowTop, TaskEntry } from "../state/store.js";
import type { TranscriptState } from "../state/transcript.js";
import type { UiState } from "../state/ui-state.js";
import { selector } from "../state/select.js";
import type { TranscriptMeasure } from "../view/measures.js";
import { padToWidth, truncateToWidth } from "../render/wrap.js";
import { approvalLines } from "../view/cards.js";
import { agentSummary } from "../view/agent-board.js";
import { taskBar } from "../view/chrome.js";
import { linearApprovalLines, linearTaskBar, plainLine } from "../view/linear-cards.js";
import { computeViewport, settleFollow } from "../view/transcript-view.js";
import type { Scroll } from "../state/scroll.js";

const MAX_COMPOSER_ROWS = 8;
const MAX_COMPLETIONS_SHOWN = 6;

/** What the centre column reads: the current task's parts and the composer's. */
export interface TranscriptModel {
  id: string | null;
  transcript: TranscriptState | undefined;
  task: TaskEntry | undefined;
  focus: UiState["focus"];
  composer: UiState["composer"];
  completion: UiState["completion"];
  attachments: UiState["attachments"];
  screenReader: boolean;
  /** Its scroll and browse cursor (UiState.scroll, .cursor), its last follow jump (AppState.follow). */
  scroll: Scroll | undefined;
  cursor: number | undefined;
  follow: FollowTop | undefined;
  /** The store's clock while the task counts time (a turn, a wait), else 0: idle, the clock is no change here. */
  clock: number;
  redraws: number;
}

export const selectTranscript = selector((s: AppState): TranscriptModel => {
  const id = s.current;
  const transcript = id ? s.transcripts[id] : undefined;
  return {
    id,
    transcript,
    task: id ? s.tasks[id] : undefined,
    focus: s.ui.focus,
    composer: s.ui.composer,
    completion: s.ui.completion,
    attachments: s.ui.attachments,
    screenReader: s.ui.screenReader,
    scroll: id ? s.ui.scroll[id] : undefined,
    cursor: id ? s.ui.cursor[id] : undefined,
    follow: id ? s.follow[id] : undefined,
    clock: transcript && (transcript.running || transcript.waitingSince !== null) ? s.clock : 0,
    redraws: s.redraws,
  };
});

/** The centre column as drawn for one model and size, and what the controller scrolls by. */
export interface TranscriptFrame {
  /** Exactly `height` lines, each `width` columns. */
  lines: string[];
  /** The composer's cursor, relative to the pane's top-left corner; none without composer focus. */
  cursor: { x: number; y: number } | undefined;
  /** Rows (of `lines`) whose running-tool glyph can spin. */
  spinning: number[];
  measure: TranscriptMeasure;
  /** The follow-mode jump this frame made (to remember for the next), or null when not following. */
  follow: FollowTop | null;
}

type FrameKey = Pick<AppServices, "palette" | "renderer" | "ascii"> & { width: number; height: number };
const frames = new WeakMap<TranscriptModel, (FrameKey & { frame: TranscriptFrame })[]>();

/**
 * The same frame for the same model, size and the services it draws with (palette, renderer,
 * ascii), computed once: the settle step and the render both ask (the selector hands both the
 * same model object), with services objects that may differ (the context's copy after a theme switch).
 */
export function transcriptFrame(m: TranscriptModel, sv: AppServices, width: number, height: number): TranscriptFrame {
  let seen = frames.get(m);
  if (!seen) frames.set(m, (seen = []));
  const hit = seen.find(
    (f) =>
      f.palette === sv.palette &&
      f.renderer === sv.renderer &&
      f.ascii === sv.ascii &&
      f.width === width &&
      f.height === height,
  );
  if (hit) return hit.frame;
  const frame = computeFrame(m, sv, width, height);
  seen.push({ palette: sv.palette, renderer: sv.renderer, ascii: sv.ascii, width, height, frame });
  return frame;
}

/**
 * Contract: `to` is `from` with the follow jumps of `from`'s frames remembered (the settle step).
 * Drawing from a remembered jump lands on the same rows, so `to`'s frames are `from`'s: the render
 * after the settle step does not compute the transcript again.
 */
export function carryFrames(from: TranscriptModel, to: TranscriptModel): void {
  const seen = frames.get(from);
  if (seen && from !== to && !frames.has(to)) frames.set(to, [...seen]);
}

function computeFrame(m: TranscriptModel, sv: AppServices, width: number, height: number): TranscriptFrame {
  const { palette: p, renderer, ascii } = sv;
  const { id: current, transcript, task, focus, composer, completion, cursor, clock: now } = m;
  const stored = m.scroll;
  const running = transcript?.running ?? false;
  const blocks = transcript?.blocks ?? [];
  const empty: TranscriptFrame = {
    lines: [],
    cursor: undefined,
    spinning: [],
    measure: { count: blocks.length, height: 1, top: { block: 0, line: 0 }, rowBlocks: [], linesOf: () => [] },
    follow: null,
  };
  if (width <= 0 || height <= 0) return empty;

  const pending = blocks.find((b) => b.kind === "approval" && b.resolved === null);
  const agents = transcript?.agents.length ? agentSummary(p, transcript.agents, ascii) : null;
  const linear = m.screenReader;
  // The clock reads 0 unless the task counts time; then it may lag an event by up to a tick.
  const since = (at: number | null | undefined) => (at ? Math.max(0, now - at) : null);
  const barInfo = {
    running,
    stopping: transcript?.stopping ?? false,
    elapsedMs: since(transcript?.turnStartedAt),
    waitingMs: since(transcript?.waitingSince),
    agents,
  };
  const bar = linear
    ? linearTaskBar(p, task?.snapshot ?? null, barInfo, width)
    : taskBar(p, task?.snapshot ?? null, barInfo, width, ascii);

  // The bottom area first: the transcript gets what is left.
  const bottom: string[] = [];
  for (const item of (task?.queue ?? []).slice(0, 3)) {
    const label =
      item.mode === "steer" ? p.accent(linear ? "Steer: " : "↳ steer ") : p.info(linear ? "Queued: " : "⏎ queued ");
    bottom.push(truncateToWidth(label + item.text.replace(/\n/g, " "), width));
  }
  const attachments = m.attachments;
  if (attachments.length)
    bottom.push(p.info(truncateToWidth(`images for the next message: ${attachments.join(", ")}`, width)));
  if ((task?.queue.length ?? 0) > 0)
    bottom.push(
      task!.queuePaused && !running
        ? p.warning(
            truncateToWidth(
              `queue paused by the stop: ${task!.queue.length} waiting · Enter on an empty input sends the next · Ctrl-E edit or drop`,
              width,
            ),
          )
        : p.dim(
            truncateToWidth(`${task!.queue.length} pending · Ctrl-E (empty input) to edit, reorder or drop`, width),
          ),
    );
  let cursorAt: { x: number; y: number } | undefined;
  if (pending && pending.kind === "approval" && focus === "composer") {
    // Text typed while the card is up (type-ahead never answers it) waits in the input: one line
    // under the card shows it, so no key seems lost.
    const held = isEmpty(composer)
      ? null
      : p.dim(
          truncateToWidth(
            `${linear ? "Input: " : ascii ? "> " : "› "}${editorText(composer).replace(/\n/g, " ")}`,
            width,
          ),
        );
    // The card may take all but the task bar and two transcript rows.
    const card = linear ? linearApprovalLines : approvalLines;
    bottom.push(
      ...card(
        pending,
        { p, width, now, focused: false, ascii },
        Math.max(6, Math.min(24, height - 3 - bottom.length - (held ? 1 : 0))),
      ),
    );
    if (held) bottom.push(held);
  } else {
    if (completion) {
      const items = completion.list.items;
      const start = Math.max(0, Math.min(items.length - MAX_COMPLETIONS_SHOWN, completion.index - 2));
      items.slice(start, start + MAX_COMPLETIONS_SHOWN).forEach((item, k) => {
        const line = padToWidth(
          truncateToWidth(`${item.value}  ${p.dim(item.description ?? "")}`, width - 2),
          width - 2,
        );
        bottom.push("  " + (start + k === completion.index ? p.selection(line) : line));
      });
    }
    const view = editorLayout(composer, Math.max(4, width - 2));
    const placeholder = running
      ? "Enter steers the turn · Tab queues the next one"
      : "Ask anything · / commands · @ files · ? keys";
    const rows = isEmpty(composer) ? [p.dim(truncateToWidth(placeholder, width - 2))] : view.lines;
    const first = Math.max(0, Math.min(rows.length - MAX_COMPOSER_ROWS, view.cursorRow - MAX_COMPOSER_ROWS + 1));
    const shown = rows.slice(first, first + MAX_COMPOSER_ROWS);
    const composerTop = bottom.length;
    shown.forEach((row, i) => bottom.push((i === 0 && first === 0 ? p.accent(ascii ? "> " : "› ") : "  ") + row));
    if (focus === "composer")
      cursorAt = { x: 2 + (isEmpty(composer) ? 0 : view.cursorCol), y: composerTop + (view.cursorRow - first) };
  }

  const viewportHeight = Math.max(1, height - 1 - bottom.length);
  const browsing = focus === "browse";
  const linesOf = (i: number) => renderer.lines(blocks[i]!, width, browsing && cursor === i, now);
  let scroll: Scroll;
  if (stored && !stored.follow) scroll = stored;
  else {
    const remembered = m.follow;
    scroll =
      remembered && remembered.width === width && remembered.height === viewportHeight
        ? { follow: true, top: remembered.top }
        : settleFollow(blocks.length, linesOf, viewportHeight);
  }
  const vp = computeViewport(blocks.length, linesOf, viewportHeight, scroll, running);
  const measure: TranscriptMeasure = {
    count: blocks.length,
    height: viewportHeight,
    top: vp.scroll.top ?? { block: 0, line: 0 },
    rowBlocks: vp.rowBlocks,
    linesOf,
  };

  const scrolledUp = !vp.scroll.follow && !vp.atEnd;
  const lines = [bar, ...vp.lines, ...bottom];
  if (scrolledUp && viewportHeight > 2)
    lines[viewportHeight] = p.dim(
      padToWidth(
        linear ? "More below. End or PgDn follows the output" : "  ↓ more below · End or PgDn follows the output",
        width,
      ),
    );
  // A running tool's card spins its glyph on its first line (the card's head); the linear layout says "running" instead.
  const spinning: number[] = [];
  vp.rowBlocks.forEach((b, r) => {
    const block = blocks[b];
    const head = r === 0 ? measure.top.line === 0 : vp.rowBlocks[r - 1] !== b;
    if (
      !linear &&
      block?.kind === "tool" &&
      block.status === "running" &&
      head &&
      !(scrolledUp && r === viewportHeight - 1)
    )
      spinning.push(r + 1);
  });
  return {
    // The screen-reader layout: Markdown's tables and rules in ASCII too (view/linear-cards.ts).
    lines: lines.slice(0, height).map((l) => padToWidth(truncateToWidth(linear ? plainLine(l) : l, width), width)),
    cursor: cursorAt ? { x: cursorAt.x, y: 1 + viewportHeight + cursorAt.y } : undefined,
    spinning,
    measure,
    follow: vp.scroll.follow && current ? { top: vp.scroll.top, width, height: viewportHeight } : null,
  };
}

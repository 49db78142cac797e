// The virtualised transcript: lines per block, cached by block identity and width, and a viewport
// that renders only the blocks it shows. Follow mode scrolls in half-page jumps, so streaming text
// repaints about two lines per new line instead of the whole pane per line.
import type { Block } from "../state/transcript.js";
import { IncrementalMarkdown } from "../render/incremental.js";
import type { MarkdownStyles } from "../render/markdown.js";
import { padToWidth } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";
import {
  approvalSummaryLines,
  compactionLines,
  noticeLines,
  reasoningLines,
  toolLines,
  turnEndLines,
  userLines,
  type CardContext,
} from "./cards.js";
import {
  linearApprovalSummaryLines,
  linearAssistantLines,
  linearCompactionLines,
  linearNoticeLines,
  linearReasoningLines,
  linearToolLines,
  linearTurnEndLines,
  linearUserLines,
} from "./linear-cards.js";

import { followScroll, type Position, type Scroll } from "../state/scroll.js";

interface CacheEntry {
  block: Block;
  width: number;
  focused: boolean;
  /** The clock it was drawn at: a running tool's lines show its elapsed time. */
  now: number;
  lines: string[];
}

export class TranscriptRenderer {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly markdown = new Map<string, IncrementalMarkdown>();
  constructor(
    private p: Palette,
    private md: MarkdownStyles,
    private readonly ascii: boolean,
    /** The screen-reader layout's items: a role first, words for states, no gutters (view/linear-cards.ts). */
    readonly linear = false,
  ) {}

  private side: TranscriptRenderer | null = null;

  /**
   * A second renderer with the same styles, for a transcript shown beside this one (a
   * subagent's): block ids repeat across transcripts, so one cache would evict the other's lines.
   */
  get other(): TranscriptRenderer {
    this.side ??= new TranscriptRenderer(this.p, this.md, this.ascii, this.linear);
    return this.side;
  }

  setStyles(p: Palette, md: MarkdownStyles): void {
    this.p = p;
    this.md = md;
    this.cache.clear();
    this.markdown.clear();
    this.side?.setStyles(p, md);
  }

  /** Drops cached renders (e.g. after Markdown highlighting finished loading). */
  invalidate(): void {
    this.cache.clear();
    this.side?.invalidate();
  }

  /** `now`: the store's clock (AppState.clock; 0: none); a running tool's lines are drawn again when it moves. */
  lines(block: Block, width: number, focused = false, now = 0): string[] {
    const live = block.kind === "tool" && block.status === "running";
    const hit = this.cache.get(block.id);
    if (hit && hit.block === block && hit.width === width && hit.focused === focused && (!live || hit.now === now))
      return hit.lines;
    const lines = this.render(block, width, focused, now);
    this.cache.set(block.id, { block, width, focused, now, lines });
    return lines;
  }

  private render(block: Block, width: number, focused: boolean, now: number): string[] {
    const c: CardContext = { p: this.p, width, now, focused, ascii: this.ascii };
    if (this.linear) return this.renderLinear(block, c);
    // Blocks whose lines have no focused look of their own: the selection paints them whole.
    const selected = (lines: string[]) => (focused ? lines.map((l) => this.p.selection(padToWidth(l, width))) : lines);
    switch (block.kind) {
      case "user":
      case "steer":
        return ["", ...selected(userLines(block, c))];
      case "assistant": {
        const body = this.markdownOf(block.id, block.text, width, block.done);
        if (block.stopped) body.push(this.p.warning("[stopped]"));
        return focused ? body.map((l) => this.p.selection(padToWidth(l, width))) : body;
      }
      case "reasoning":
        return reasoningLines(block, c);
      case "tool":
        return toolLines(block, c);
      case "approval":
        return approvalSummaryLines(block, c);
      case "notice":
        return selected(noticeLines(block, c));
      case "turn-end":
        return selected(turnEndLines(block, c));
      case "compaction":
        return ["", ...compactionLines(block, c)];
      default:
        block satisfies never;
        return [];
    }
  }

  /** Each item after a blank line, so a reader that speaks new lines says where one starts. */
  private renderLinear(block: Block, c: CardContext): string[] {
    switch (block.kind) {
      case "user":
      case "steer":
        return ["", ...linearUserLines(block, c)];
      case "assistant": {
        const body = this.markdownOf(block.id, block.text, c.width, block.done);
        if (block.stopped) body.push(this.p.warning("Stopped."));
        const lines = ["", ...linearAssistantLines(body, c)];
        return c.focused ? lines.map((l) => this.p.selection(padToWidth(l, c.width))) : lines;
      }
      case "reasoning":
        return ["", ...linearReasoningLines(block, c)];
      case "tool":
        return ["", ...linearToolLines(block, c)];
      case "approval":
        return ["", ...linearApprovalSummaryLines(block, c)];
      case "notice":
        return ["", ...linearNoticeLines(block, c)];
      case "turn-end":
        return ["", ...linearTurnEndLines(block, c)];
      case "compaction":
        return ["", ...linearCompactionLines(block, c)];
      default:
        block satisfies never;
        return [];
    }
  }

  /** A reply's Markdown at `width`, rendered incrementally as it streams (a copy: callers may append). */
  /** A reply's lines; a finished one renders its last block in full too (a closing table). */
  private markdownOf(id: string, text: string, width: number, done: boolean): string[] {
    let md = this.markdown.get(id);
    if (!md) {
      md = new IncrementalMarkdown(this.md);
      this.markdown.set(id, md);
    }
    return md.update(text, Math.max(1, width), done).slice();
  }

  /** Forget blocks that are gone (a task switched away, a session rewritten). */
  retain(blocks: Block[]): void {
    const keep = new Set(blocks.map((b) => b.id));
    for (const id of this.cache.keys()) if (!keep.has(id)) this.cache.delete(id);
    for (const id of this.markdown.keys()) if (!keep.has(id)) this.markdown.delete(id);
  }
}

export interface Viewport {
  lines: string[];
  scroll: Scroll;
  /** For each visible row, the index of the block it belongs to (-1 for padding). */
  rowBlocks: number[];
  atEnd: boolean;
}

type LinesOf = (index: number) => string[];

/** The position `n` lines before the end of the transcript (clamped to the start). */
function backFromEnd(count: number, linesOf: LinesOf, n: number): Position {
  let remaining = n;
  for (let b = count - 1; b >= 0; b--) {
    const len = linesOf(b).length;
    if (remaining <= len) return { block: b, line: len - remaining };
    remaining -= len;
  }
  return { block: 0, line: 0 };
}

/** Moves a position by `delta` lines (negative = up), clamped to the transcript. */
export function movePosition(pos: Position, delta: number, count: number, linesOf: LinesOf): Position {
  let { block, line } = pos;
  line += delta;
  while (line < 0 && block > 0) {
    block--;
    line += linesOf(block).length;
  }
  if (line < 0) return { block: 0, line: 0 };
  while (block < count && line >= linesOf(block).length) {
    if (block === count - 1) return { block, line: Math.max(0, linesOf(block).length - 1) };
    line -= linesOf(block).length;
    block++;
  }
  return { block: Math.min(block, Math.max(0, count - 1)), line };
}

/**
 * Contract: returns exactly `height` lines (padded), rendering only the blocks it needs. In follow
 * mode the last line sits at the bottom of a full pane, while output is `live` and after.
 */
export function computeViewport(
  count: number,
  linesOf: LinesOf,
  height: number,
  scroll: Scroll,
  live = true,
): Viewport {
  if (scroll.follow && !live) scroll = settleFollow(count, linesOf, height);
  const collect = (from: Position): { lines: string[]; rows: number[]; overflow: boolean } => {
    const lines: string[] = [];
    const rows: number[] = [];
    for (let b = from.block; b < count; b++) {
      const bl = linesOf(b);
      for (let l = b === from.block ? from.line : 0; l < bl.length; l++) {
        if (lines.length === height) return { lines, rows, overflow: true };
        lines.push(bl[l]!);
        rows.push(b);
      }
    }
    return { lines, rows, overflow: false };
  };
  let next = scroll;
  let top = scroll.top ?? { block: 0, line: 0 };
  if (count > 0 && top.block >= count) top = backFromEnd(count, linesOf, height);
  let view = collect(top);
  if (scroll.follow && view.overflow) {
    // The newest line stays at the bottom (issue 28, item 9): a half-page jump left up to half
    // the pane blank under it while a reply streamed or a command's live tail ran.
    top = backFromEnd(count, linesOf, height);
    view = collect(top);
    next = { follow: true, top };
  } else if (!scroll.follow) {
    next = { follow: false, top };
  }
  const atEnd = !view.overflow;
  while (view.lines.length < height) {
    view.lines.push("");
    view.rows.push(-1);
  }
  return { lines: view.lines, scroll: next, rowBlocks: view.rows, atEnd };
}

/** A fresh follow view (after a resize or a task switch): the end at the bottom, the pane full. */
export function settleFollow(count: number, linesOf: LinesOf, height: number): Scroll {
  let total = 0;
  for (let b = count - 1; b >= 0 && total <= height; b--) total += linesOf(b).length;
  return total <= height ? followScroll() : { follow: true, top: backFromEnd(count, linesOf, height) };
}

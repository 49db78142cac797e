// The lines of one streaming message, kept up to date at the cost of what changed: finished
// blocks are rendered once and cached (unwrapped, so a resize only re-wraps them), and each delta
// redraws only the unfinished tail, whose complete lines are cached too.
import { layoutBlock, layoutLine, type RenderedBlock } from "./markdown-layout.js";
import { CHEAP_START, renderCheapLine, type CheapState } from "./markdown-cheap.js";
import { rendererGeneration, renderUnwrapped, tailSource, type MarkdownStyles } from "./markdown.js";
import { scanBlocks } from "./markdown-split.js";

/** Options of {@link IncrementalMarkdown}. */
export interface IncrementalOptions {
  /** Highlight fenced code once the full renderer has loaded. Default true. */
  highlight?: boolean;
}

interface Entry {
  block: string;
  rendered: RenderedBlock;
  /** rendererGeneration() and highlight flag the block was rendered under. */
  generation: number;
  highlight: boolean;
  /** `rendered` laid out at `width`. */
  width: number;
  lines: string[];
}

/** The complete lines of the tail, rendered and laid out, with the state after them. */
interface TailCache {
  prefix: string;
  state: CheapState;
  lines: string[];
  lastBlank: boolean;
}

/** Whether `text` starts with `prefix`; slice and === compare in bulk, startsWith char by char (~4x slower). */
function startsWithFast(text: string, prefix: string): boolean {
  return text.length >= prefix.length && text.slice(0, prefix.length) === prefix;
}

/**
 * Contract: `update` is called with the whole text of the message so far, which normally only
 * grows; any other change is detected (the finished part no longer matches) and handled by
 * starting over. The returned array is not mutated afterwards, and is the same array when
 * nothing changed.
 */
export class IncrementalMarkdown {
  /** Highlight fenced code; changing it re-renders the finished code blocks on the next update. */
  highlight: boolean;
  /** Finished blocks rendered (marked or the cheap renderer), re-renders included. */
  blocksRendered = 0;
  /** Finished blocks re-wrapped from their cached render after a width change. */
  blocksRewrapped = 0;
  /** Updates that redrew the unfinished tail. */
  tailRenders = 0;
  /** Tail source lines run through the cheap renderer (complete lines are cached). */
  tailLinesRendered = 0;

  private entries: Entry[] = [];
  private final: Entry | null = null;
  private committed = ""; // the text up to the end of the last finished block
  private scanFrom = 0;
  private width = 0;
  private text = "";
  private done = false;
  private generation = rendererGeneration();
  private renderedHighlight: boolean;
  private stableLines: string[] = [];
  private tail: TailCache | null = null;
  private result: string[] = [];

  constructor(
    private readonly styles: MarkdownStyles,
    opts: IncrementalOptions = {},
  ) {
    this.highlight = opts.highlight ?? true;
    this.renderedHighlight = this.highlight;
  }

  /** Lines of the message as last returned by {@link update}. */
  get lineCount(): number {
    return this.result.length;
  }

  /**
   * All lines of the message for `fullText` at `width`. With `done`, the unfinished tail is
   * rendered as a finished block (the message is complete).
   */
  update(fullText: string, width: number, done = false): string[] {
    const w = Math.max(1, Math.floor(width));
    const generation = rendererGeneration();
    const stale = generation !== this.generation || this.highlight !== this.renderedHighlight;
    if (fullText === this.text && w === this.width && done === this.done && !stale) return this.result;
    if (!startsWithFast(fullText, this.committed)) this.reset();
    let rebuild = false;
    if (stale) {
      // Blocks drawn by the cheap renderer before loading (or with the other highlight
      // setting) are rendered again, once.
      this.generation = generation;
      this.renderedHighlight = this.highlight;
      for (const e of this.entries)
        if (e.generation !== generation || e.highlight !== this.highlight) this.render(e, w);
      rebuild = true;
    }
    if (w !== this.width) {
      for (const e of this.entries) this.layout(e, w);
      this.width = w;
      this.tail = null;
      rebuild = true;
    }
    if (rebuild) this.stableLines = this.joinEntries();
    const scan = scanBlocks(fullText, this.scanFrom);
    for (const block of scan.blocks) {
      const e = this.render(
        { block, rendered: { lines: [], tables: [] }, generation, highlight: this.highlight, width: w, lines: [] },
        w,
      );
      this.entries.push(e);
      if (e.lines.length > 0 && this.stableLines.length > 0) this.stableLines.push("");
      for (const line of e.lines) this.stableLines.push(line);
    }
    if (scan.blocks.length > 0) {
      this.scanFrom = scan.tailStart;
      this.committed = fullText.slice(0, scan.tailStart);
    }
    const rest = fullText.slice(this.scanFrom);
    const tailLines = done ? this.finalLines(rest, w, generation) : this.tailLines(rest, w);
    this.text = fullText;
    this.done = done;
    this.result =
      tailLines.length === 0
        ? this.stableLines.slice()
        : this.stableLines.length === 0
          ? tailLines
          : this.stableLines.concat("", tailLines);
    return this.result;
  }

  private reset(): void {
    this.entries = [];
    this.final = null;
    this.committed = "";
    this.scanFrom = 0;
    this.stableLines = [];
    this.tail = null;
  }

  private render(e: Entry, width: number): Entry {
    e.rendered = renderUnwrapped(e.block, this.styles, this.highlight);
    e.generation = rendererGeneration();
    e.highlight = this.highlight;
    this.blocksRendered++;
    e.width = width;
    e.lines = layoutBlock(e.rendered, width, this.styles);
    return e;
  }

  private layout(e: Entry, width: number): void {
    if (e.width === width) return;
    e.width = width;
    e.lines = layoutBlock(e.rendered, width, this.styles);
    this.blocksRewrapped++;
  }

  private joinEntries(): string[] {
    const out: string[] = [];
    for (const e of this.entries) {
      if (e.lines.length > 0 && out.length > 0) out.push("");
      for (const line of e.lines) out.push(line);
    }
    return out;
  }

  /** The tail of a complete message, as a finished block (cached until it changes). */
  private finalLines(rest: string, width: number, generation: number): string[] {
    const block = rest.replace(/^(?:[ \t]*\r?\n)+/, "").replace(/\s+$/, "");
    if (block === "") return [];
    const f = this.final;
    if (f && f.block === block && f.generation === generation && f.highlight === this.highlight) {
      if (f.width !== width) this.layout(f, width);
      return f.lines;
    }
    this.final = this.render(
      { block, rendered: { lines: [], tables: [] }, generation, highlight: this.highlight, width, lines: [] },
      width,
    );
    return this.final.lines;
  }

  /**
   * The unfinished tail, as renderOpenTail would draw it, re-rendering only the line being
   * written: complete lines are cached with the renderer state after them.
   */
  private tailLines(rest: string, width: number): string[] {
    const src = tailSource(rest);
    if (src === "") return [];
    this.tailRenders++;
    let cache = this.tail;
    if (!cache || !startsWithFast(src, cache.prefix))
      cache = { prefix: "", state: CHEAP_START, lines: [], lastBlank: true };
    const cut = src.lastIndexOf("\n") + 1;
    if (cut > cache.prefix.length) {
      const lines = cache.lines.slice();
      let { state, lastBlank } = cache;
      for (const line of src.slice(cache.prefix.length, cut - 1).split("\n")) {
        const r = this.cheapLine(line, state, lastBlank, width);
        state = r.state;
        lastBlank = r.lastBlank;
        for (const l of r.lines) lines.push(l);
      }
      cache = { prefix: src.slice(0, cut), state, lines, lastBlank };
    }
    this.tail = cache;
    const out = cache.lines.concat(this.cheapLine(src.slice(cut), cache.state, cache.lastBlank, width).lines);
    while (out.length > 0 && out[out.length - 1] === "") out.pop();
    return out;
  }

  /** One tail line, with renderCheap's rule that blank lines outside a fence collapse. */
  private cheapLine(
    line: string,
    state: CheapState,
    lastBlank: boolean,
    width: number,
  ): { lines: string[]; state: CheapState; lastBlank: boolean } {
    this.tailLinesRendered++;
    const r = renderCheapLine(line, state, this.styles);
    if (r.out === null) return { lines: [], state: r.state, lastBlank };
    if (r.out === "" && r.state.fence === null)
      return { lines: lastBlank ? [] : [""], state: r.state, lastBlank: true };
    return { lines: layoutLine(r.out, width, this.styles), state: r.state, lastBlank: false };
  }
}

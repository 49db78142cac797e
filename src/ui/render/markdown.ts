// Markdown blocks to terminal lines. The full renderer (marked, marked-terminal, cli-highlight)
// loads on demand through loadMarkdown(); until then a cheap built-in renderer draws the same
// blocks, and it always draws the unfinished tail of a streaming message.
import type { ChalkInstance } from "chalk";
import { renderCheap } from "./markdown-cheap.js";
import { layoutBlock, sanitizeSource, type RenderedBlock } from "./markdown-layout.js";
import { splitAll } from "./markdown-split.js";

export type StyleFn = (s: string) => string;

/**
 * Syntax highlighting styles by highlight.js token class ("keyword", "string", "comment",
 * "title", ...); a class without an entry is left plain.
 */
export type SyntaxStyles = Readonly<Record<string, StyleFn>>;

/** The looks Markdown is drawn with; the app derives them from its theme. */
export interface MarkdownStyles {
  /** Headings of level 2 and below. */
  heading: StyleFn;
  /** A level-1 heading: set apart from the others (underlined in the built-in themes); default `heading`. */
  heading1?: StyleFn;
  strong: StyleFn;
  em: StyleFn;
  /** Inline code. */
  code: StyleFn;
  /** A fenced code line when it is not highlighted. */
  codeBlock: StyleFn;
  /** The URL of a link (its text is drawn as ordinary text). */
  link: StyleFn;
  /** Block-quote text. */
  quote: StyleFn;
  listBullet: StyleFn;
  /**
   * A task-list item's box (`- [ ]`, `- [x]`), drawn in place of its bullet; default `[ ]` and
   * `[x]` (the app draws `☐`/`☑`, and `[ ]`/`[x]` where the terminal has no Unicode).
   */
  taskBox?: (checked: boolean) => string;
  hr: StyleFn;
  tableBorder: StyleFn;
  /** Secondary text: quote bars, raw HTML, the code of an open fence. */
  dim: StyleFn;
  /** Code highlighting; none means highlighted code is drawn plain. */
  syntax?: SyntaxStyles;
}

/** Options of {@link renderBlock} and {@link renderOpenTail}. */
export interface RenderOptions {
  /** Columns available; every returned line fits. */
  width: number;
  styles: MarkdownStyles;
  /** Highlight fenced code whose language is known (only once loadMarkdown() has finished). */
  highlight: boolean;
}

const id: StyleFn = (s) => s;

/** No styling at all: for NO_COLOR and for stable test expectations. */
export const plainStyles: MarkdownStyles = {
  heading: id,
  strong: id,
  em: id,
  code: id,
  codeBlock: id,
  link: id,
  quote: id,
  listBullet: id,
  hr: id,
  tableBorder: id,
  dim: id,
};

/** ANSI named colours only, so it reads in 16-colour terminals and over SSH. */
export function defaultStyles(chalk: ChalkInstance): MarkdownStyles {
  return {
    heading: chalk.bold,
    heading1: chalk.bold.underline,
    strong: chalk.bold,
    em: chalk.italic,
    code: chalk.cyan,
    codeBlock: id,
    link: chalk.cyan.underline,
    quote: chalk.italic,
    listBullet: chalk.dim,
    hr: chalk.dim,
    tableBorder: chalk.dim,
    dim: chalk.dim,
    syntax: {
      keyword: chalk.magenta,
      built_in: chalk.cyan,
      type: chalk.cyan,
      literal: chalk.yellow,
      number: chalk.yellow,
      string: chalk.green,
      regexp: chalk.red,
      comment: chalk.dim,
      doctag: chalk.dim,
      meta: chalk.dim,
      title: chalk.blue,
      function: chalk.blue,
      class: chalk.blue,
      attr: chalk.cyan,
      attribute: chalk.cyan,
      tag: chalk.blue,
      name: chalk.blue,
      "selector-tag": chalk.blue,
      addition: chalk.green,
      deletion: chalk.red,
      section: chalk.bold,
    },
  };
}

/** The full renderer's entry point, present once loadMarkdown() has finished. */
export type FullRenderer = (block: string, styles: MarkdownStyles, highlight: boolean) => RenderedBlock;

let full: FullRenderer | null = null;
let loading: Promise<void> | null = null;
let generation = 0;

/**
 * Loads marked, marked-terminal and the highlighter and warms them up (about 0.2 s, so call it
 * after the first frame, never on the start-up path). Resolves once blocks render in full; safe
 * to call many times. If loading fails, the promise rejects and rendering stays cheap.
 */
export function loadMarkdown(): Promise<void> {
  loading ??= import("./markdown-marked.js").then((m) => {
    // Syntax styles present, so the highlighter is warmed up too.
    m.warmUp({ ...plainStyles, syntax: { keyword: id } });
    full = m.renderFull;
    generation++;
  });
  return loading;
}

/** Whether loadMarkdown() has finished. */
export function isMarkdownLoaded(): boolean {
  return full !== null;
}

/** Changes when the renderer changes (0 before loading): renders made under another are stale. */
export function rendererGeneration(): number {
  return generation;
}

/**
 * A block rendered independently of the width (see layoutBlock); the full renderer once loaded,
 * else the cheap one.
 */
export function renderUnwrapped(block: string, styles: MarkdownStyles, highlight: boolean): RenderedBlock {
  const src = sanitizeSource(block);
  if (!full) return renderCheap(src, styles);
  try {
    return full(src, styles, highlight);
  } catch {
    // Model output is arbitrary text: a parser bug must cost one block its looks, not the UI.
    return renderCheap(src, styles);
  }
}

/** Renders one finished block to lines no wider than `opts.width`. */
export function renderBlock(block: string, opts: RenderOptions): string[] {
  return layoutBlock(renderUnwrapped(block, opts.styles, opts.highlight), opts.width, opts.styles);
}

/**
 * The part of a tail worth drawing: no leading blank lines, and the line being written only
 * once it holds something (so a fresh newline does not flash an empty line).
 */
export function tailSource(tail: string): string {
  const src = sanitizeSource(tail).replace(/^(?:[ \t]*\n)+/, "");
  const cut = src.lastIndexOf("\n");
  return src.slice(cut + 1).trim() === "" ? src.slice(0, Math.max(cut, 0)) : src;
}

/** Renders the unfinished tail cheaply: an open fence as plain dim text, the rest line by line. */
export function renderOpenTail(tail: string, opts: RenderOptions): string[] {
  const src = tailSource(tail);
  return src === "" ? [] : layoutBlock(renderCheap(src, opts.styles), opts.width, opts.styles);
}

/** Renders a whole finished message: its blocks separated by one blank line. */
export function renderMarkdown(text: string, opts: RenderOptions): string[] {
  const out: string[] = [];
  for (const block of splitAll(text)) {
    const lines = renderBlock(block, opts);
    if (out.length > 0 && lines.length > 0) out.push("");
    for (const line of lines) out.push(line);
  }
  return out;
}

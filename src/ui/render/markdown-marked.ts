// The full Markdown renderer: marked with marked-terminal, and cli-highlight for fenced code.
// Heavy to load, so only ever imported dynamically (loadMarkdown in markdown.ts).
// marked-terminal keeps headings, paragraphs and inline styles; the rest is overridden because it
// loses inline styles in tight lists, numbers every list from 1, colours tables on its own, sizes
// rules by process.stdout and emits OSC 8 links: all of which would break the layout here.
import { DEFAULT_THEME, highlight, supportsLanguage, type Theme } from "cli-highlight";
import { Marked, type RendererObject, type Tokens } from "marked";
// @ts-expect-error marked-terminal ships no types; the one function used is typed below.
import { markedTerminal as untypedMarkedTerminal } from "marked-terminal";
import { headingLine, taskBoxOf } from "./markdown-heading.js";
import type { MarkdownStyles, SyntaxStyles } from "./markdown.js";
import { CODE, RULE, TABLE, TABLE_END, type RenderedBlock, type TableData } from "./markdown-layout.js";
import { splitAnsiLines, visibleWidth } from "./wrap.js";

type StyleFn = (s: string) => string;
type MarkedTerminal = (options: Record<string, unknown>) => { renderer: RendererObject; useNewRenderer: boolean };
const markedTerminal = untypedMarkedTerminal as MarkedTerminal;

/** What the renderer callbacks need for the block being rendered (marked's parse is synchronous). */
interface Context {
  styles: MarkdownStyles;
  highlight: boolean;
  tables: TableData[];
}
let ctx: Context | null = null;

function current(): Context {
  if (!ctx) throw new Error("markdown renderer used outside renderFull");
  return ctx;
}

const style =
  (pick: (s: MarkdownStyles) => StyleFn): StyleFn =>
  (s) =>
    pick(current().styles)(s);

const identity: StyleFn = (s) => s;

function unescapeEntities(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e] ?? _,
  );
}

// cli-highlight falls back to its own colours for classes a theme leaves out, so every class it
// knows gets an entry: the app's style or none.
const themes = new WeakMap<SyntaxStyles, Theme>();
function themeFor(syntax: SyntaxStyles): Theme {
  let theme = themes.get(syntax);
  if (!theme) {
    const entries = Object.keys(DEFAULT_THEME).map((k) => [k, syntax[k] ?? identity]);
    theme = { ...Object.fromEntries(entries), default: identity } as Theme;
    themes.set(syntax, theme);
  }
  return theme;
}

function codeLines(text: string, lang: string | undefined): string[] {
  const { styles, highlight: wanted } = current();
  const language = (lang ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  if (wanted && styles.syntax && language !== "" && supportsLanguage(language)) {
    try {
      const theme = themeFor(styles.syntax);
      return splitAnsiLines(highlight(text, { language, ignoreIllegals: true, theme })).map((l) => `  ${CODE}${l}`);
    } catch {
      // A grammar that throws on odd input: show the code plain rather than not at all.
    }
  }
  return text.split("\n").map((l) => `  ${CODE}${styles.codeBlock(l)}`);
}

/** A rendered child, trimmed of the blank lines marked-terminal leaves after each section. */
function trimBlock(s: string): string {
  return s.replace(/\n{3,}/g, "\n\n").replace(/^\n+|\s+$/g, "");
}

const overrides: RendererObject = {
  code(token: Tokens.Code) {
    return `${codeLines(token.text, token.lang).join("\n")}\n\n`;
  },
  text(token: Tokens.Text | Tokens.Escape) {
    // Block-level text (a tight list item) carries inline tokens that marked-terminal ignores.
    if ("tokens" in token && token.tokens) return unescapeEntities(this.parser.parseInline(token.tokens));
    return token.text;
  },
  codespan(token: Tokens.Codespan) {
    return current().styles.code(token.text);
  },
  link(token: Tokens.Link) {
    const text = this.parser.parseInline(token.tokens);
    const { styles } = current();
    const plain = text.replace(/\x1b\[[0-9;]*m/g, "");
    if (plain === "" || plain === token.href || `mailto:${plain}` === token.href)
      return styles.link(plain || token.href);
    return `${text} (${styles.link(token.href)})`;
  },
  image(token: Tokens.Image) {
    const { styles } = current();
    return `${styles.dim(`[image: ${token.text || "untitled"}]`)} (${styles.link(token.href)})`;
  },
  heading(token: Tokens.Heading) {
    const text = unescapeEntities(this.parser.parseInline(token.tokens));
    return `${headingLine(text, token.depth, current().styles)}\n\n`;
  },
  hr() {
    return `${RULE}\n\n`;
  },
  blockquote(token: Tokens.Blockquote) {
    const { styles } = current();
    const body = splitAnsiLines(trimBlock(this.parser.parse(token.tokens)));
    // Nested quotes already start with their own bar, which keeps its look.
    return `${body.map((l) => `${styles.dim("│")} ${l.startsWith(styles.dim("│")) ? l : styles.quote(l)}`.trimEnd()).join("\n")}\n\n`;
  },
  list(token: Tokens.List) {
    const { styles } = current();
    let n = typeof token.start === "number" ? token.start : 1;
    const items = token.items.map((item) => {
      // A task item's box stands in for the bullet (an ordered item keeps its number before it).
      const box = item.task ? `${taskBoxOf(styles, item.checked === true)} ` : "";
      const marker = token.ordered ? `${n++}.` : box ? "" : "•";
      const head = `${marker ? `${styles.listBullet(marker)} ` : ""}${box}`;
      // Token by token: marked joins a tight item's text and a nested list with no line break.
      const parts = item.tokens.map((t) => trimBlock(this.parser.parse([t], item.loose))).filter((p) => p !== "");
      const body = splitAnsiLines(parts.join(item.loose ? "\n\n" : "\n"));
      const pad = " ".repeat((marker ? marker.length + 1 : 0) + visibleWidth(box));
      return body.map((l, k) => (k === 0 ? `${head}${l}` : l === "" ? "" : pad + l)).join("\n");
    });
    return `${items.join(token.loose ? "\n\n" : "\n")}\n\n`;
  },
  table(token: Tokens.Table) {
    const { tables } = current();
    const cell = (c: Tokens.TableCell): string =>
      unescapeEntities(this.parser.parseInline(c.tokens)).replace(/\n/g, " ");
    tables.push({ header: token.header.map(cell), rows: token.rows.map((r) => r.map(cell)), align: token.align });
    return `${TABLE}${tables.length - 1}${TABLE_END}\n\n`;
  },
};

const marked = new Marked({ gfm: true }).use(
  markedTerminal({
    heading: style((s) => s.heading),
    firstHeading: style((s) => s.heading),
    strong: style((s) => s.strong),
    em: style((s) => s.em),
    del: style((s) => s.dim),
    html: style((s) => s.dim),
    paragraph: identity,
    text: identity,
    showSectionPrefix: false,
    reflowText: false,
    // Off: it appends a space after each emoji, and the cheap renderer shows shortcodes as typed.
    emoji: false,
    unescape: true,
    tab: 2,
  }),
  { renderer: overrides },
);

/** Renders one block in full; see FullRenderer in markdown.ts. */
export function renderFull(block: string, styles: MarkdownStyles, highlightCode: boolean): RenderedBlock {
  const outer = ctx;
  ctx = { styles, highlight: highlightCode, tables: [] };
  try {
    const out = marked.parse(block, { async: false });
    const lines = splitAnsiLines(trimBlock(out));
    return { lines: lines.length === 1 && lines[0] === "" ? [] : lines, tables: ctx.tables };
  } finally {
    ctx = outer;
  }
}

const WARM_UP =
  "# h\n\np **b** *i* `c` [l](http://x)\n\n- a\n  1. b\n\n> q\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n---\n\n```ts\nconst a = 1;\n```\n";

/**
 * Renders a small document once so marked's regexes are compiled and highlight.js is set up
 * before the first real message: the first render costs several times the later ones.
 */
export function warmUp(styles: MarkdownStyles): void {
  renderFull(WARM_UP, styles, true);
  visibleWidth("🚀"); // string-width compiles its emoji regexes on first use (~50 ms)
}

// The cheap Markdown renderer: one regex pass per line, no parser. It draws blocks before the
// full renderer has loaded and always draws the unfinished tail, which changes on every delta.
import type { MarkdownStyles } from "./markdown.js";
import { headingLine, taskBoxOf } from "./markdown-heading.js";
import { CODE, RULE, type RenderedBlock } from "./markdown-layout.js";
import { closesFence, fenceOpener } from "./markdown-split.js";

/** Where a line-by-line render stands: inside a fence or not. */
export interface CheapState {
  fence: { char: "`" | "~"; len: number; indent: number } | null;
}

export const CHEAP_START: CheapState = { fence: null };

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE_LINE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(?:\[([ xX])\][ \t]+)?(.*)$/;
const QUOTE = /^[ \t]*>[ \t]?(.*)$/;
const TABLE_RULE = /^[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?$/;
// Code spans first so their content is left alone; then strong, emphasis and links.
const INLINE =
  /(`+)(.+?)\1(?!`)|\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__|(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])|(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Inline code, strong, emphasis and links in one line of text. */
export function cheapInline(s: string, styles: MarkdownStyles): string {
  if (!/[`*_[]/.test(s)) return s;
  return s.replace(
    INLINE,
    (
      whole,
      _ticks: string | undefined,
      code?: string,
      b1?: string,
      b2?: string,
      e1?: string,
      e2?: string,
      text?: string,
      url?: string,
    ) => {
      if (code !== undefined) return styles.code(code.trim() === "" ? code : code.trim());
      const bold = b1 ?? b2;
      if (bold !== undefined) return styles.strong(bold);
      const em = e1 ?? e2;
      if (em !== undefined) return styles.em(em);
      if (text !== undefined && url !== undefined)
        return text === url ? styles.link(url) : `${text} (${styles.link(url)})`;
      return whole;
    },
  );
}

/** Renders one source line; `null` for lines that draw nothing (fence markers). */
export function renderCheapLine(
  line: string,
  state: CheapState,
  styles: MarkdownStyles,
): { out: string | null; state: CheapState } {
  const { fence } = state;
  if (fence) {
    if (closesFence(line, fence)) return { out: null, state: CHEAP_START };
    let cut = 0;
    while (cut < fence.indent && line[cut] === " ") cut++;
    return { out: `${" ".repeat(fence.indent)}  ${CODE}${styles.dim(line.slice(cut))}`, state };
  }
  const opener = fenceOpener(line);
  if (opener) return { out: null, state: { fence: opener } };
  const text = line.replace(/[ \t]+$/, "");
  if (text === "") return { out: "", state };
  const h = HEADING.exec(text);
  if (h) return { out: headingLine(cheapInline(h[2] ?? "", styles).trimEnd(), (h[1] ?? "#").length, styles), state };
  if (RULE_LINE.test(text)) return { out: RULE, state };
  const item = ITEM.exec(text);
  if (item) {
    const marker = item[2] ?? "-";
    const ordered = /\d/.test(marker);
    const box = item[3] === undefined ? "" : `${taskBoxOf(styles, item[3] !== " ")} `;
    // A task item's box stands in for the bullet, as in the full renderer.
    const head = ordered
      ? `${styles.listBullet(`${marker.slice(0, -1)}.`)} ${box}`
      : box || `${styles.listBullet("•")} `;
    return { out: `${item[1] ?? ""}${head}${cheapInline(item[4] ?? "", styles)}`, state };
  }
  const q = QUOTE.exec(text);
  if (q) {
    let body = q[1] ?? "";
    let bars = styles.dim("│") + " ";
    for (let m = QUOTE.exec(body); m; m = QUOTE.exec(body)) (body = m[1] ?? ""), (bars += styles.dim("│") + " ");
    return { out: bars + styles.quote(cheapInline(body, styles)), state };
  }
  if (TABLE_RULE.test(text) && text.includes("-")) return { out: styles.tableBorder(text), state };
  return { out: cheapInline(text, styles), state };
}

/** Renders a block line by line; consecutive blank lines collapse to one. */
export function renderCheap(src: string, styles: MarkdownStyles): RenderedBlock {
  const lines: string[] = [];
  let state = CHEAP_START;
  for (const line of src.split("\n")) {
    const r = renderCheapLine(line, state, styles);
    state = r.state;
    if (r.out === null) continue;
    if (r.out === "" && state.fence === null && (lines.length === 0 || lines[lines.length - 1] === "")) continue;
    lines.push(r.out);
  }
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return { lines, tables: [] };
}

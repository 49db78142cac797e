// Fits a rendered Markdown block to a width: the width-independent render keeps markers where
// the layout depends on the width (code lines, rules, tables), so a resize re-wraps without
// re-parsing. Shared by the full (marked) and the cheap renderer.
import type { MarkdownStyles } from "./markdown.js";
import { padToWidth, truncateToWidth, visibleWidth, wrapLine } from "./wrap.js";

/** Marks the rest of the line as code: cut anywhere (never at words), prefix repeated. */
export const CODE = "\uE000";
/** A horizontal rule: filled to the width. */
export const RULE = "\uE001";
/** `TABLE + index + TABLE_END`: table `index` of the block, laid out to the width. */
export const TABLE = "\uE002";
export const TABLE_END = "\uE003";
const MARKERS = /[\uE000-\uE003]/g;

/** A table with its cells already rendered (inline styles applied). */
export interface TableData {
  header: string[];
  rows: string[][];
  align: ("left" | "right" | "center" | null)[];
}

/** A block rendered independently of the width. */
export interface RenderedBlock {
  lines: string[];
  tables: TableData[];
}

/** Removes characters the renderers use as markers, and controls that would corrupt the screen. */
export function sanitizeSource(text: string): string {
  return text.replace(MARKERS, "").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}

const ANSI = /\x1b\[[0-9;:]*m|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
const stripAnsi = (s: string): string => (s.includes("\x1b") ? s.replace(ANSI, "") : s);

// Leading container decoration (indent, quote bars) repeated on continuation lines, then a list
// marker whose width is indented under.
const DECORATION = /^([ │]*)((?:[•◦▪]|\d+\.)[ ]+(?:\[[ x]\][ ]+)?)?/;

/** The prefix for continuation lines of a prose line: its quote bars and indentation. */
function continuation(line: string, styles: MarkdownStyles): string {
  const m = DECORATION.exec(stripAnsi(line));
  if (!m || m[0] === "") return "";
  const deco = (m[1] ?? "").replace(/│/g, styles.dim("│"));
  return deco + " ".repeat((m[2] ?? "").length);
}

/** Fits one rendered line to `width`; `tables` resolves table markers. */
export function layoutLine(
  line: string,
  width: number,
  styles: MarkdownStyles,
  tables: readonly TableData[] = [],
): string[] {
  const at = line.search(MARKERS);
  if (at < 0) {
    if (visibleWidth(line) <= width) return [line];
    return wrapLine(line, width, { words: true, indent: continuation(line, styles) });
  }
  let prefix = line.slice(0, at);
  // A deeply nested block in a narrow pane gives up its indentation rather than its content.
  if (visibleWidth(prefix) * 2 > width) prefix = "";
  const room = width - visibleWidth(prefix);
  const marker = line[at];
  if (marker === RULE) return [prefix + styles.hr("─".repeat(room))];
  if (marker === TABLE) {
    const index = Number.parseInt(line.slice(at + 1), 10);
    const table = tables[index];
    return table ? layoutTable(table, room, styles).map((l) => prefix + l) : [];
  }
  return wrapLine(line.slice(at + 1), room).map((l) => prefix + l);
}

/** Fits a whole rendered block to `width`. */
export function layoutBlock(block: RenderedBlock, width: number, styles: MarkdownStyles): string[] {
  const out: string[] = [];
  for (const line of block.lines) for (const l of layoutLine(line, width, styles, block.tables)) out.push(l);
  return out;
}

/**
 * Column widths: every column gets its natural width when the table fits; otherwise the space
 * is shared out narrowest-first, so short columns stay whole and long ones wrap.
 */
function columnWidths(natural: number[], room: number): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= room) return natural;
  const widths = natural.slice();
  const order = natural.map((w, i) => ({ w, i })).sort((a, b) => a.w - b.w);
  let left = room;
  order.forEach(({ w, i }, k) => {
    const share = Math.max(1, Math.floor(left / (order.length - k)));
    widths[i] = Math.min(w, share);
    left -= widths[i] ?? 0;
  });
  return widths;
}

/** Draws a table in box characters within `width`, or as "header: value" lines when too narrow. */
export function layoutTable(table: TableData, width: number, styles: MarkdownStyles): string[] {
  const cols = Math.max(table.header.length, ...table.rows.map((r) => r.length));
  const cell = (row: readonly string[], c: number): string => row[c] ?? "";
  const chrome = 3 * cols + 1; // "│ " + " │ " between columns + " │"
  if (cols === 0) return [];
  const natural = Array.from({ length: cols }, (_, c) =>
    Math.max(1, visibleWidth(cell(table.header, c)), ...table.rows.map((r) => visibleWidth(cell(r, c)))),
  );
  const widths = columnWidths(natural, width - chrome);
  // Columns squeezed below a few characters read as letter soup: list the cells instead.
  if (widths.some((w, c) => w < Math.min(natural[c] ?? 1, 6))) return stackedTable(table, cols, width, styles);
  const border = (l: string, m: string, r: string): string =>
    styles.tableBorder(l + widths.map((w) => "─".repeat(w + 2)).join(m) + r);
  const bar = styles.tableBorder("│");
  const row = (cells: readonly string[], head: boolean): string[] => {
    const wrapped = widths.map((w, c) => wrapLine(cell(cells, c), w, { words: true }));
    const height = Math.max(...wrapped.map((l) => l.length));
    const lines: string[] = [];
    for (let k = 0; k < height; k++) {
      const parts = wrapped.map((l, c) => {
        const text = padToWidth(l[k] ?? "", widths[c] ?? 1, head ? "left" : (table.align[c] ?? "left"));
        return head && text.trim() !== "" ? styles.strong(text) : text;
      });
      lines.push(`${bar} ${parts.join(` ${bar} `)} ${bar}`);
    }
    return lines;
  };
  return [
    border("┌", "┬", "┐"),
    ...row(table.header, true),
    border("├", "┼", "┤"),
    ...table.rows.flatMap((r) => row(r, false)),
    border("└", "┴", "┘"),
  ];
}

/** The narrow-pane form of a table: one "header: value" line per cell, rows separated by rules. */
function stackedTable(table: TableData, cols: number, width: number, styles: MarkdownStyles): string[] {
  if (table.rows.length === 0) return wrapLine(table.header.map(styles.strong).join(", "), width, { words: true });
  const out: string[] = [];
  table.rows.forEach((r, k) => {
    if (k > 0) out.push(styles.tableBorder("─".repeat(Math.max(1, Math.min(width, 20)))));
    for (let c = 0; c < cols; c++) {
      const head = truncateToWidth(table.header[c] ?? "", Math.max(1, width - 2));
      out.push(...wrapLine(`${styles.strong(head)}: ${r[c] ?? ""}`, width, { words: true, indent: 2 }));
    }
  });
  return out;
}

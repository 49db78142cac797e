// The rows of a selectable list (SelectList.tsx draws them; the first frame uses them as text):
// a two-column gutter with "›" on the selected item, the selection's style, and a window of the
// rows that keeps the whole selected item in view. "›" marks the row in every terminal, NO_COLOR
// included; under a non-UTF-8 locale it becomes ">" with the rest (render/ascii.ts).
import { padToWidth, truncateToWidth } from "../render/wrap.js";
import { SELECTION_MARK, type Palette } from "../theme/palette.js";

export interface SelectListModel {
  /** Each item's rows (one string: one row; a turn of /rewind has two). */
  items: readonly (string | readonly string[])[];
  /** The selected item; out of range: none. */
  selected: number;
  /** Rows the list takes at most. */
  height: number;
  /** False while a field beside it has the keys: the selection keeps its style, not its mark. Default true. */
  focused?: boolean;
  /** Shown dimmed when there are no items. */
  empty?: string;
}

/** Columns an item's text gets in a list `width` wide (the gutter takes two). */
export const listTextWidth = (width: number): number => Math.max(1, width - 2);

/** The rows the list takes: all its rows up to `height`, at least one. */
export function selectListHeight(m: SelectListModel): number {
  const rows = m.items.reduce<number>((n, item) => n + (typeof item === "string" ? 1 : Math.max(1, item.length)), 0);
  return Math.max(1, Math.min(m.height, rows));
}

/** The list as width-exact rows, at most `m.height` of them. */
export function selectListLines(p: Palette, m: SelectListModel, width: number): string[] {
  const height = Math.max(1, m.height);
  if (m.items.length === 0)
    return m.empty ? [padToWidth(p.dim(truncateToWidth(m.empty, width)), width)] : [" ".repeat(width)];
  const text = listTextWidth(width);
  const focused = m.focused ?? true;
  const rows: string[] = [];
  let first = 0;
  let last = 0;
  m.items.forEach((item, i) => {
    const lines = typeof item === "string" ? [item] : item.length ? item : [""];
    const selected = i === m.selected;
    if (selected) first = rows.length;
    lines.forEach((line, k) => {
      const gutter = selected && focused && k === 0 ? `${SELECTION_MARK} ` : "  ";
      const row = padToWidth(gutter + truncateToWidth(line, text), width);
      rows.push(selected ? p.selectionStyle(row) : row);
    });
    if (selected) last = rows.length - 1;
  });
  if (rows.length <= height) return rows;
  // The selected item whole, centred where it can be.
  const size = last - first + 1;
  const offset = Math.max(0, Math.min(rows.length - height, first - Math.floor((height - Math.min(size, height)) / 2)));
  return rows.slice(offset, offset + height);
}

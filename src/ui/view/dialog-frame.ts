// What a dialog draws, as data: a title, body parts (rows of text, a selectable list, a text
// field) and a footer of keys. `placeDialog` fits the parts to the area; `dialogText` turns them
// into width-exact lines (the first frame, drawn before Ink loads); components/DialogFrame.tsx
// draws the same placement with one component per part, so both show the same screen.
import { createEditor, layout } from "../input/editor.js";
import { padToWidth, truncateToWidth, visibleWidth } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";
import { plainLine } from "./linear-cards.js";
import { selectListHeight, selectListLines, type SelectListModel } from "./select-list.js";

/**
 * A one-line (or, for a memory's text, wrapped) text field. While focused it is an ink-text-input
 * (components/TextField.tsx) that takes the keys the dialog routes to it (`ctl.fields`) and tells
 * the dialog what was typed (`onChange`) and when Enter was pressed (`onSubmit`).
 */
export interface FieldModel {
  value: string;
  focused: boolean;
  /** Shown dimmed while the field is empty. */
  placeholder?: string;
  /** Rows at most (default 1), kept around the cursor. */
  maxRows?: number;
  onChange?(value: string): void;
  onSubmit?(): void;
}

export type DialogPart =
  /** Rows of text, drawn as they are (cut to the width). */
  | { kind: "lines"; lines: readonly string[] }
  | { kind: "list"; list: SelectListModel }
  | { kind: "field"; field: FieldModel };

/**
 * A dialog's drawing. `area`: the dialog draws the whole area itself (a subagent's live view) and
 * gives exactly `height` width-exact lines.
 */
export type DialogView = { title: string; body: DialogPart[]; footer: string } | { area: string[] };

/** A dialog that is one list under its title: its rows, the selection, and what it says when empty. */
export function listDialog(
  title: string,
  items: string[],
  index: number,
  height: number,
  empty: string,
  footer: string,
): DialogView {
  const list = { items, selected: Math.min(index, items.length - 1), height: Math.max(1, height - 2), empty };
  return { title, body: [{ kind: "list", list }], footer };
}

/** A part with the rows it got. */
export type PlacedPart = DialogPart & { rows: number };

/** Each part with the rows it gets: in order, each taking what it needs of what is left. */
export function placeDialog(
  p: Palette,
  body: readonly DialogPart[],
  width: number,
  height: number,
): { parts: PlacedPart[]; blank: number } {
  let room = Math.max(0, height - 2);
  const inner = Math.max(4, width - 2);
  const parts: PlacedPart[] = [];
  for (const part of body) {
    if (room <= 0) break;
    const need =
      part.kind === "lines"
        ? part.lines.length
        : part.kind === "list"
          ? selectListHeight(part.list)
          : fieldLines(p, part.field, inner).length;
    const rows = Math.min(need, room);
    if (rows > 0) parts.push({ ...part, rows });
    room -= rows;
  }
  return { parts, blank: room };
}

/** A part's rows, `width` wide (the body's width), each width-exact. */
export function partLines(p: Palette, part: PlacedPart, width: number): string[] {
  const lines =
    part.kind === "lines"
      ? part.lines.slice(0, part.rows)
      : part.kind === "list"
        ? selectListLines(p, { ...part.list, height: part.rows }, width)
        : fieldLines(p, { ...part.field, maxRows: part.rows }, width);
  return lines.map((l) => padToWidth(truncateToWidth(l, width), width));
}

/** The dialog's title and footer rows, width-exact. */
export function dialogTitle(p: Palette, title: string, width: number): string {
  return padToWidth(p.borderFocused(truncateToWidth(title, width)), width);
}
export function dialogFooter(p: Palette, footer: string, width: number): string {
  return padToWidth(p.dim(truncateToWidth(footer, width)), width);
}

/**
 * The whole dialog as exactly `height` width-exact lines: the title, the body one column in from
 * each side, blank rows, the footer. `plain`: the screen-reader layout's ASCII rules and marks.
 */
export function dialogText(p: Palette, view: DialogView, width: number, height: number, plain = false): string[] {
  if (width <= 0 || height <= 0) return [];
  let lines: string[];
  if ("area" in view) lines = view.area.slice(0, height).map((l) => padToWidth(truncateToWidth(l, width), width));
  else {
    const inner = Math.max(1, width - 2);
    const { parts, blank } = placeDialog(p, view.body, width, height);
    lines = [dialogTitle(p, view.title, width)];
    for (const part of parts) for (const l of partLines(p, part, inner)) lines.push(padToWidth(` ${l}`, width));
    for (let i = 0; i < blank; i++) lines.push(" ".repeat(width));
    if (height >= 2) lines.push(dialogFooter(p, view.footer, width));
    lines = lines.slice(0, height);
  }
  while (lines.length < height) lines.push(" ".repeat(width));
  return plain ? lines.map(plainLine) : lines;
}

/** Puts a visible cursor mark before column `col` of a plain line (dialogs hide the terminal's). */
function markCursor(p: Palette, line: string, col: number): string {
  let at = 0;
  let width = 0;
  for (const ch of line) {
    if (width >= col) break;
    width += visibleWidth(ch);
    at += ch.length;
  }
  return line.slice(0, at) + p.accent("▏") + line.slice(at);
}

/**
 * A text field: `› ` then the text wrapped to `width`, at most `maxRows` rows around the cursor,
 * with a cursor mark. Empty, the placeholder shows instead.
 */
export function fieldLines(p: Palette, f: FieldModel, width: number): string[] {
  const room = Math.max(4, width - 3);
  // Drawn as text (the first frame, an unfocused field): the cursor stands at the end.
  const view = layout(createEditor(f.value), room);
  const empty = view.lines.length === 1 && view.lines[0] === "";
  if (empty && f.placeholder)
    return [`${p.accent("›")} ${f.focused ? p.accent("▏") : ""}${p.dim(truncateToWidth(f.placeholder, room))}`];
  const max = Math.max(1, f.maxRows ?? 1);
  const first = Math.max(0, Math.min(view.lines.length - max, view.cursorRow - max + 1));
  return view.lines.slice(first, first + max).map((row, i) => {
    const text = f.focused && first + i === view.cursorRow ? markCursor(p, row, view.cursorCol) : row;
    return `${i === 0 && first === 0 ? p.accent("›") : " "} ${text}`;
  });
}

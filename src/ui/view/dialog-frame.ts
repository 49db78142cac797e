// The frame every dialog draws in: a title line, the body (clipped and padded to the height) and
// a footer of keys; plus the text field with its cursor that several dialogs share.
import { layout, type EditorState } from "../input/editor.js";
import { truncateToWidth, visibleWidth } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";

/** Exactly `height` lines: the title, `height - 2` body lines, the footer. */
export function frame(
  p: Palette,
  title: string,
  body: string[],
  width: number,
  height: number,
  footer: string,
): string[] {
  const inner = Math.max(4, width - 2);
  const lines = [
    p.borderFocused(truncateToWidth(`${title}`, width)),
    ...body.map((l) => ` ${truncateToWidth(l, inner)}`),
  ];
  const room = Math.max(2, height - 1);
  const shown = lines.slice(0, room);
  while (shown.length < room) shown.push("");
  return [...shown, p.dim(truncateToWidth(footer, width))];
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
 * with a cursor mark. Empty and unfocused, the placeholder shows instead.
 */
export function fieldLines(
  p: Palette,
  value: EditorState,
  width: number,
  opts: { focused: boolean; placeholder?: string; maxRows?: number },
): string[] {
  const room = Math.max(4, width - 3);
  const view = layout(value, room);
  const empty = view.lines.length === 1 && view.lines[0] === "";
  if (empty && opts.placeholder)
    return [`${p.accent("›")} ${opts.focused ? p.accent("▏") : ""}${p.dim(truncateToWidth(opts.placeholder, room))}`];
  const max = Math.max(1, opts.maxRows ?? 1);
  const first = Math.max(0, Math.min(view.lines.length - max, view.cursorRow - max + 1));
  return view.lines.slice(first, first + max).map((row, i) => {
    const text = opts.focused && first + i === view.cursorRow ? markCursor(p, row, view.cursorCol) : row;
    return `${i === 0 && first === 0 ? p.accent("›") : " "} ${text}`;
  });
}

// The first page of the help dialog: the keys a user reaches for, in two columns where there is
// room, so it fits one 80x24 screen; the full reference follows below it (issue 18 item 10).
import type { Action } from "../../config/keybindings.js";
import { formatKeySpec, type ResolvedKeymap } from "../input/keymap.js";
import { padToWidth, truncateToWidth } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";

/** Each entry: the actions whose keys it shows (or fixed text), and a few words. */
const entries: [Action[] | string, string][] = [
  [["submit"], "send (steers a running turn)"],
  [["interrupt"], "stop; twice: kill, or exit"],
  [["stop"], "stop the turn; close a dialog"],
  [["queue"], "queue for next turn; complete"],
  [["palette"], "command palette"],
  [["newTask"], "new task"],
  [["toggleTasks"], "show or hide the task list"],
  [["toggleResults"], "show or hide the results"],
  [["nextApproval"], "next task waiting for approval"],
  // Letters as typed: a capital A is another answer (always, in this workspace).
  ["y a n", "approve once, always; deny and stop"],
  [["cycleMode"], "cycle the permission mode"],
  [["browse"], "browse the transcript"],
  [["scrollUp", "scrollDown"], "scroll a page"],
  [["historySearch"], "search the prompt history"],
  ["!cmd /cmd", "shell command; slash command"],
  [["help"], "this sheet"],
];

function keysOf(keymap: ResolvedKeymap<Action>, what: Action[] | string): string {
  if (typeof what === "string") return what;
  return what
    .map((a) => keymap[a].map(formatKeySpec)[0] ?? "")
    .filter(Boolean)
    .join(" ");
}

/**
 * The sheet's lines for `width` columns: two columns at 76 and wider, one below that (16 rows),
 * plus a heading and a hint: 19 lines at most, so it fits the dialog of an 80x24 screen.
 */
export function shortcutSheet(keymap: ResolvedKeymap<Action>, p: Palette, width: number): string[] {
  const cells = entries.map(([what, doc]) => ({ keys: keysOf(keymap, what), doc }));
  const two = width >= 76;
  const col = two ? Math.floor((width - 2) / 2) : width;
  const keyWidth = Math.min(12, Math.max(...cells.map((c) => c.keys.length)));
  const cell = (c: { keys: string; doc: string }) =>
    `${p.accent(padToWidth(truncateToWidth(c.keys, keyWidth), keyWidth))} ${truncateToWidth(c.doc, Math.max(1, col - keyWidth - 2))}`;
  const rows: string[] = [];
  if (two) {
    const half = Math.ceil(cells.length / 2);
    for (let i = 0; i < half; i++)
      rows.push(padToWidth(cell(cells[i]!), col) + (cells[i + half] ? `  ${cell(cells[i + half]!)}` : ""));
  } else rows.push(...cells.map(cell));
  return [p.heading("Keys"), ...rows, "", p.dim(truncateToWidth("↓ PgDn: every key and command", width))];
}

// The shortcut sheet and the full reference of keys and commands (? or F1): scrolled like a
// detail, closed with Esc, q, ? or Enter.
import { actions, type Action } from "../../config/keybindings.js";
import type { DialogHost } from "../controller/host.js";
import { slashCommands } from "../controller/slash.js";
import { formatKeySpec } from "../input/keymap.js";
import { padToWidth, truncateToWidth, wrapLine } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";
import { shortcutSheet } from "../view/shortcut-sheet.js";
import type { DialogSpec } from "./dialog.js";
import { scrollTextKeys } from "./detail.js";
import type { HelpDialog } from "../state/dialogs.js";

/** Keys for the sheet; a run of digits ("1 2 … 9") as a range ("1-9"). */
function keyList(keys: string[]): string {
  const digits =
    keys.length > 2 && keys.every((k, i) => /^\d$/.test(k) && (i === 0 || Number(k) === Number(keys[i - 1]) + 1));
  return digits ? `${keys[0]}-${keys.at(-1)}` : keys.join(" ");
}

export function helpLines(host: DialogHost, p: Palette, width: number): string[] {
  const out: string[] = [];
  const wide = width >= 60;
  const entry = (keys: string, doc: string) => {
    if (wide)
      out.push(
        ...wrapLine(`  ${p.accent(padToWidth(truncateToWidth(keys, 16), 16))} ${doc}`, width, {
          words: true,
          indent: 19,
        }),
      );
    else
      out.push(
        `  ${p.accent(truncateToWidth(keys, width - 2))}`,
        ...wrapLine(`    ${doc}`, width, { words: true, indent: 4 }),
      );
  };
  const groups: [string, string][] = [
    ["global", "Everywhere"],
    ["composer", "Input"],
    ["approval", "Approval card"],
    ["transcript", "Browsing the transcript (Ctrl-X)"],
    ["lists", "Task list and results pane"],
    ["dialogs", "Session picker (/resume), memory (/memory) and /rewind"],
  ];
  for (const [group, title] of groups) {
    out.push(p.heading(title));
    for (const [name, info] of Object.entries(actions) as [Action, { doc: string; group: string }][]) {
      if (info.group !== group) continue;
      const keys = keyList(host.keymap[name].map(formatKeySpec));
      if (keys) entry(keys, info.doc);
    }
    out.push("");
  }
  // A subagent's view reuses the keys above; listed here so they can be found.
  const keysOf = (...names: Action[]) => keyList(names.flatMap((n) => host.keymap[n].map(formatKeySpec)));
  out.push(p.heading("Subagent view (Enter on the Agents tab)"));
  entry(keysOf("cursorUp", "cursorDown"), "scroll a line");
  entry(keysOf("scrollUp", "scrollDown"), "scroll a page");
  entry(keysOf("scrollTop", "scrollBottom"), "to the top; to the end (follows new output)");
  entry(keysOf("agentStop"), "stop this subagent (asks first)");
  entry(keysOf("listPick"), "show another subagent of the board");
  entry(keysOf("approveOnce", "approveAlways", "deny"), "answer its approval, as on the card");
  entry("Esc", "close");
  out.push("");
  out.push(p.heading("Commands"));
  for (const c of slashCommands) entry(c.name, c.description);
  for (const c of host.customCommands())
    entry(c.name, `${c.argumentHint ? `${c.argumentHint} · ` : ""}${c.description} (${c.scope} command)`);
  out.push(
    "",
    ...wrapLine(p.dim('Keys can be changed in ~/.nanohermes/config.json under "keys".'), width, { words: true }),
  );
  return out;
}

export const helpDialog: DialogSpec<HelpDialog> = {
  view(_s, sv, d, width, height) {
    const all = [
      ...shortcutSheet(sv.ctl.keymap, sv.palette, width - 2),
      "",
      ...helpLines(sv.ctl, sv.palette, width - 2),
    ];
    const offset = Math.min(d.offset, Math.max(0, all.length - (height - 2)));
    return {
      title: "Keys and commands",
      body: [{ kind: "lines", lines: all.slice(offset, offset + Math.max(0, height - 2)) }],
      footer: "↑↓ PgUp PgDn scroll · Esc close",
    };
  },
  keys: scrollTextKeys,
};

// Lines for dialogs (palette, shortcut sheet, inputs, confirmations, details, the queue editor,
// /rewind), drawn in place of the transcript so they work at any width, 40 columns included.
import { actions, type Action } from "../../config/keybindings.js";
import type { Controller } from "../controller/controller.js";
import { filterPalette, paletteItems } from "../controller/dialogs.js";
import type { Dialog } from "../controller/ui-state.js";
import { layout } from "../input/editor.js";
import { formatKeySpec } from "../input/keymap.js";
import { padToWidth, truncateToWidth, wrapLine } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";
import { slashCommands } from "../controller/slash.js";
import { customCommands } from "../controller/workspace-slash.js";
import { fieldLines, frame } from "./dialog-frame.js";
import { shortcutSheet } from "./shortcut-sheet.js";
import { memoryLines } from "./memory-view.js";
import { pickerLines } from "./picker-view.js";
import { rewindLines } from "./turns-view.js";
import { windowAround } from "./panes.js";

/** Keys for the sheet; a run of digits ("1 2 … 9") as a range ("1-9"). */
function keyList(keys: string[]): string {
  const digits =
    keys.length > 2 && keys.every((k, i) => /^\d$/.test(k) && (i === 0 || Number(k) === Number(keys[i - 1]) + 1));
  return digits ? `${keys[0]}-${keys.at(-1)}` : keys.join(" ");
}

export function helpLines(ctl: Controller, p: Palette, width: number): string[] {
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
    ["transcript", "Browsing the transcript (Ctrl-B or Esc)"],
    ["lists", "Task list and results pane"],
    ["dialogs", "Session picker (/resume), memory (/memory) and /rewind"],
  ];
  for (const [group, title] of groups) {
    out.push(p.heading(title));
    for (const [name, info] of Object.entries(actions) as [Action, { doc: string; group: string }][]) {
      if (info.group !== group) continue;
      const keys = keyList(ctl.deps.keymap[name].map(formatKeySpec));
      if (keys) entry(keys, info.doc);
    }
    out.push("");
  }
  // A subagent's view reuses the keys above; listed here so they can be found.
  const keysOf = (...names: Action[]) => keyList(names.flatMap((n) => ctl.deps.keymap[n].map(formatKeySpec)));
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
  for (const c of customCommands(ctl))
    entry(c.name, `${c.argumentHint ? `${c.argumentHint} · ` : ""}${c.description} (${c.scope} command)`);
  out.push(
    "",
    ...wrapLine(p.dim('Keys can be changed in ~/.nanohermes/config.json under "keys".'), width, { words: true }),
  );
  return out;
}

/** Every dialog but a subagent's view, which needs the transcript renderer (panes/subagent-view.ts). */
export function dialogLines(
  ctl: Controller,
  p: Palette,
  dialog: Exclude<Dialog, { kind: "agent" }>,
  width: number,
  height: number,
): string[] {
  switch (dialog.kind) {
    case "palette": {
      const items = filterPalette(paletteItems(ctl), dialog.query);
      const rows = items.map((item, i) => {
        const line = padToWidth(
          `${truncateToWidth(item.label, Math.max(8, width - 22))}  ${p.dim(item.hint)}`,
          width - 2,
        );
        return i === dialog.index ? p.selection(line) : line;
      });
      const list = windowAround(
        rows.length ? rows : [p.dim("nothing matches")],
        dialog.index,
        Math.max(1, height - 4),
      ).lines;
      return frame(
        p,
        "Command palette",
        [`${p.accent("›")} ${dialog.query}${p.accent("▏")}`, "", ...list],
        width,
        height,
        "type to filter · ↑↓ · Enter run · Esc close",
      );
    }
    case "help": {
      const all = [...shortcutSheet(ctl, p, width - 2), "", ...helpLines(ctl, p, width - 2)];
      const offset = Math.min(dialog.offset, Math.max(0, all.length - (height - 2)));
      return frame(p, "Keys and commands", all.slice(offset), width, height, "↑↓ PgUp PgDn scroll · Esc close");
    }
    case "detail": {
      const all = dialog.lines.flatMap((l) => wrapLine(l, width - 2, { words: dialog.words ?? false }));
      const offset = Math.min(dialog.offset, Math.max(0, all.length - (height - 2)));
      return frame(
        p,
        dialog.title,
        all.slice(offset),
        width,
        height,
        `lines ${offset + 1}-${Math.min(all.length, offset + height - 2)} of ${all.length} · ↑↓ PgUp PgDn · Esc close`,
      );
    }
    case "confirm":
      return frame(
        p,
        "Confirm",
        wrapLine(dialog.title, Math.max(4, width - 2), { words: true }).map((l) => p.warning(l)),
        width,
        height,
        dialog.action === "stopAgent"
          ? "y stop · f stop and kill its command · n or Esc no"
          : dialog.action === "revertFile"
            ? "y revert · n or Esc no"
            : "y yes · n or Esc no",
      );
    case "queue": {
      const items = ctl.currentTask()?.queue ?? [];
      const rows = items.map((it, i) => {
        const line = padToWidth(
          `${it.mode === "steer" ? p.accent("steer") : p.info("queue")} ${truncateToWidth(it.text.replace(/\n/g, " "), width - 10)}`,
          width - 2,
        );
        return i === dialog.index ? p.selection(line) : line;
      });
      return frame(
        p,
        "Pending messages",
        rows,
        width,
        height,
        "↑↓ · e edit · x drop · K/J move · m steer/queue · Esc close",
      );
    }
    case "permissions": {
      const rules = ctl.currentTask()?.snapshot.rules ?? [];
      const rows = rules.map((r, i) => {
        const line = padToWidth(truncateToWidth(r, width - 2), width - 2);
        return i === dialog.index ? p.selection(line) : line;
      });
      return frame(
        p,
        'Allowed by "always" in this task',
        rows.length ? rows : [p.dim("nothing: answer an approval with a (task) or A (workspace)")],
        width,
        height,
        "↑↓ · x remove · Esc close",
      );
    }
    case "sessions":
      return pickerLines(ctl, p, dialog, width, height);
    case "memory":
      return memoryLines(ctl, p, dialog, width, height);
    case "rewind":
      return rewindLines(ctl, p, dialog, width, height);
    case "input": {
      const history = dialog.purpose === "history";
      // A memory's text can run to 1,000 characters: all of it stays in view while it is edited.
      const body = fieldLines(p, dialog.value, width - 2, {
        focused: true,
        maxRows: history ? 1 : Math.max(1, height - 4),
      });
      if (history) {
        const found = ctl.deps.history.search(layout(dialog.value, Math.max(4, width - 4)).lines.join(""));
        const rows = found.map((h, i) => {
          const line = padToWidth(truncateToWidth(h.replace(/\n/g, " ⏎ "), width - 4), width - 2);
          return i === dialog.index ? p.selection(line) : line;
        });
        body.push(
          "",
          ...windowAround(rows.length ? rows : [p.dim("no match")], dialog.index, Math.max(1, height - 5)).lines,
        );
      }
      return frame(p, dialog.title, body, width, height, "Enter confirm · Esc cancel");
    }
    default:
      dialog satisfies never;
      return [];
  }
}

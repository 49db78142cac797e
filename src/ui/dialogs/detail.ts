// A long read-only text (a command's full detail, /status, /cost, a compaction summary, MCP
// servers, skills): scrolled by line and page, closed with Esc, q or Enter.
import type { UiHost } from "../controller/host.js";
import type { InputEvent } from "../input/keys.js";
import { wrapLine } from "../render/wrap.js";
import type { Dialog } from "../state/dialogs.js";
import { closeDialog, isKey, setDialog, type DialogSpec } from "./dialog.js";
import type { DetailDialog } from "../state/dialogs.js";

/** The keys of a scrolled text (this dialog and the shortcut sheet); true when `event` was one. */
export function scrollTextKeys<D extends Dialog & { offset: number }>(host: UiHost, d: D, event: InputEvent): boolean {
  if (event.kind !== "key") return false;
  const step = { up: -1, down: 1, k: -1, j: 1, pageup: -10, pagedown: 10 }[event.key.name] ?? 0;
  if (step) {
    setDialog(host, { ...d, offset: Math.max(0, d.offset + step) } as D);
    return true;
  }
  if (isKey(event.key, "q") || isKey(event.key, "?") || isKey(event.key, "enter")) {
    closeDialog(host);
    return true;
  }
  return false;
}

export const detailDialog: DialogSpec<DetailDialog> = {
  view(_s, _sv, d, width, height) {
    const all = d.lines.flatMap((l) => wrapLine(l, width - 2, { words: d.words ?? false }));
    const offset = Math.min(d.offset, Math.max(0, all.length - (height - 2)));
    return {
      title: d.title,
      body: [{ kind: "lines", lines: all.slice(offset, offset + Math.max(0, height - 2)) }],
      footer: `lines ${offset + 1}-${Math.min(all.length, offset + height - 2)} of ${all.length} · ↑↓ PgUp PgDn · Esc close`,
    };
  },
  keys: scrollTextKeys,
};

// A one-line question: rename a task, a note with a denial, the task filter, a transcript search,
// the prompt history search (with its matches listed under the field), a memory's text, where to export.
import { findMatches, gotoMatch } from "../controller/browse.js";
import type { DialogHost } from "../controller/host.js";
import { memoryAdded, memoryEdited } from "../controller/memory-dialog.js";
import { exportTo } from "../controller/export.js";
import { createEditor } from "../input/editor.js";
import { listStep, moveIndex } from "../input/list-nav.js";
import { truncateToWidth } from "../render/wrap.js";
import type { DialogPart } from "../view/dialog-frame.js";
import { listTextWidth } from "../view/select-list.js";
import { closeDialog, setDialog, type DialogSpec } from "./dialog.js";
import type { InputDialog } from "../state/dialogs.js";

function confirmInput(host: DialogHost, d: InputDialog): void {
  const text = d.value.trim();
  closeDialog(host);
  const taskId = host.state.current ?? "";
  switch (d.purpose) {
    case "rename":
      if (text) host.send({ type: "task.update", taskId: d.target ?? taskId, title: text });
      return;
    case "note":
      if (d.target)
        host.send({
          type: "approval.reply",
          taskId,
          requestId: d.target,
          decision: "deny",
          ...(text ? { note: text } : {}),
        });
      return;
    case "filter":
      host.setUi((ui) => ({ ...ui, taskFilter: text, taskIndex: 0 }));
      return;
    case "search": {
      if (!text) {
        host.setUi((ui) => ({ ...ui, search: null }));
        return;
      }
      const matches = findMatches(host.currentBlocks(), text);
      const id = host.state.current;
      const cursor = id ? (host.ui.cursor[id] ?? 0) : 0;
      const first = matches.findIndex((m) => m >= cursor);
      host.setUi((ui) => ({
        ...ui,
        focus: "browse",
        search: { query: text, matches, index: (first === -1 ? 0 : first) - 1 },
      }));
      gotoMatch(host, 1);
      return;
    }
    case "history": {
      const found = host.history.search(text)[d.index];
      if (found !== undefined) host.setUi((ui) => ({ ...ui, composer: createEditor(found), focus: "composer" }));
      return;
    }
    case "memoryEdit":
      if (text && d.target) memoryEdited(host, d.target, text);
      return;
    case "memoryNew":
      if (text) memoryAdded(host, text);
      return;
    case "export":
      if (d.target) exportTo(host, d.target, text);
      return;
    default:
      d.purpose satisfies never;
  }
}

/** The open input dialog's field changed: the value, and the history search starts over. */
function typed(host: DialogHost, value: string): void {
  host.setUi((ui) => (ui.dialog?.kind === "input" ? { ...ui, dialog: { ...ui.dialog, value, index: 0 } } : ui));
}

/** Enter in the field: the open input dialog's answer. */
function submitted(host: DialogHost): void {
  const d = host.ui.dialog;
  if (d?.kind === "input") confirmInput(host, d);
}

export const inputDialog: DialogSpec<InputDialog> = {
  view(_s, sv, d, width, height) {
    const history = d.purpose === "history";
    // A memory's text can run to 1,000 characters: all of it stays in view while it is edited.
    const body: DialogPart[] = [
      {
        kind: "field",
        field: {
          value: d.value,
          focused: true,
          maxRows: history ? 1 : Math.max(1, height - 4),
          onChange: (value) => typed(sv.ctl, value),
          onSubmit: () => submitted(sv.ctl),
        },
      },
    ];
    if (history) {
      const text = listTextWidth(width - 2);
      const items = sv.ctl.history.search(d.value).map((h) => truncateToWidth(h.replace(/\n/g, " ⏎ "), text));
      body.push(
        { kind: "lines", lines: [""] },
        { kind: "list", list: { items, selected: d.index, height: Math.max(1, height - 5), empty: "no match" } },
      );
    }
    return { title: d.title, body, footer: "Enter confirm · Esc cancel" };
  },
  keys(host, d, event) {
    if (event.kind === "key") {
      if (host.is("interrupt", event.key)) return false;
      const step = d.purpose === "history" ? listStep(event.key, { field: true }) : null;
      if (step) {
        const n = host.history.search(d.value).length;
        if (n) setDialog(host, { ...d, index: moveIndex(d.index, n, step) });
        return true;
      }
    }
    // Text, the cursor keys and Enter are the field's (it answers through `submitted`).
    return host.fields.route(event);
  },
};

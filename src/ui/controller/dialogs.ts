// Keys while a dialog is open: the command palette, the shortcut sheet, one-line inputs (rename,
// deny note, filter, search, history), confirmations, long details, the steer/queue editor, a
// subagent's view (controller/agents.ts) and /rewind (controller/rewind.ts).
import { actions, type Action } from "../../config/keybindings.js";
import { createEditor, editorText } from "../input/editor.js";
import type { InputEvent, Key } from "../input/keys.js";
import { formatKeySpec } from "../input/keymap.js";
import { confirmStopAgent, handleAgentViewKey } from "./agents.js";
import { findMatches, gotoMatch } from "./browse.js";
import type { Controller } from "./controller.js";
import { editField } from "./field.js";
import { handleMemoryKey, memoryAdded, memoryEdited, memoryForgotten } from "./memory-dialog.js";
import { handleRewindKey, revertConfirmed } from "./rewind.js";
import { handlePickerKey } from "./session-picker.js";
import { runSlash } from "./run-slash.js";
import { parseSlash, slashCommands } from "./slash.js";
import { customCommands } from "./workspace-slash.js";
import type { Dialog } from "./ui-state.js";

export interface PaletteItem {
  label: string;
  hint: string;
  run(ctl: Controller): void;
}

/** Everything the palette offers: slash commands and the global actions, with their keys. */
export function paletteItems(ctl: Controller): PaletteItem[] {
  const items: PaletteItem[] = slashCommands.map((c) => ({
    label: c.name,
    hint: c.description,
    run: (x: Controller) => {
      const parsed = parseSlash(c.name);
      if (parsed && !("error" in parsed)) runSlash(x, parsed);
    },
  }));
  // A custom command goes into the input, where its arguments are typed.
  for (const c of customCommands(ctl)) {
    items.push({
      label: c.name,
      hint: `${c.argumentHint ? `${c.argumentHint} · ` : ""}${c.description}`,
      run: (x) => x.setUi((ui) => ({ ...ui, dialog: null, focus: "composer", composer: createEditor(`${c.name} `) })),
    });
  }
  const global: Action[] = [
    "newTask",
    "toggleTasks",
    "toggleResults",
    "cycleMode",
    "nextApproval",
    "browse",
    "nextTask",
    "externalEditor",
  ];
  for (const name of global) {
    const keys = ctl.deps.keymap[name].map(formatKeySpec).join(", ");
    items.push({
      label: actions[name].doc,
      hint: keys,
      run: (x) => {
        x.setUi((ui) => ({ ...ui, dialog: null }));
        const spec = x.deps.keymap[name][0];
        if (spec)
          x.handle({
            kind: "key",
            key: { name: spec.name, ctrl: spec.ctrl, alt: spec.alt, shift: spec.shift, sequence: "" },
          });
      },
    });
  }
  return items;
}

export function filterPalette(items: PaletteItem[], query: string): PaletteItem[] {
  const q = query.toLowerCase().trim();
  if (!q) return items;
  return items.filter((i) => `${i.label} ${i.hint}`.toLowerCase().includes(q));
}

/** Closes the dialog, back to the one it was opened from (if any). */
const close = (ctl: Controller) =>
  ctl.setUi((ui) => ({ ...ui, dialog: (ui.dialog && "back" in ui.dialog ? ui.dialog.back : undefined) ?? null }));
const setDialog = (ctl: Controller, dialog: Dialog) => ctl.setUi((ui) => ({ ...ui, dialog }));

/** Shared one-line text editing for dialogs; true when the key edited the text. */
function editLine(ctl: Controller, dialog: Extract<Dialog, { kind: "input" }>, event: InputEvent): boolean {
  const value = editField(ctl, dialog.value, event);
  if (value) setDialog(ctl, { ...dialog, value, index: 0 });
  return value !== null;
}

function confirmInput(ctl: Controller, dialog: Extract<Dialog, { kind: "input" }>): void {
  const text = editorText(dialog.value).trim();
  close(ctl);
  const taskId = ctl.state.current ?? "";
  switch (dialog.purpose) {
    case "rename":
      if (text) ctl.send({ type: "task.update", taskId: dialog.target ?? taskId, title: text });
      return;
    case "note":
      if (dialog.target)
        ctl.send({
          type: "approval.reply",
          taskId,
          requestId: dialog.target,
          decision: "deny",
          ...(text ? { note: text } : {}),
        });
      return;
    case "filter":
      ctl.setUi((ui) => ({ ...ui, taskFilter: text, taskIndex: 0 }));
      return;
    case "search": {
      if (!text) {
        ctl.setUi((ui) => ({ ...ui, search: null }));
        return;
      }
      const matches = findMatches(ctl.currentBlocks(), text);
      const id = ctl.state.current;
      const cursor = id ? (ctl.ui.cursor[id] ?? 0) : 0;
      const first = matches.findIndex((m) => m >= cursor);
      ctl.setUi((ui) => ({
        ...ui,
        focus: "browse",
        search: { query: text, matches, index: (first === -1 ? 0 : first) - 1 },
      }));
      gotoMatch(ctl, 1);
      return;
    }
    case "history": {
      const found = ctl.deps.history.search(text)[dialog.index];
      if (found !== undefined) ctl.setUi((ui) => ({ ...ui, composer: createEditor(found), focus: "composer" }));
      return;
    }
    case "memoryEdit":
      if (text && dialog.target) memoryEdited(ctl, dialog.target, text);
      return;
    case "memoryNew":
      if (text) memoryAdded(ctl, text);
      return;
  }
}

function isKey(key: Key, name: string): boolean {
  return key.name === name && !key.ctrl && !key.alt;
}

export function handleDialogKey(ctl: Controller, event: InputEvent): void {
  const dialog = ctl.ui.dialog;
  if (!dialog) return;
  // These close on Esc themselves: the picker may start a task, the memory filter and the rewind question step back.
  if (dialog.kind === "sessions") return handlePickerKey(ctl, dialog, event);
  if (dialog.kind === "memory") return handleMemoryKey(ctl, dialog, event);
  if (dialog.kind === "rewind") return handleRewindKey(ctl, dialog, event);
  if (event.kind === "key" && ctl.is("interrupt", event.key) && dialog.kind !== "input") {
    close(ctl);
    return;
  }
  if (
    event.kind === "key" &&
    (isKey(event.key, "escape") || (ctl.is("interrupt", event.key) && dialog.kind === "input"))
  ) {
    close(ctl);
    return;
  }
  switch (dialog.kind) {
    case "palette": {
      if (event.kind === "key" && (isKey(event.key, "up") || isKey(event.key, "down"))) {
        const n = filterPalette(paletteItems(ctl), dialog.query).length;
        if (n) setDialog(ctl, { ...dialog, index: (dialog.index + (event.key.name === "up" ? n - 1 : 1)) % n });
        return;
      }
      if (event.kind === "key" && isKey(event.key, "enter")) {
        const item = filterPalette(paletteItems(ctl), dialog.query)[dialog.index];
        close(ctl);
        item?.run(ctl);
        return;
      }
      if (event.kind === "key" && isKey(event.key, "backspace")) {
        setDialog(ctl, { ...dialog, query: dialog.query.slice(0, -1), index: 0 });
        return;
      }
      const text = event.kind === "paste" ? event.text : event.key.text;
      if (text) setDialog(ctl, { ...dialog, query: dialog.query + text, index: 0 });
      return;
    }
    case "help":
    case "detail": {
      if (event.kind !== "key") return;
      const step = { up: -1, down: 1, k: -1, j: 1, pageup: -10, pagedown: 10 }[event.key.name] ?? 0;
      if (step) setDialog(ctl, { ...dialog, offset: Math.max(0, dialog.offset + step) });
      else if (isKey(event.key, "q") || isKey(event.key, "?") || isKey(event.key, "enter")) close(ctl);
      return;
    }
    case "confirm":
      if (event.kind !== "key") return;
      if (isKey(event.key, "y") || (dialog.action === "stopAgent" && isKey(event.key, "f"))) {
        close(ctl);
        if (dialog.action === "delete") ctl.send({ type: "task.delete", taskId: dialog.target });
        else if (dialog.action === "stopAgent") confirmStopAgent(ctl, dialog, event.key.name === "f");
        else if (dialog.action === "forgetMemory") memoryForgotten(ctl, dialog.target);
        else if (dialog.action === "revertFile") revertConfirmed(ctl, dialog);
        else ctl.deps.trustWorkspace();
      } else if (isKey(event.key, "n")) close(ctl);
      return;
    case "agent":
      handleAgentViewKey(ctl, dialog, event);
      return;
    case "queue": {
      if (event.kind !== "key") return;
      const task = ctl.currentTask();
      const items = task?.queue ?? [];
      if (!task || items.length === 0) return close(ctl);
      const i = Math.min(dialog.index, items.length - 1);
      const key = event.key;
      const update = (next: typeof items) => ctl.send({ type: "queue.update", taskId: task.id, items: next });
      if (isKey(key, "up") || isKey(key, "down"))
        setDialog(ctl, { ...dialog, index: Math.max(0, Math.min(items.length - 1, i + (key.name === "up" ? -1 : 1))) });
      else if ((key.shift && (key.name === "up" || key.name === "down")) || key.text === "K" || key.text === "J") {
        const j = key.name === "up" || key.text === "K" ? i - 1 : i + 1;
        if (j < 0 || j >= items.length) return;
        const next = items.slice();
        [next[i], next[j]] = [next[j]!, next[i]!];
        update(next);
        setDialog(ctl, { ...dialog, index: j });
      } else if (isKey(key, "x") || isKey(key, "delete")) update(items.filter((_, k) => k !== i));
      else if (isKey(key, "e") || isKey(key, "enter")) {
        update(items.filter((_, k) => k !== i));
        ctl.setUi((ui) => ({ ...ui, dialog: null, composer: createEditor(items[i]!.text), focus: "composer" }));
        ctl.status("edit it, then Enter to steer or Tab to queue");
      } else if (isKey(key, "m"))
        update(items.map((it, k) => (k === i ? { ...it, mode: it.mode === "steer" ? "queue" : "steer" } : it)));
      return;
    }
    case "permissions": {
      if (event.kind !== "key") return;
      const task = ctl.currentTask();
      const rules = task?.snapshot.rules ?? [];
      const i = Math.min(dialog.index, Math.max(0, rules.length - 1));
      if (isKey(event.key, "up") || isKey(event.key, "down"))
        setDialog(ctl, {
          ...dialog,
          index: Math.max(0, Math.min(rules.length - 1, i + (event.key.name === "up" ? -1 : 1))),
        });
      else if ((isKey(event.key, "x") || isKey(event.key, "delete")) && task && rules[i])
        ctl.send({ type: "permissions.remove", taskId: task.id, rule: rules[i] });
      return;
    }
    case "input": {
      if (event.kind === "key" && isKey(event.key, "enter")) return confirmInput(ctl, dialog);
      if (
        dialog.purpose === "history" &&
        event.kind === "key" &&
        (isKey(event.key, "up") || isKey(event.key, "down"))
      ) {
        const n = ctl.deps.history.search(editorText(dialog.value)).length;
        if (n)
          setDialog(ctl, {
            ...dialog,
            index: Math.max(0, Math.min(n - 1, dialog.index + (event.key.name === "up" ? -1 : 1))),
          });
        return;
      }
      editLine(ctl, dialog, event);
      return;
    }
    default:
      dialog satisfies never;
  }
}

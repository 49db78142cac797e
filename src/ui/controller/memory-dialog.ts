// The /memory dialog: long-term memories newest first, a filter (BM25 search after a pause in
// typing), and edits: Enter the text (in an input dialog), k the kind, d delete (asks), n add.
import { createEditor, editorText } from "../input/editor.js";
import type { InputEvent, Key } from "../input/keys.js";
import type { Controller } from "./controller.js";
import { editField } from "./field.js";
import type { MemoryRow } from "./sources.js";
import { patchDialog, type MemoryDialog } from "./ui-state.js";

export const FILTER_DEBOUNCE_MS = 150;
const PAGE = 8;

const timers = new WeakMap<Controller, NodeJS.Timeout>();
const isKey = (key: Key, name: string) => key.name === name && !key.ctrl && !key.alt;

function dialogOf(ctl: Controller): MemoryDialog | null {
  const d = ctl.ui.dialog;
  return d?.kind === "memory" ? d : null;
}

function update(ctl: Controller, change: (d: MemoryDialog) => MemoryDialog): void {
  ctl.setUi((ui) => {
    const dialog = patchDialog(ui.dialog, "memory", change);
    return dialog === ui.dialog ? ui : { ...ui, dialog };
  });
}

export function openMemory(ctl: Controller): void {
  const dialog: MemoryDialog = {
    kind: "memory",
    query: createEditor(),
    filtering: false,
    index: 0,
    entries: null,
    seq: 0,
  };
  ctl.setUi((ui) => ({ ...ui, dialog, focus: "composer" }));
  if (ctl.deps.memory.enabled) reload(ctl);
}

export function selectedEntry(d: MemoryDialog): MemoryRow | null {
  return d.entries?.[Math.min(d.index, d.entries.length - 1)] ?? null;
}

/**
 * Reads the entries again (all of them, or the filter's matches) and keeps the selection on the
 * same entry (or on `select`) when it is still listed. `delay`: wait for a pause in typing.
 */
function reload(ctl: Controller, opts: { select?: string; delay?: number } = {}): void {
  const d = dialogOf(ctl);
  if (!d) return;
  const seq = d.seq + 1;
  const query = editorText(d.query).trim();
  const keep = opts.select ?? selectedEntry(d)?.id;
  update(ctl, (x) => ({ ...x, seq }));
  const pending = timers.get(ctl);
  if (pending) clearTimeout(pending);
  const run = () => {
    const source = ctl.deps.memory;
    (query ? source.search(query) : source.list()).then(
      (entries) =>
        update(ctl, (x) => {
          if (x.seq !== seq) return x;
          const at = keep === undefined ? -1 : entries.findIndex((e) => e.id === keep);
          return {
            ...x,
            entries,
            error: undefined,
            index: at >= 0 ? at : Math.min(x.index, Math.max(0, entries.length - 1)),
          };
        }),
      (error: unknown) =>
        update(ctl, (x) => (x.seq === seq ? { ...x, entries: x.entries ?? [], error: (error as Error).message } : x)),
    );
  };
  if (opts.delay) timers.set(ctl, setTimeout(run, opts.delay));
  else run();
}

/** Runs a change to the store, then shows the list as it is now; a failure goes to the status line. */
function change(
  ctl: Controller,
  work: Promise<unknown>,
  done: string,
  select?: (result: unknown) => string | undefined,
): void {
  work.then(
    (result) => {
      ctl.status(done);
      const id = select?.(result);
      reload(ctl, id ? { select: id } : {});
    },
    (error: unknown) => {
      ctl.status(`memory: ${(error as Error).message}`, "error", 8000);
      reload(ctl);
    },
  );
}

/** The text of an entry, edited in the input dialog (purpose memoryEdit). */
export function memoryEdited(ctl: Controller, id: string, text: string): void {
  change(ctl, ctl.deps.memory.update(id, { text }), "memory updated");
}

/** The kind a new entry gets: the last one (a fact). */
const newKind = (ctl: Controller) => ctl.deps.memory.kinds.at(-1) ?? "fact";

/** A new entry from the input dialog (purpose memoryNew). */
export function memoryAdded(ctl: Controller, text: string): void {
  const kind = newKind(ctl);
  // The filter would hide the new entry: the whole list shows, with it selected.
  update(ctl, (x) => ({ ...x, query: createEditor(), filtering: false }));
  change(
    ctl,
    ctl.deps.memory.save(kind, text),
    `saved as a ${kind} (k changes the kind)`,
    (row) => (row as MemoryRow).id,
  );
}

/** Deletion after its y/n confirmation. */
export function memoryForgotten(ctl: Controller, id: string): void {
  change(ctl, ctl.deps.memory.remove(id), "memory deleted");
}

function move(ctl: Controller, d: MemoryDialog, delta: number): void {
  const n = d.entries?.length ?? 0;
  if (n > 0) update(ctl, (x) => ({ ...x, index: Math.max(0, Math.min(n - 1, Math.min(x.index, n - 1) + delta)) }));
}

const close = (ctl: Controller) => {
  const pending = timers.get(ctl);
  if (pending) clearTimeout(pending);
  ctl.setUi((ui) => ({ ...ui, dialog: null }));
};

function filterKey(ctl: Controller, d: MemoryDialog, event: InputEvent): void {
  if (
    event.kind === "key" &&
    (isKey(event.key, "escape") ||
      isKey(event.key, "enter") ||
      isKey(event.key, "down") ||
      (isKey(event.key, "backspace") && editorText(d.query) === ""))
  ) {
    update(ctl, (x) => ({ ...x, filtering: false }));
    return;
  }
  const query = editField(ctl, d.query, event);
  if (!query) return;
  const changed = editorText(query) !== editorText(d.query);
  update(ctl, (x) => ({ ...x, query, ...(changed ? { index: 0 } : {}) }));
  if (changed) reload(ctl, { delay: FILTER_DEBOUNCE_MS });
}

export function handleMemoryKey(ctl: Controller, d: MemoryDialog, event: InputEvent): void {
  if (event.kind === "key" && ctl.is("interrupt", event.key)) return close(ctl);
  if (d.filtering) return filterKey(ctl, d, event);
  if (event.kind !== "key") return;
  const key = event.key;
  if (isKey(key, "escape")) return close(ctl);
  if (!ctl.deps.memory.enabled) return;
  if (isKey(key, "up") || isKey(key, "down")) return move(ctl, d, key.name === "up" ? -1 : 1);
  if (isKey(key, "pageup") || isKey(key, "pagedown")) return move(ctl, d, key.name === "pageup" ? -PAGE : PAGE);
  const entry = selectedEntry(d);
  const back = d;
  switch (ctl.action(key, ["memoryFilter", "memoryEdit", "memoryKind", "memoryDelete", "memoryNew"])) {
    case "memoryFilter":
      update(ctl, (x) => ({ ...x, filtering: true }));
      return;
    case "memoryEdit":
      if (entry)
        ctl.setUi((ui) => ({
          ...ui,
          dialog: {
            kind: "input",
            purpose: "memoryEdit",
            title: `Edit this ${entry.kind}`,
            value: createEditor(entry.text),
            target: entry.id,
            index: 0,
            back,
          },
        }));
      return;
    case "memoryKind": {
      if (!entry) return;
      const kinds = ctl.deps.memory.kinds;
      const next = kinds[(kinds.indexOf(entry.kind) + 1) % kinds.length] ?? entry.kind;
      change(ctl, ctl.deps.memory.update(entry.id, { kind: next }), `now a ${next}`);
      return;
    }
    case "memoryDelete":
      if (entry) {
        const text = entry.text.length > 60 ? `${entry.text.slice(0, 59)}…` : entry.text;
        ctl.setUi((ui) => ({
          ...ui,
          dialog: {
            kind: "confirm",
            title: `Delete this ${entry.kind}: "${text}"? (y/n)`,
            action: "forgetMemory",
            target: entry.id,
            back,
          },
        }));
      }
      return;
    case "memoryNew":
      ctl.setUi((ui) => ({
        ...ui,
        dialog: {
          kind: "input",
          purpose: "memoryNew",
          title: `New memory (saved as a ${newKind(ctl)}; then k in the list changes its kind)`,
          value: createEditor(),
          index: 0,
          back,
        },
      }));
      return;
    default:
      return;
  }
}

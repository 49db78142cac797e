import type { DialogHost, UiHost } from "./host.js";
import type { MemoryRow } from "../state/data-sources.js";
import type { MemoryDialog } from "../state/dialogs.js";
import { patchDialog } from "../state/ui-state.js";

export const FILTER_DEBOUNCE_MS = 150;

/** What the memory dialog's actions use: the store, the status line and the memory port. */
export type MemoryHost = UiHost & Pick<DialogHost, "memory">;

const timers = new WeakMap<MemoryHost, NodeJS.Timeout>();

function dialogOf(ctl: MemoryHost): MemoryDialog | null {
  const d = ctl.ui.dialog;
  return d?.kind === "memory" ? d : null;
}

export function updateMemory(ctl: MemoryHost, change: (d: MemoryDialog) => MemoryDialog): void {
  ctl.setUi((ui) => {
    const dialog = patchDialog(ui.dialog, "memory", change);
    return dialog === ui.dialog ? ui : { ...ui, dialog };
  });
}

export function openMemory(ctl: MemoryHost): void {
  const dialog: MemoryDialog = {
    kind: "memory",
    query: "",
    filtering: false,
    index: 0,
    entries: null,
    seq: 0,
  };
  ctl.setUi((ui) => ({ ...ui, dialog, focus: "composer" }));
  if (ctl.memory.enabled) reloadMemory(ctl);
}

export function selectedEntry(d: MemoryDialog): MemoryRow | null {
  return d.entries?.[Math.min(d.index, d.entries.length - 1)] ?? null;
}

/**
 * Reads the entries again (all of them, or the filter's matches) and keeps the selection on the
 * same entry (or on `select`) when it is still listed. `delay`: wait for a pause in typing.
 */
export function reloadMemory(ctl: MemoryHost, opts: { select?: string; delay?: number } = {}): void {
  const d = dialogOf(ctl);
  if (!d) return;
  const seq = d.seq + 1;
  const query = d.query.trim();
  const keep = opts.select ?? selectedEntry(d)?.id;
  updateMemory(ctl, (x) => ({ ...x, seq }));
  const pending = timers.get(ctl);
  if (pending) clearTimeout(pending);
  const run = () => {
    const source = ctl.memory;
    (query ? source.search(query) : source.list()).then(
      (entries) =>
        updateMemory(ctl, (x) => {
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
        updateMemory(ctl, (x) =>
          x.seq === seq ? { ...x, entries: x.entries ?? [], error: (error as Error).message } : x,
        ),
    );
  };
  if (opts.delay) timers.set(ctl, setTimeout(run, opts.delay));
  else run();
}

/** Runs a change to the store, then shows the list as it is now; a failure goes to the status line. */
export function changeMemory(
  ctl: MemoryHost,
  work: Promise<unknown>,
  done: string,
  select?: (result: unknown) => string | undefined,
): void {
  work.then(
    (result) => {
      ctl.status(done);
      const id = select?.(result);
      reloadMemory(ctl, id ? { select: id } : {});
    },
    (error: unknown) => {
      ctl.status(`memory: ${(error as Error).message}`, "error", 8000);
      reloadMemory(ctl);
    },
  );
}

/** The text of an entry, edited in the input dialog (purpose memoryEdit). */
export function memoryEdited(ctl: MemoryHost, id: string, text: string): void {
  changeMemory(ctl, ctl.memory.update(id, { text }), "memory updated");
}

/** The kind a new entry gets: the last one (a fact). */
export const newKind = (ctl: MemoryHost) => ctl.memory.kinds.at(-1) ?? "fact";

/** A new entry from the input dialog (purpose memoryNew). */
export function memoryAdded(ctl: MemoryHost, text: string): void {
  const kind = newKind(ctl);
  // The filter would hide the new entry: the whole list shows, with it selected.
  updateMemory(ctl, (x) => ({ ...x, query: "", filtering: false }));
  changeMemory(
    ctl,
    ctl.memory.save(kind, text),
    `saved as a ${kind} (k changes the kind)`,
    (row) => (row as MemoryRow).id,
  );
}

/** Deletion after its y/n confirmation. */
export function memoryForgotten(ctl: MemoryHost, id: string): void {
  changeMemory(ctl, ctl.memory.remove(id), "memory deleted");
}

/** Closes the dialog and drops a filter search still waiting for a pause in typing. */
export function closeMemory(ctl: MemoryHost): void {
  const pending = timers.get(ctl);
  if (pending) clearTimeout(pending);
  ctl.setUi((ui) => ({ ...ui, dialog: null }));
}

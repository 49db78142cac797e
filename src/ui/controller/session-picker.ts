import { moveIndex, type ListStep } from "../input/list-nav.js";
import type { DialogHost } from "./host.js";
import type { SessionRow } from "../state/data-sources.js";
import type { SessionsDialog } from "../state/dialogs.js";
import { patchDialog } from "../state/ui-state.js";

/** Typing pauses this long before a search runs (each search reads the index on the main thread). */
export const SEARCH_DEBOUNCE_MS = 150;
/** The selection rests this long before its last prompt is read from the session file. */
export const PREVIEW_DELAY_MS = 80;

const timers = new WeakMap<DialogHost, { search?: NodeJS.Timeout; preview?: NodeJS.Timeout }>();
const timersOf = (ctl: DialogHost) => {
  let t = timers.get(ctl);
  if (!t) timers.set(ctl, (t = {}));
  return t;
};

function picker(ctl: DialogHost): SessionsDialog | null {
  const d = ctl.ui.dialog;
  return d?.kind === "sessions" ? d : null;
}

/** Changes the picker if it is still open, perhaps under a question (answers may arrive after it closed). */
export function updatePicker(ctl: DialogHost, change: (d: SessionsDialog) => SessionsDialog): void {
  ctl.setUi((ui) => {
    const dialog = patchDialog(ui.dialog, "sessions", change);
    return dialog === ui.dialog ? ui : { ...ui, dialog };
  });
}

export function openPicker(ctl: DialogHost, opts: { startup?: boolean } = {}): void {
  const dialog: SessionsDialog = {
    kind: "sessions",
    query: "",
    all: false,
    index: 0,
    rows: null,
    seq: 0,
    previews: {},
    ...(opts.startup ? { startup: true } : {}),
  };
  ctl.setUi((ui) => ({ ...ui, dialog, focus: "composer" }));
  refreshPicker(ctl);
}

/** The selected row, if any. */
export function selectedRow(d: SessionsDialog): SessionRow | null {
  return d.rows?.[Math.min(d.index, d.rows.length - 1)] ?? null;
}

/** Whether the rows shown answer an older query than the one typed (a search is on its way). */
export const isSearching = (d: SessionsDialog): boolean => d.answered !== d.seq;

/**
 * Asks for the rows of the current query: the task index at once when the field is empty, a
 * full-text search after SEARCH_DEBOUNCE_MS otherwise. Rows for an older query are dropped.
 */
export function refreshPicker(ctl: DialogHost): void {
  const d = picker(ctl);
  if (!d) return;
  const seq = d.seq + 1;
  const query = d.query.trim();
  const all = d.all;
  updatePicker(ctl, (x) => ({ ...x, seq }));
  const t = timersOf(ctl);
  if (t.search) clearTimeout(t.search);
  const run = () => {
    const source = ctl.sessions;
    (query ? source.search(query, all) : source.list(all))
      .then(
        (rows) =>
          updatePicker(ctl, (x) =>
            x.seq === seq
              ? { ...x, rows, answered: seq, index: Math.min(x.index, Math.max(0, rows.length - 1)), error: undefined }
              : x,
          ),
        (error: unknown) =>
          updatePicker(ctl, (x) =>
            x.seq === seq
              ? { ...x, rows: x.rows ?? [], answered: seq, error: (error as Error).message ?? String(error) }
              : x,
          ),
      )
      .then(() => schedulePreview(ctl));
  };
  if (query) t.search = setTimeout(run, SEARCH_DEBOUNCE_MS);
  else run();
}

/** Reads the selected session's last prompt once the selection rests (search hits have a snippet). */
function schedulePreview(ctl: DialogHost): void {
  const t = timersOf(ctl);
  if (t.preview) clearTimeout(t.preview);
  t.preview = setTimeout(() => {
    const d = picker(ctl);
    const row = d ? selectedRow(d) : null;
    if (!d || !row || row.snippet || row.file in d.previews) return;
    const file = row.file;
    updatePicker(ctl, (x) => ({ ...x, previews: { ...x.previews, [file]: null } }));
    ctl.sessions.lastPrompt(file).then(
      (text) => updatePicker(ctl, (x) => ({ ...x, previews: { ...x.previews, [file]: text ?? "" } })),
      () => updatePicker(ctl, (x) => ({ ...x, previews: { ...x.previews, [file]: "" } })),
    );
  }, PREVIEW_DELAY_MS);
}

export function closePicker(ctl: DialogHost, d: SessionsDialog): void {
  const t = timersOf(ctl);
  if (t.search) clearTimeout(t.search);
  if (t.preview) clearTimeout(t.preview);
  ctl.setUi((ui) => ({ ...ui, dialog: null }));
  // A bare --resume made no task yet: leaving the picker starts a new one.
  if (d.startup) ctl.newTask();
}

/**
 * Opens a session: its task when one is on that file, else a new task that resumes it, under the
 * id the task index lists the session with (so it keeps one entry there, with its tokens).
 */
export function openSession(ctl: DialogHost, d: SessionsDialog, row: SessionRow): void {
  closePicker(ctl, { ...d, startup: false });
  const existing = Object.values(ctl.state.tasks).find((t) => t.snapshot.sessionFile === row.file);
  if (existing) {
    ctl.selectTask(existing.id);
    ctl.setUi((ui) => ({ ...ui, focus: "composer" }));
    ctl.status(`switched to "${existing.snapshot.title}"`);
    return;
  }
  // Under the id the index lists it with (the engine adds that entry's tokens): still one entry.
  const listedId = row.taskId && !ctl.state.tasks[row.taskId] ? row.taskId : undefined;
  ctl.newTask(row.file, row.title && row.title !== "(untitled)" ? row.title : undefined, listedId);
  ctl.status(`opened "${row.title}"`);
}

/** Moves the selection; its preview is read once it rests. */
export function moveSelection(ctl: DialogHost, d: SessionsDialog, step: ListStep): void {
  const n = d.rows?.length ?? 0;
  if (n === 0) return;
  const index = moveIndex(d.index, n, step);
  if (index === d.index) return;
  updatePicker(ctl, (x) => ({ ...x, index }));
  schedulePreview(ctl);
}

// Where each pane goes for the current UI state: the breakpoints of layout.ts plus what the state
// decides (a wide dialog takes the whole width, an overlay with focus takes the centre column).
// The Ink tree (../components/App.tsx), the text frame (../app/text-frame.ts) and the controller's measures share it.
import type { Dialog, UiState } from "../state/ui-state.js";
import { dialogSpec } from "../dialogs/index.js";
import { computeLayout, type Layout } from "./layout.js";

export type Centre = "transcript" | "dialog" | "tasks" | "results";

export interface ScreenLayout {
  layout: Layout;
  columns: number;
  /** Rows between the title bar and the status line. */
  bodyHeight: number;
  /** What the centre column shows. */
  centre: Centre;
  /** Width of the task list beside the centre column (0: not beside it). */
  sideTasks: number;
  /** Width of the results pane beside the centre column (0: not beside it). */
  sideResults: number;
  centreWidth: number;
}

// The session picker and the memory dialog list long lines: they take the whole width (so does a
// question asked over them: editing a memory's text keeps the layout still).
const wideKind = (d: Dialog | null | undefined): boolean =>
  Boolean(d && (dialogSpec(d).wide || ("back" in d && wideKind(d.back))));

export function screenLayout(ui: UiState): ScreenLayout {
  if (ui.screenReader) return linearLayout(ui);
  const { columns, rows, focus, dialog } = ui;
  const wide = wideKind(dialog);
  if (ui.zoom) return zoomedLayout(ui);
  const layout = computeLayout({
    columns,
    rows,
    taskListOpen: ui.taskListOpen && !wide,
    resultsOpen: ui.resultsOpen && !wide,
    resultsFocused: focus === "results",
  });
  const { taskList, results, bodyHeight } = layout;
  // Overlays take the centre column; the one with focus wins when both are open; dialogs draw there too.
  const centre: Centre = dialog
    ? "dialog"
    : results?.overlay && (focus === "results" || !taskList?.overlay)
      ? "results"
      : taskList?.overlay
        ? "tasks"
        : "transcript";
  const sideTasks = taskList && !taskList.overlay ? taskList.width : 0;
  const sideResults = results && !results.overlay ? results.width : 0;
  return {
    layout,
    columns: layout.columns,
    bodyHeight,
    centre,
    sideTasks,
    sideResults,
    centreWidth: layout.columns - sideTasks - sideResults,
  };
}

/**
 * The screen-reader layout: one pane across the whole width. The transcript by default; the task
 * list or the results pane in its place while toggled open and focused (Ctrl-T, Ctrl-R); a dialog over all.
 */
function linearLayout(ui: UiState): ScreenLayout {
  const layout = computeLayout({ columns: ui.columns, rows: ui.rows, taskListOpen: false, resultsOpen: false });
  const centre: Centre = ui.dialog
    ? "dialog"
    : ui.focus === "results" && ui.resultsOpen
      ? "results"
      : ui.focus === "tasks" && ui.taskListOpen
        ? "tasks"
        : "transcript";
  return {
    layout,
    columns: layout.columns,
    bodyHeight: layout.bodyHeight,
    centre,
    sideTasks: 0,
    sideResults: 0,
    centreWidth: layout.columns,
  };
}

/** Ctrl-F: the focused pane alone, across the whole width (a dialog still draws over it). */
function zoomedLayout(ui: UiState): ScreenLayout {
  const layout = computeLayout({ columns: ui.columns, rows: ui.rows, taskListOpen: false, resultsOpen: false });
  const full = { width: layout.columns, overlay: true };
  const centre: Centre = ui.dialog
    ? "dialog"
    : ui.focus === "results"
      ? "results"
      : ui.focus === "tasks"
        ? "tasks"
        : "transcript";
  if (centre === "results") layout.results = full;
  if (centre === "tasks") layout.taskList = full;
  return {
    layout,
    columns: layout.columns,
    bodyHeight: layout.bodyHeight,
    centre,
    sideTasks: 0,
    sideResults: 0,
    centreWidth: layout.columns,
  };
}

const cache = new WeakMap<UiState, ScreenLayout>();
/** The same, computed once per UI state. */
export function screenLayoutOf(ui: UiState): ScreenLayout {
  let hit = cache.get(ui);
  if (!hit) cache.set(ui, (hit = screenLayout(ui)));
  return hit;
}

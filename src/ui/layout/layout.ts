// Pane geometry from the terminal size: three panes from 120 columns, the results pane as an
// overlay from 80 to 119, and a single column below 80 (a tmux split) with overlays for the rest.
// The app renders at most rows - 1 lines: Ink repaints the whole screen once its output is as tall
// as the terminal (ink.js: `lastOutputHeight >= rows` -> clearTerminal).

export type LayoutMode = "wide" | "medium" | "narrow";

export interface LayoutInput {
  columns: number;
  rows: number;
  taskListOpen: boolean;
  resultsOpen: boolean;
}

export interface Layout {
  mode: LayoutMode;
  columns: number;
  /** Lines the app renders: rows - 1. */
  height: number;
  /** Rows between the title bar and the status line. */
  bodyHeight: number;
  taskList: { width: number; overlay: boolean } | null;
  results: { width: number; overlay: boolean } | null;
  /** Width of the centre column (the transcript), 0 when an overlay covers it. */
  transcriptWidth: number;
}

export const MIN_COLUMNS = 20;
export const MIN_ROWS = 6;

export function computeLayout(input: LayoutInput): Layout {
  const columns = Math.max(MIN_COLUMNS, input.columns);
  const height = Math.max(MIN_ROWS, input.rows) - 1;
  const bodyHeight = height - 2;
  const mode: LayoutMode = columns >= 120 ? "wide" : columns >= 80 ? "medium" : "narrow";
  let taskList: Layout["taskList"] = null;
  let results: Layout["results"] = null;
  let transcriptWidth = columns;
  if (mode === "wide") {
    if (input.taskListOpen) taskList = { width: 26, overlay: false };
    if (input.resultsOpen) results = { width: Math.min(56, Math.floor(columns * 0.34)), overlay: false };
    transcriptWidth = columns - (taskList?.width ?? 0) - (results?.width ?? 0);
  } else if (mode === "medium") {
    if (input.taskListOpen) taskList = { width: 22, overlay: false };
    transcriptWidth = columns - (taskList?.width ?? 0);
    if (input.resultsOpen) results = { width: Math.min(60, transcriptWidth), overlay: true };
  } else {
    // One column: an open side pane covers the transcript.
    if (input.resultsOpen) results = { width: columns, overlay: true };
    else if (input.taskListOpen) taskList = { width: columns, overlay: true };
  }
  return { mode, columns, height, bodyHeight, taskList, results, transcriptWidth };
}

// Pane geometry from the terminal size: three panes from 120 columns, the results pane as an
// overlay from 80 to 119, and a single column below 80 (a tmux split) with overlays for the rest.
// The transcript is what people read: it keeps 60% of 120 columns and a growing share beyond
// (side panes grow slower than the terminal; see sidePaneWidths).
// The app renders at most rows - 1 lines: Ink repaints the whole screen once its output is as tall
// as the terminal (ink.js: `lastOutputHeight >= rows` -> clearTerminal).

export type LayoutMode = "wide" | "medium" | "narrow";

export interface LayoutInput {
  columns: number;
  rows: number;
  taskListOpen: boolean;
  resultsOpen: boolean;
  /** The results pane has focus: from 120 columns it widens to 40% (a diff needs the room). */
  resultsFocused?: boolean;
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

/** The side panes' widths beside the transcript from 120 columns: 20 + 28 at 120 (transcript 72,
 * 60%), widening by 1 and 2 columns per 10 (transcript 100 of 160, 128 of 200), up to 28 and 56. */
export function sidePaneWidths(columns: number): { taskList: number; results: number } {
  const extra = Math.max(0, columns - 120);
  return { taskList: Math.min(28, 20 + Math.floor(extra / 10)), results: Math.min(56, 28 + Math.floor(extra / 5)) };
}

export function computeLayout(input: LayoutInput): Layout {
  const columns = Math.max(MIN_COLUMNS, input.columns);
  const height = Math.max(MIN_ROWS, input.rows) - 1;
  const bodyHeight = height - 2;
  const mode: LayoutMode = columns >= 120 ? "wide" : columns >= 80 ? "medium" : "narrow";
  let taskList: Layout["taskList"] = null;
  let results: Layout["results"] = null;
  let transcriptWidth = columns;
  if (mode === "wide") {
    const side = sidePaneWidths(columns);
    if (input.taskListOpen) taskList = { width: side.taskList, overlay: false };
    if (input.resultsOpen)
      results = {
        width: input.resultsFocused ? Math.max(side.results, Math.floor(columns * 0.4)) : side.results,
        overlay: false,
      };
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

// The whole screen as lines, from the app state: the title bar, the panes side by side, the
// status line. Pure apart from the renderer caches, so the very first frame can be drawn before
// Ink has even loaded, and the Ink app draws exactly the same thing afterwards.
import type { AppServices } from "./context/services.js";
import { computeLayout } from "./layout/layout.js";
import { resultsPane } from "./panes/results.js";
import { statusLine } from "./panes/status.js";
import { taskListPane } from "./panes/task-list.js";
import { titleLine } from "./panes/title.js";
import { transcriptPane } from "./panes/transcript.js";
import type { Dialog } from "./controller/ui-state.js";
import type { AppState } from "./state/store.js";

export interface Screen {
  lines: string[];
  /** Where the terminal cursor goes (the composer), or none. */
  cursor: { x: number; y: number } | undefined;
}

export function composeScreen(s: AppState, sv: AppServices): Screen {
  const { columns, rows, focus, dialog } = s.ui;
  // The session picker and the memory dialog list long lines: they take the whole width.
  const wideKind = (d: Dialog | null | undefined): boolean => d?.kind === "sessions" || d?.kind === "memory" || Boolean(d && "back" in d && wideKind(d.back));
  // (So does a question asked over them: editing a memory's text keeps the layout still.)
  const wide = wideKind(dialog);
  const layout = computeLayout({ columns, rows, taskListOpen: s.ui.taskListOpen && !wide, resultsOpen: s.ui.resultsOpen && !wide });
  const { taskList, results, bodyHeight } = layout;
  // Overlays take the centre column; the one with focus wins when both are open; dialogs draw there too.
  const centre = dialog ? "transcript" : results?.overlay && (focus === "results" || !taskList?.overlay) ? "results" : taskList?.overlay ? "tasks" : "transcript";
  const sideTasks = taskList && !taskList.overlay ? taskList.width : 0;
  const sideResults = results && !results.overlay ? results.width : 0;
  const centreWidth = layout.columns - sideTasks - sideResults;
  let cursor: Screen["cursor"];
  const left = sideTasks ? taskListPane(s, sv, sideTasks, bodyHeight) : centre === "tasks" ? taskListPane(s, sv, centreWidth, bodyHeight) : [];
  const right = sideResults ? resultsPane(s, sv, sideResults, bodyHeight) : centre === "results" ? resultsPane(s, sv, centreWidth, bodyHeight) : [];
  const middle = centre === "transcript" ? transcriptPane(s, sv, centreWidth, bodyHeight, sideTasks, 1, (c) => (cursor = c)) : centre === "tasks" ? left : right;
  const lines = [titleLine(s, sv, layout.columns)];
  for (let r = 0; r < bodyHeight; r++) lines.push((sideTasks ? (left[r] ?? "") : "") + (middle[r] ?? "") + (sideResults ? (right[r] ?? "") : ""));
  lines.push(statusLine(s, sv, layout.columns));
  return { lines, cursor };
}

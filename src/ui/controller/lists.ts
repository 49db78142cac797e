// What the two list panes share: the results pane's measure and Esc back to the input. Their keys
// are in ../focus/ (tasks.ts, results.ts) and ../tabs/.
import type { Key } from "../input/keys.js";
import type { UiHost } from "./host.js";

/**
 * Esc in the task list or the results pane: back to the input, never "stop the turn" (Esc on the
 * subagent board must not stop the task and all its children). A pane drawn over the transcript
 * gets out of the way. Shared by both list panes (../focus/tasks.ts, ../focus/results.ts).
 */
export function leaveListPane(ctl: UiHost, key: Key): boolean {
  if (!ctl.is("stop", key)) return false;
  ctl.setUi((ui) => ({
    ...ui,
    focus: "composer",
    resultsOpen: ui.resultsOpen && (ui.focus !== "results" || ui.columns >= 120),
    taskListOpen: ui.taskListOpen && (ui.focus !== "tasks" || ui.columns >= 80),
  }));
  return true;
}

// The whole screen as text lines, from the app state: the same selectors, pane functions and
// geometry the Ink tree (../components/App.tsx) draws with, side by side by hand. The very first frame is written with it before
// Ink has even loaded, so it must match what the Ink app then draws.
import type { AppServices } from "../context/services.js";
import { toAscii } from "../render/ascii.js";
import { screenLayout } from "../layout/screen-layout.js";
import { dialogArea, selectDialog } from "../panes/dialog-area.js";
import { resultsPane } from "../panes/results.js";
import { selectStatus, statusLine } from "../panes/status.js";
import { linearTaskListPane } from "../panes/linear-task-list.js";
import { selectTaskList, taskListPane } from "../panes/task-list.js";
import { selectTitle, titleLine } from "../panes/title.js";
import { selectTranscript, transcriptFrame } from "../panes/transcript-pane.js";
import type { AppState } from "../state/store.js";

export interface TextFrame {
  lines: string[];
  /** Where the terminal cursor goes (the composer), or none. */
  cursor: { x: number; y: number } | undefined;
}

export function composeTextFrame(s: AppState, sv: AppServices): TextFrame {
  const { columns, bodyHeight, centre, sideTasks, sideResults, centreWidth } = screenLayout(s.ui);
  const left = sideTasks ? taskListPane(selectTaskList(s), sv, sideTasks, bodyHeight).lines : [];
  const right = sideResults ? resultsPane(s, sv, sideResults, bodyHeight).lines : [];
  let middle: string[];
  let cursor: TextFrame["cursor"];
  if (centre === "dialog" && s.ui.dialog) middle = dialogArea(selectDialog(s), sv, centreWidth, bodyHeight);
  else if (centre === "tasks")
    middle = s.ui.screenReader
      ? linearTaskListPane(selectTaskList(s), sv, centreWidth, bodyHeight)
      : taskListPane(selectTaskList(s), sv, centreWidth, bodyHeight).lines;
  else if (centre === "results") middle = resultsPane(s, sv, centreWidth, bodyHeight).lines;
  else {
    const frame = transcriptFrame(selectTranscript(s), sv, centreWidth, bodyHeight);
    middle = frame.lines;
    cursor = frame.cursor && { x: sideTasks + frame.cursor.x, y: 1 + frame.cursor.y };
  }
  const lines = [titleLine(selectTitle(s), sv, columns)];
  for (let r = 0; r < bodyHeight; r++) lines.push((left[r] ?? "") + (middle[r] ?? "") + (right[r] ?? ""));
  lines.push(statusLine(selectStatus(s), sv, columns));
  // As components/Lines.tsx does for the Ink frames.
  return { lines: sv.ascii ? lines.map(toAscii) : lines, cursor };
}

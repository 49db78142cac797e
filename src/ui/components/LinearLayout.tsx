// The screen-reader layout ("ui": {"screenReader": true}, --screen-reader): one column, one pane at
// a time. The transcript by default; the task list or the results pane in its place while toggled
// open and focused; a dialog over all. No side-by-side columns, no borders, words instead of glyphs
// (view/linear-cards.ts) and no animation (services.motion is off). Geometry: layout/screen-layout.ts.
import { Box } from "ink";
import { useStore } from "../context/useStore.js";
import { screenLayoutOf } from "../layout/screen-layout.js";
import { DialogArea } from "./DialogArea.js";
import { ResultsPane } from "./ResultsPane.js";
import { StatusLine } from "./StatusLine.js";
import { TaskList } from "./TaskList.js";
import { TitleBar } from "./TitleBar.js";
import { Transcript } from "./Transcript.js";

export function LinearLayout() {
  const g = useStore(
    (s) => screenLayoutOf(s.ui),
    (a, b) => a.centre === b.centre && a.columns === b.columns && a.bodyHeight === b.bodyHeight,
  );
  const { columns, bodyHeight: body, centre } = g;
  return (
    <Box flexDirection="column" width={columns} height={body + 2}>
      <TitleBar width={columns} />
      {centre === "transcript" && <Transcript width={columns} height={body} left={0} top={1} />}
      {centre === "dialog" && <DialogArea width={columns} height={body} />}
      {centre === "tasks" && <TaskList width={columns} height={body} linear />}
      {centre === "results" && <ResultsPane width={columns} height={body} plain />}
      <StatusLine width={columns} />
    </Box>
  );
}

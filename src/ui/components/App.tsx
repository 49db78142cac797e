// The Ink app: the title bar, the panes side by side, the status line. Each pane is a component
// that subscribes to the store slices it draws, so a streamed token re-renders the transcript
// alone; each draws width-exact lines in a Box of its size, which keeps Ink's output stage on its
// fast path (patches/ink@6.8.0/7-output-rect-path.diff). Geometry: layout/screen-layout.ts. In screen-reader mode
// the app is the linear layout instead (components/LinearLayout.tsx).
import { Box } from "ink";
import { DialogArea } from "./DialogArea.js";
import { LinearLayout } from "./LinearLayout.js";
import { ResultsPane } from "./ResultsPane.js";
import { StatusLine } from "./StatusLine.js";
import { TaskList } from "./TaskList.js";
import { TitleBar } from "./TitleBar.js";
import { Transcript } from "./Transcript.js";
import { useStore } from "../context/useStore.js";
import { screenLayoutOf } from "../layout/screen-layout.js";

export function App() {
  const linear = useStore((s) => s.ui.screenReader);
  const g = useStore(
    (s) => screenLayoutOf(s.ui),
    (a, b) =>
      a.centre === b.centre &&
      a.columns === b.columns &&
      a.bodyHeight === b.bodyHeight &&
      a.sideTasks === b.sideTasks &&
      a.sideResults === b.sideResults,
  );
  const { columns, bodyHeight: body, sideTasks, sideResults, centreWidth } = g;
  if (linear) return <LinearLayout />;
  return (
    <Box flexDirection="column" width={columns} height={body + 2}>
      <TitleBar width={columns} />
      <Box height={body}>
        {sideTasks > 0 && <TaskList width={sideTasks} height={body} />}
        {g.centre === "transcript" && <Transcript width={centreWidth} height={body} left={sideTasks} top={1} />}
        {g.centre === "dialog" && <DialogArea width={centreWidth} height={body} />}
        {g.centre === "tasks" && <TaskList width={centreWidth} height={body} />}
        {g.centre === "results" && <ResultsPane width={centreWidth} height={body} />}
        {sideResults > 0 && <ResultsPane width={sideResults} height={body} />}
      </Box>
      <StatusLine width={columns} />
    </Box>
  );
}

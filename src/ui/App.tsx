// Layout only: picks the panes for the terminal size and places them. Everything else lives in
// the components and the controller.
import { Box } from "ink";
import { useStore } from "./hooks/useStore.js";
import { computeLayout } from "./layout/layout.js";
import { ResultsPane } from "./components/ResultsPane.js";
import { StatusLine } from "./components/StatusLine.js";
import { TaskListPane } from "./components/TaskListPane.js";
import { TitleBar } from "./components/TitleBar.js";
import { TranscriptPane } from "./components/TranscriptPane.js";

export function App() {
  const columns = useStore((s) => s.ui.columns);
  const rows = useStore((s) => s.ui.rows);
  const taskListOpen = useStore((s) => s.ui.taskListOpen);
  const resultsOpen = useStore((s) => s.ui.resultsOpen);
  const focus = useStore((s) => s.ui.focus);
  const dialog = useStore((s) => s.ui.dialog !== null);
  const layout = computeLayout({ columns, rows, taskListOpen, resultsOpen });
  const { taskList, results, bodyHeight } = layout;
  // Overlays take the centre column; the one with focus wins when both are open.
  const centre = dialog
    ? "transcript"
    : results?.overlay && (focus === "results" || !taskList?.overlay) ? "results" : taskList?.overlay ? "tasks" : "transcript";
  const sideTasks = taskList && !taskList.overlay ? taskList.width : 0;
  const centreWidth = centre === "transcript" ? layout.transcriptWidth : layout.columns - sideTasks - (results && !results.overlay ? results.width : 0);
  return (
    <Box flexDirection="column" width={layout.columns} height={layout.height}>
      <TitleBar width={layout.columns} />
      <Box flexDirection="row" height={bodyHeight}>
        {taskList && !taskList.overlay ? <TaskListPane width={taskList.width} height={bodyHeight} /> : null}
        {centre === "transcript" ? <TranscriptPane width={centreWidth} height={bodyHeight} left={sideTasks} top={1} /> : null}
        {centre === "tasks" ? <TaskListPane width={centreWidth} height={bodyHeight} /> : null}
        {centre === "results" ? <ResultsPane width={centreWidth} height={bodyHeight} /> : null}
        {results && !results.overlay ? <ResultsPane width={results.width} height={bodyHeight} /> : null}
      </Box>
      <StatusLine width={layout.columns} />
    </Box>
  );
}

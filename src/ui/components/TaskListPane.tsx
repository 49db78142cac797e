// The task list: status glyphs, numbers for Alt-1..9, pins, tokens, a flag on tasks that need you.
import { Box, Text } from "ink";
import { useApp, useStore } from "../hooks/useStore.js";
import { taskListLines } from "../view/panes.js";

export function TaskListPane({ width, height }: { width: number; height: number }) {
  const { palette, ctl, ascii } = useApp();
  const tasks = useStore((s) => s.tasks);
  const order = useStore((s) => s.order);
  const current = useStore((s) => s.current);
  const focused = useStore((s) => s.ui.focus === "tasks");
  const index = useStore((s) => s.ui.taskIndex);
  const filter = useStore((s) => s.ui.taskFilter);
  void tasks;
  void order;
  const lines = taskListLines(palette, { tasks: ctl.visibleTasks(), current, focused, index, filter, ascii }, width - 1, height);
  while (lines.length < height) lines.push(" ".repeat(width - 1));
  return (
    <Box width={width} height={height} flexDirection="column">
      <Text wrap="truncate-end">{lines.map((l) => `${l}${palette.border(ascii ? "|" : "│")}`).join("\n")}</Text>
    </Box>
  );
}

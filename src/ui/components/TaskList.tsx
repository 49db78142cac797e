// The task list: status glyphs (a spinner on running tasks), numbers for Alt-1..9, pins, tokens.
import { useMemo } from "react";
import { useApp, useSlices } from "../context/useStore.js";
import { linearTaskListPane } from "../panes/linear-task-list.js";
import { taskListPane } from "../panes/task-list.js";
import { Lines } from "./Lines.js";

/** `linear`: the screen-reader form (words, no glyphs or border, no spinner). */
export function TaskList({ width, height, linear = false }: { width: number; height: number; linear?: boolean }) {
  const sv = useApp();
  // The plans' progress is a string, so a streamed token (a new transcript) is no change here.
  const slices = useSlices((s) => [
    s.tasks,
    s.order,
    s.current,
    s.ui,
    Object.values(s.transcripts)
      .map((t) => `${t.todo.filter((i) => i.status === "completed").length}/${t.todo.length}`)
      .join(),
  ]);
  const { lines, spin } = useMemo(
    () =>
      linear
        ? { lines: linearTaskListPane(sv.store.getView(), sv, width, height), spin: [] }
        : taskListPane(sv.store.getView(), sv, width, height),
    [sv, width, height, linear, ...slices],
  );
  return <Lines lines={lines} width={width} spin={spin} />;
}

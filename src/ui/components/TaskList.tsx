// The task list: status glyphs (a spinner on running tasks), numbers for Alt-1..9, pins, tokens.
import { useMemo } from "react";
import { useApp, useStore } from "../context/useStore.js";
import { linearTaskListPane } from "../panes/linear-task-list.js";
import { selectTaskList, taskListPane } from "../panes/task-list.js";
import { sameParts } from "../state/select.js";
import { Lines } from "./Lines.js";

/** `linear`: the screen-reader form (words, no glyphs or border, no spinner). */
export function TaskList({ width, height, linear = false }: { width: number; height: number; linear?: boolean }) {
  const sv = useApp();
  // The plans' progress is a string, so a streamed token (a new transcript) is no change here.
  const model = useStore(selectTaskList, sameParts);
  const { lines, spin } = useMemo(
    () =>
      linear
        ? { lines: linearTaskListPane(model, sv, width, height), spin: [] }
        : taskListPane(model, sv, width, height),
    [model, sv, width, height, linear],
  );
  return <Lines lines={lines} width={width} spin={spin} />;
}

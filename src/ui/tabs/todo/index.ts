// The Todo tab: the task's plan (todo_write), done items dimmed (a plain list).
import { listLines } from "../../view/panes.js";
import { taskOf, type ResultsTabDef, type TabLines } from "../tab.js";

const lines: TabLines = (s, sv, inner, height, focused) => {
  const { palette: p, ascii } = sv;
  const todo = taskOf(s)?.todo ?? [];
  const mark = {
    pending: ascii ? "[ ]" : "○",
    in_progress: ascii ? "[>]" : "▸",
    completed: ascii ? "[x]" : "✓",
  } as const;
  const done = todo.filter((i) => i.status === "completed").length;
  const rows = todo.map((i) => {
    const text = `${mark[i.status]} ${i.content}`;
    return i.status === "completed" ? p.dim(text) : i.status === "in_progress" ? p.accent(text) : text;
  });
  const body = todo.length
    ? [p.dim(`${done}/${todo.length} done`), ...listLines(p, rows, s.ui.resultsIndex, focused, inner, height - 1, "")]
    : [p.dim("no plan yet")];
  return { body, measure: { count: todo.length, hunks: 0 } };
};

export const todoTab: ResultsTabDef = {
  label: "Todo",
  short: "Todo",
  lines,
  slices: (s) => [s.ui.resultsIndex, taskOf(s)?.todo],
};

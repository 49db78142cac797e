// The Todo tab: the task's plan (todo_write), done items dimmed (a plain list).
import { selector } from "../../state/select.js";
import type { AppState } from "../../state/store.js";
import type { TranscriptState } from "../../state/transcript.js";
import { listLines } from "../../view/panes.js";
import { defineTab, taskOf, type TabLines } from "../tab.js";

interface TodoModel {
  todo: TranscriptState["todo"] | undefined;
  index: number;
}

const lines: TabLines<TodoModel> = (m, sv, inner, height, focused) => {
  const { palette: p, ascii } = sv;
  const todo = m.todo ?? [];
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
    ? [p.dim(`${done}/${todo.length} done`), ...listLines(p, rows, m.index, focused, inner, height - 1, "")]
    : [p.dim("no plan yet")];
  return { body, measure: { count: todo.length, hunks: 0 } };
};

export const todoTab = defineTab({
  label: "Todo",
  short: "Todo",
  select: selector((s: AppState): TodoModel => ({ todo: taskOf(s)?.todo, index: s.ui.resultsIndex })),
  lines,
});

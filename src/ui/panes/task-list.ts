// The task list: status glyphs, numbers for Alt-1..9, pins, tokens, a flag on tasks that need you.
import type { AppServices } from "../context/services.js";
import type { AppState } from "../state/store.js";
import { padToWidth } from "../render/wrap.js";
import { taskListLines } from "../view/panes.js";

export function taskListPane(s: AppState, sv: AppServices, width: number, height: number): string[] {
  const { palette, ctl, ascii } = sv;
  const tasks = (s.tasks);
  const order = (s.order);
  const current = (s.current);
  const focused = (s.ui.focus === "tasks");
  const index = (s.ui.taskIndex);
  const filter = (s.ui.taskFilter);
  void tasks;
  void order;
  if (width <= 1 || height <= 0) return [];
  const progress: Record<string, string> = {};
  for (const [id, t] of Object.entries(s.transcripts)) {
    if (t.todo.length) progress[id] = `${t.todo.filter((i) => i.status === "completed").length}/${t.todo.length}`;
  }
  const lines = taskListLines(palette, { tasks: ctl.visibleTasks(), current, focused, index, filter, ascii, progress }, width - 1, height);
  while (lines.length < height) lines.push(" ".repeat(width - 1));
  const bar = palette.border(ascii ? "|" : "│");
  return lines.slice(0, height).map((l) => `${padToWidth(l, width - 1)}${bar}`);
}

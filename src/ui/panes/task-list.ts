// The task list: status glyphs, numbers for Alt-1..9, pins, tokens, a flag on tasks that need you.
import type { AppServices } from "../context/services.js";
import type { AppState } from "../state/store.js";
import { padToWidth } from "../render/wrap.js";
import { taskListLines, windowAround } from "../view/panes.js";

/** `spin`: rows whose status glyph (column 0) belongs to a running task. */
export function taskListPane(
  s: AppState,
  sv: AppServices,
  width: number,
  height: number,
): { lines: string[]; spin: number[] } {
  const { palette, ctl, ascii } = sv;
  const focused = s.ui.focus === "tasks";
  const index = s.ui.taskIndex;
  if (width <= 1 || height <= 0) return { lines: [], spin: [] };
  const progress: Record<string, string> = {};
  for (const [id, t] of Object.entries(s.transcripts)) {
    if (t.todo.length) progress[id] = `${t.todo.filter((i) => i.status === "completed").length}/${t.todo.length}`;
  }
  const tasks = ctl.visibleTasks();
  const lines = taskListLines(
    palette,
    { tasks, current: s.current, focused, index, filter: s.ui.taskFilter, ascii, progress },
    width - 1,
    height,
  );
  while (lines.length < height) lines.push(" ".repeat(width - 1));
  const bar = palette.border(ascii ? "|" : "│");
  // The same window taskListLines shows, under its header row.
  const { offset } = windowAround(
    tasks.map(() => ""),
    index,
    Math.max(1, height - 1),
  );
  const spin = tasks
    .slice(offset, offset + height - 1)
    .flatMap((t, i) => (t.snapshot.status === "running" ? [i + 1] : []));
  return { lines: lines.slice(0, height).map((l) => `${padToWidth(l, width - 1)}${bar}`), spin };
}

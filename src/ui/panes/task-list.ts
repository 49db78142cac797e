// The task list: status glyphs, numbers for Alt-1..9, pins, tokens, a flag on tasks that need you.
// Its model (`selectTaskList`) is also the screen-reader form's (./linear-task-list.ts): the tasks,
// their order and the filter, the selection, and each plan's progress, not the transcripts behind it.
import type { AppServices } from "../context/services.js";
import { visibleTasks, type AppState } from "../state/store.js";
import { selector } from "../state/select.js";
import { padToWidth } from "../render/wrap.js";
import { taskListLines, windowAround } from "../view/panes.js";

export interface TaskListModel {
  tasks: AppState["tasks"];
  order: AppState["order"];
  current: string | null;
  focused: boolean;
  index: number;
  filter: string;
  /** Each plan's progress ("done/total") by task id, the same object while no plan moved. */
  progress: Readonly<Record<string, string>>;
  redraws: number;
}

let lastProgress: { key: string; progress: Record<string, string> } = { key: "", progress: {} };

/** The plans' progress: a streamed token (a new transcript) is no change here. */
function progressOf(s: AppState): Record<string, string> {
  const progress: Record<string, string> = {};
  for (const [id, t] of Object.entries(s.transcripts))
    if (t.todo.length) progress[id] = `${t.todo.filter((i) => i.status === "completed").length}/${t.todo.length}`;
  const key = JSON.stringify(progress);
  if (key !== lastProgress.key) lastProgress = { key, progress };
  return lastProgress.progress;
}

export const selectTaskList = selector(
  (s: AppState): TaskListModel => ({
    tasks: s.tasks,
    order: s.order,
    current: s.current,
    focused: s.ui.focus === "tasks",
    index: s.ui.taskIndex,
    filter: s.ui.taskFilter,
    progress: progressOf(s),
    redraws: s.redraws,
  }),
);

/** `spin`: rows whose status glyph (column 0) belongs to a running task. */
export function taskListPane(
  m: TaskListModel,
  sv: AppServices,
  width: number,
  height: number,
): { lines: string[]; spin: number[] } {
  const { palette, ascii } = sv;
  const { focused, index, progress } = m;
  if (width <= 1 || height <= 0) return { lines: [], spin: [] };
  const tasks = visibleTasks(m, m.filter);
  const lines = taskListLines(
    palette,
    { tasks, current: m.current, focused, index, filter: m.filter, ascii, progress },
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

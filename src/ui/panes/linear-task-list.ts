// The task list of the screen-reader layout: one task a line, its number, title and state in words
// (no glyphs, no border), the selection marked with "> " as well as colour.
import type { AppServices } from "../context/services.js";
import { visibleTasks } from "../state/store.js";
import type { TaskListModel } from "./task-list.js";
import { padToWidth, truncateToWidth } from "../render/wrap.js";
import { formatTokens, statusPaint } from "../view/chrome.js";
import { taskStatusWord } from "../view/linear-cards.js";
import { windowAround } from "../view/panes.js";

/** Exactly `height` lines of `width` columns. */
export function linearTaskListPane(m: TaskListModel, sv: AppServices, width: number, height: number): string[] {
  const { palette: p } = sv;
  if (width <= 0 || height <= 0) return [];
  const tasks = visibleTasks(m, m.filter);
  const index = m.index;
  const head = `Tasks: ${tasks.length}${m.filter ? `, filter ${m.filter}` : ""}. Enter opens, r renames, p pins, x deletes, / filters, Ctrl-T closes.`;
  const rows = tasks.map((t, i) => {
    const snap = t.snapshot;
    const plan = m.progress[t.id];
    const [done, total] = plan ? plan.split("/") : [];
    const parts = [
      `${i + 1}. ${snap.title}`,
      statusPaint(p, snap.status)(taskStatusWord[snap.status]),
      ...(t.id === m.current ? ["open"] : []),
      ...(snap.pinned ? ["pinned"] : []),
      ...(snap.location === "remote" ? ["remote"] : []),
      ...(plan ? [`plan ${done} of ${total} done`] : []),
      `${formatTokens(snap.usage.prompt + snap.usage.completion)} tokens`,
    ];
    const line = padToWidth(truncateToWidth(`${i === index ? "> " : "  "}${parts.join(", ")}`, width), width);
    return i === index ? p.selectionStyle(line) : line;
  });
  if (rows.length === 0) rows.push(p.dim(m.filter ? "No task matches." : "No tasks."));
  const body = windowAround(rows, index, Math.max(1, height - 1)).lines;
  const lines = [p.title(truncateToWidth(head, width)), ...body].map((l) =>
    padToWidth(truncateToWidth(l, width), width),
  );
  while (lines.length < height) lines.push(" ".repeat(width));
  return lines.slice(0, height);
}

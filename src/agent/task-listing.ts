// A task in ~/.nanohermes's task index (session/task-index.ts), so the task list shows it in
// later runs: written after each turn and change, dropped when the task is deleted.
import { log } from "../config/log.js";
import { readTaskIndex, updateTaskIndex } from "../session/task-index.js";
import type { Task } from "./task-state.js";

/**
 * Puts the task first in the index; a task with no message yet is not listed. One entry per
 * session file: an older entry for the same file (another id) is replaced. A task whose session is
 * not loaded (listed from an earlier run, renamed or pinned before it was opened) updates its entry
 * in place. Contract: never rejects.
 */
export async function indexTask(home: string, workspace: string, task: Task): Promise<void> {
  if (!task.agent) {
    await updateTaskIndex(home, (entries) =>
      entries.map((e) => (e.id === task.id ? { ...e, title: task.title, pinned: task.pinned } : e)),
    ).catch((error: unknown) => log("warn", "task index not updated", error));
    return;
  }
  if (task.agent.messages.length <= 1) return;
  const entry = {
    id: task.id,
    sessionFile: task.sessionFile,
    title: task.title,
    pinned: task.pinned,
    workspace,
    updatedAt: task.updatedAt,
    usage: { ...task.usage },
  };
  await updateTaskIndex(home, (entries) => [
    entry,
    ...entries.filter((e) => e.id !== task.id && e.sessionFile !== task.sessionFile),
  ]).catch((error: unknown) => log("warn", "task index not updated", error));
}

/** Drops the task from the index. Contract: never rejects. */
export async function unindexTask(home: string, id: string): Promise<void> {
  await updateTaskIndex(home, (entries) => entries.filter((e) => e.id !== id)).catch(() => {});
}

/**
 * A task made on a session file the index lists under another task (a session opened from
 * /resume that the task list did not show: a one-shot run, an older task of the same title) takes
 * over that entry's tokens and pin, as its replacement in the index (indexTask) will carry them:
 * the session stays one entry, its usage whole. Contract: never rejects; false when none was listed.
 */
export async function adoptListed(home: string, task: Task): Promise<boolean> {
  const entry = (await readTaskIndex(home)).find((e) => e.sessionFile === task.sessionFile);
  if (!entry) return false;
  task.usage.prompt += entry.usage?.prompt ?? 0;
  task.usage.completion += entry.usage?.completion ?? 0;
  task.pinned ||= entry.pinned;
  if (!task.titleFromUser) task.title = entry.title;
  return true;
}

// The task list: move, open, rename, pin, delete, filter and export tasks; Esc back to the input.
import type { AreaHost } from "../controller/host.js";
import { leaveListPane } from "../controller/lists.js";
import type { InputEvent } from "../input/keys.js";
import { askExport } from "../controller/export.js";
import type { FocusSpec } from "./focus.js";

export const tasksFocus: FocusSpec = {
  keys: (host, event) => event.kind === "key" && (leaveListPane(host, event.key) || taskListKey(host, event)),
};

function taskListKey(host: AreaHost, event: Extract<InputEvent, { kind: "key" }>): boolean {
  const tasks = host.visibleTasks();
  const index = Math.min(host.ui.taskIndex, Math.max(0, tasks.length - 1));
  const task = tasks[index];
  const action = host.action(event.key, [
    "listUp",
    "listDown",
    "listSelect",
    "listRename",
    "listPin",
    "listDelete",
    "listFilter",
    "listExport",
    "listExportJson",
  ]);
  switch (action) {
    case "listUp":
    case "listDown": {
      const next = Math.max(0, Math.min(tasks.length - 1, index + (action === "listUp" ? -1 : 1)));
      host.setUi((ui) => ({ ...ui, taskIndex: next }));
      return true;
    }
    case "listSelect":
      if (task) host.selectTask(task.id);
      host.setUi((ui) => ({ ...ui, focus: "composer", taskListOpen: ui.columns >= 80 ? ui.taskListOpen : false }));
      return true;
    case "listRename":
      if (task)
        host.setUi((ui) => ({
          ...ui,
          dialog: {
            kind: "input",
            purpose: "rename",
            title: "Rename task",
            value: task.snapshot.title,
            target: task.id,
            index: 0,
          },
        }));
      return true;
    case "listPin":
      if (task) host.send({ type: "task.update", taskId: task.id, pinned: !task.snapshot.pinned });
      return true;
    case "listDelete":
      if (task)
        host.setUi((ui) => ({
          ...ui,
          dialog: {
            kind: "confirm",
            title: `Delete task "${task.snapshot.title}" and its session? (y/n)`,
            action: "delete",
            target: task.id,
          },
        }));
      return true;
    case "listFilter":
      host.setUi((ui) => ({
        ...ui,
        dialog: {
          kind: "input",
          purpose: "filter",
          title: "Filter tasks",
          value: ui.taskFilter,
          index: 0,
        },
      }));
      return true;
    case "listExport":
    case "listExportJson":
      if (task) askExport(host, task.id, action === "listExport" ? "markdown" : "json");
      return true;
    default:
      return false;
  }
}

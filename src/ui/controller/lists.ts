import type { InputEvent } from "../input/keys.js";
import { agentsTabKey, bindingIndex } from "./agents.js";
import type { Controller } from "./controller.js";
import { diffTabKey } from "./diff-tab.js";
import { turnsTabKey } from "./rewind.js";
import { shownTabs } from "./ui-state.js";

/** Lines in the list the results pane shows for its current tab (set by the pane when it renders). */
export interface ResultsMeasure {
  count: number;
  hunks: number;
  /** An open diff of the Turns tab: its rendered lines, the rows showing them, where hunks start. */
  lines?: number;
  height?: number;
  hunkStarts?: number[];
}

export function handleListKey(ctl: Controller, event: InputEvent): boolean {
  if (event.kind !== "key") return false;
  if (ctl.ui.focus === "results" && ctl.ui.resultsTab === "turns" && turnsTabKey(ctl, event.key)) return true;
  if (ctl.ui.focus === "results" && ctl.ui.resultsTab === "diff" && diffTabKey(ctl, event.key)) return true;
  if (ctl.is("stop", event.key)) {
    // Back to the input, never "stop the turn": Esc on the subagent board must not stop the task
    // and all its children. A pane drawn over the transcript gets out of the way.
    ctl.setUi((ui) => ({
      ...ui,
      focus: "composer",
      resultsOpen: ui.resultsOpen && (ui.focus !== "results" || ui.columns >= 120),
      taskListOpen: ui.taskListOpen && (ui.focus !== "tasks" || ui.columns >= 80),
    }));
    return true;
  }
  return ctl.ui.focus === "tasks" ? taskListKey(ctl, event) : resultsKey(ctl, event);
}

function taskListKey(ctl: Controller, event: Extract<InputEvent, { kind: "key" }>): boolean {
  const tasks = ctl.visibleTasks();
  const index = Math.min(ctl.ui.taskIndex, Math.max(0, tasks.length - 1));
  const task = tasks[index];
  const action = ctl.action(event.key, [
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
      ctl.setUi((ui) => ({ ...ui, taskIndex: next }));
      return true;
    }
    case "listSelect":
      if (task) ctl.selectTask(task.id);
      ctl.setUi((ui) => ({ ...ui, focus: "composer", taskListOpen: ui.columns >= 80 ? ui.taskListOpen : false }));
      return true;
    case "listRename":
      if (task)
        ctl.setUi((ui) => ({
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
      if (task) ctl.send({ type: "task.update", taskId: task.id, pinned: !task.snapshot.pinned });
      return true;
    case "listDelete":
      if (task)
        ctl.setUi((ui) => ({
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
      ctl.setUi((ui) => ({
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
      if (task)
        ctl.send({ type: "task.export", taskId: task.id, format: action === "listExport" ? "markdown" : "json" });
      return true;
    default:
      return false;
  }
}

function resultsKey(ctl: Controller, event: Extract<InputEvent, { kind: "key" }>): boolean {
  const ui = ctl.ui;
  const measure = ctl.results;
  const action = ctl.action(event.key, [
    "nextTab",
    "prevTab",
    "listUp",
    "listDown",
    "listSelect",
    "listPick",
    "agentStop",
    "nextHunk",
    "prevHunk",
  ]);
  if (action && ui.resultsTab === "agents" && agentsTabKey(ctl, action, event.key)) return true;
  switch (action) {
    case "nextTab":
    case "prevTab": {
      const id = ctl.state.current;
      const turns = Boolean(id && ctl.state.transcripts[id]?.checkpoints.length);
      const tabs = shownTabs(ui.resultsTab, turns, ui.worktreeDiff !== null);
      const i = tabs.indexOf(ui.resultsTab);
      const tab = tabs[(i + (action === "nextTab" ? 1 : tabs.length - 1)) % tabs.length]!;
      ctl.setUi((u) => ({ ...u, resultsTab: tab, resultsIndex: 0, diffPath: null, diffHunk: 0, turnDiff: null }));
      ctl.agentsForward.picked(id);
      return true;
    }
    case "listUp":
    case "listDown": {
      const count = measure?.count ?? 0;
      const next = Math.max(0, Math.min(Math.max(0, count - 1), ui.resultsIndex + (action === "listUp" ? -1 : 1)));
      ctl.setUi((u) => ({ ...u, resultsIndex: next }));
      return true;
    }
    case "listPick": {
      const n = bindingIndex(ctl, "listPick", event.key);
      if (n >= 0 && n < (measure?.count ?? 0)) ctl.setUi((u) => ({ ...u, resultsIndex: n }));
      return true;
    }
    case "listSelect":
      if (ui.resultsTab === "changes") {
        const id = ctl.state.current;
        const path = id ? ctl.state.transcripts[id]?.changed[ui.resultsIndex] : undefined;
        if (path) ctl.setUi((u) => ({ ...u, diffPath: u.diffPath === path ? null : path, diffHunk: 0 }));
      }
      return true;
    case "nextHunk":
    case "prevHunk": {
      if (!ui.diffPath) return true;
      const hunks = measure?.hunks ?? 0;
      if (hunks === 0) return true;
      const next = (ui.diffHunk + (action === "nextHunk" ? 1 : hunks - 1)) % hunks;
      ctl.setUi((u) => ({ ...u, diffHunk: next }));
      ctl.status(`hunk ${next + 1} of ${hunks}`);
      return true;
    }
    default:
      return false;
  }
}

// The keys that work wherever the focus is, once a dialog, an approval card and the focused pane
// have passed on a key: Ctrl-C, Esc, the palette, showing and hiding panes, tasks, the mode,
// browse mode and scrolling.
import { isEmpty } from "../input/editor.js";
import type { Key } from "../input/keys.js";
import type { PermissionMode } from "../../protocol/enums.js";
import { orderedTasks } from "../state/store.js";
import type { Controller } from "./controller.js";
import { scrollPage, scrollTo } from "./scroll.js";
import { interrupt, quit, stopTurn } from "./stop.js";

/** The modes Shift-Tab goes through, in order. */
const CYCLED_MODES: readonly PermissionMode[] = ["default", "accept-edits", "plan"];

/** True when `key` was one of the global keys (and acted on). */
export function handleGlobalKey(ctl: Controller, key: Key): boolean {
  const action = ctl.action(key, [
    "interrupt",
    "exit",
    "stop",
    "palette",
    "toggleTasks",
    "toggleResults",
    "zoom",
    "newTask",
    "nextTask",
    "nextApproval",
    "cycleMode",
    "browse",
    "scrollUp",
    "scrollDown",
    "task1",
    "task2",
    "task3",
    "task4",
    "task5",
    "task6",
    "task7",
    "task8",
    "task9",
    "help",
    "scrollTop",
    "scrollBottom",
  ]);
  if (!action) return false;
  const emptyInput = isEmpty(ctl.ui.composer);
  switch (action) {
    case "interrupt":
      interrupt(ctl);
      return true;
    case "exit":
      if (!emptyInput) return false;
      quit(ctl);
      return true;
    case "stop":
      if (ctl.isRunning()) {
        stopTurn(ctl);
        return true;
      }
      if (ctl.ui.completion) {
        ctl.setUi((ui) => ({ ...ui, completion: null }));
        return true;
      }
      if (ctl.ui.focus !== "composer") {
        ctl.setUi((ui) => ({ ...ui, focus: "composer" }));
        return true;
      }
      // Esc on an empty input does nothing: browse mode has its own key (Ctrl-X), so no letter
      // typed after a stray Esc is taken as a browse key.
      return false;
    case "palette":
      ctl.setUi((ui) => ({ ...ui, dialog: { kind: "palette", query: "", index: 0 } }));
      return true;
    case "help":
      if (key.name === "?" && !emptyInput) return false;
      ctl.setUi((ui) => ({ ...ui, dialog: { kind: "help", offset: 0 } }));
      return true;
    case "toggleTasks":
      ctl.setUi((ui) => {
        if (!ui.taskListOpen)
          return {
            ...ui,
            taskListOpen: true,
            focus: "tasks",
            taskIndex: Math.max(
              0,
              ctl.visibleTasks().findIndex((t) => t.id === ctl.state.current),
            ),
          };
        if (ui.focus !== "tasks") return { ...ui, focus: "tasks" };
        return { ...ui, taskListOpen: false, focus: "composer" };
      });
      return true;
    case "toggleResults":
      // The same rule as Ctrl-T: hidden or unfocused, show and focus it; focused, hide it
      // (Esc gives the focus back and leaves a side pane shown).
      ctl.setUi((ui) =>
        ui.resultsOpen && ui.focus === "results"
          ? { ...ui, resultsOpen: false, focus: "composer" }
          : { ...ui, resultsOpen: true, focus: "results" },
      );
      return true;
    case "zoom":
      ctl.setUi((ui) => ({
        ...ui,
        zoom: !ui.zoom,
        ...(ui.focus === "tasks" ? { taskListOpen: true } : ui.focus === "results" ? { resultsOpen: true } : {}),
      }));
      ctl.status(ctl.ui.zoom ? "zoomed: Ctrl-F again for all panes" : "all panes back");
      return true;
    case "newTask":
      ctl.newTask();
      return true;
    case "nextTask": {
      const list = orderedTasks(ctl.state);
      const i = list.findIndex((t) => t.id === ctl.state.current);
      const next = list[(i + 1) % Math.max(1, list.length)];
      if (next) ctl.selectTask(next.id);
      return true;
    }
    case "nextApproval":
      ctl.jumpToApproval();
      return true;
    case "cycleMode": {
      const task = ctl.currentTask();
      if (!task) return true;
      // default → accept-edits → plan; goal and debug are chosen on purpose, with /mode (from
      // either, Shift-Tab goes back to default).
      const i = CYCLED_MODES.indexOf(task.snapshot.mode);
      const next = CYCLED_MODES[(i + 1) % CYCLED_MODES.length]!;
      ctl.send({ type: "config.update", taskId: task.id, mode: next });
      ctl.status(`mode: ${next}`);
      return true;
    }
    case "browse":
      ctl.enterBrowse();
      return true;
    case "scrollUp":
    case "scrollDown":
      scrollPage(ctl, action === "scrollUp" ? -1 : 1);
      return true;
    case "scrollTop":
    case "scrollBottom":
      if (!emptyInput) return false;
      scrollTo(ctl, action === "scrollTop" ? "top" : "bottom");
      return true;
    default: {
      const n = Number(action.replace("task", ""));
      const t = orderedTasks(ctl.state)[n - 1];
      if (t) ctl.selectTask(t.id);
      return true;
    }
  }
}

// The written Ctrl-C contract: stop the running turn (twice: kill its command), else clear the
// input, else quit when pressed twice; quitting asks first while work still runs.
import { createEditor, isEmpty } from "../input/editor.js";
import { DOUBLE_PRESS_MS, type StatusCondition } from "../state/ui-state.js";
import type { Controller } from "./controller.js";

/** A stop hint stays while the task is stopping (a step can take minutes), up to this long. */
const STOPPING_HINT_MS = 10 * 60_000;

/**
 * Ctrl-C: stop (twice: kill), or clear the input, or exit when pressed twice in 2 s. Only presses
 * made while nothing runs count toward exit: the press that stops or kills a command never arms
 * it, so Ctrl-C, Ctrl-C (kill), Ctrl-C just after does not quit. While armed the status line
 * says so (panes/status.ts reads `exitArmed` before any other message).
 */
export function interrupt(ctl: Controller): void {
  const now = ctl.now();
  const task = ctl.currentTask();
  if (task && ctl.isRunning()) {
    const recent = now - ctl.ui.lastInterrupt < DOUBLE_PRESS_MS;
    ctl.setUi((ui) => ({ ...ui, lastInterrupt: now, exitArmed: 0 }));
    // The hint says "Ctrl-C again to kill" for as long as the task is stopping: so it does.
    const force = recent || Boolean(ctl.state.transcripts[task.id]?.stopping);
    ctl.send({ type: "turn.interrupt", taskId: task.id, force });
    ctl.dispatch({ type: "ui.stopping", taskId: task.id });
    const stopping: StatusCondition = { taskId: task.id, state: "stopping" };
    if (force) ctl.status("killing the running command", "warn", 4000, stopping);
    else
      ctl.status(
        "stopping after this step (Ctrl-C again to kill the running command)",
        "warn",
        STOPPING_HINT_MS,
        stopping,
      );
    return;
  }
  const armed = ctl.ui.exitArmed !== 0 && now - ctl.ui.exitArmed < DOUBLE_PRESS_MS;
  if (armed && isEmpty(ctl.ui.composer)) {
    ctl.setUi((ui) => ({ ...ui, exitArmed: 0, lastInterrupt: 0 }));
    quit(ctl);
    return;
  }
  const cleared = !isEmpty(ctl.ui.composer);
  ctl.setUi((ui) => ({
    ...ui,
    lastInterrupt: 0,
    exitArmed: now,
    ...(cleared ? { composer: createEditor(), completion: null } : {}),
  }));
  if (cleared) ctl.status("input cleared", "info", DOUBLE_PRESS_MS);
  setTimeout(() => ctl.setUi((ui) => (ui.exitArmed === now ? { ...ui, exitArmed: 0 } : ui)), DOUBLE_PRESS_MS).unref?.();
}

/** What quitting now would cut short: other tasks' turns and live background jobs. */
export function liveWork(ctl: Controller): { tasks: string[]; jobs: number } {
  const tasks: string[] = [];
  let jobs = 0;
  for (const [id, t] of Object.entries(ctl.state.transcripts)) {
    if (t.running) tasks.push(ctl.state.tasks[id]?.snapshot.title ?? id);
    jobs += t.jobs.filter((j) => j.state === "running").length;
  }
  return { tasks, jobs };
}

/** Quits, asking first when tasks still run or background jobs live (they would stop). */
export function quit(ctl: Controller): void {
  const { tasks, jobs } = liveWork(ctl);
  if (tasks.length === 0 && jobs === 0) {
    ctl.exit();
    return;
  }
  const parts = [
    ...(tasks.length
      ? [`${tasks.length === 1 ? "1 task is" : `${tasks.length} tasks are`} still running (${tasks.join(", ")})`]
      : []),
    ...(jobs ? [`${jobs === 1 ? "1 background job is" : `${jobs} background jobs are`} still running`] : []),
  ];
  ctl.setUi((ui) => ({
    ...ui,
    dialog: {
      kind: "confirm",
      title: `Quit? ${parts.join(" and ")}; quitting stops ${tasks.length + jobs === 1 ? "it" : "them"}.`,
      action: "quit",
      target: "",
    },
  }));
}

/** Esc: stop the current task's turn after this step. */
export function stopTurn(ctl: Controller): void {
  const task = ctl.currentTask();
  if (!task || !ctl.isRunning()) return;
  ctl.send({ type: "turn.interrupt", taskId: task.id });
  ctl.dispatch({ type: "ui.stopping", taskId: task.id });
  ctl.status("stopping after this step", "warn", STOPPING_HINT_MS, { taskId: task.id, state: "stopping" });
}

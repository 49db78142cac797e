// The engine's events into the store, and what else they set off: the content of a file before
// its first edit (the Changes tab), a notification for news in a task you are not looking at, the
// checkpointed turns after a resume or a rewind, and fresh reads of the files a diff shows.
import { resolve } from "node:path";
import { notify } from "../terminal/osc.js";
import { readSmall, type UiRuntime } from "./runtime.js";
import type { AppState } from "../state/store.js";
import { giveBack } from "../controller/composer-keys.js";

/**
 * The terminal's window title (OSC 2) names the task on screen and whether any task waits for an
 * approval, so a tmux window list or a tab bar shows who needs you. Written only when it changes,
 * and looked at only when the task list or the current task changed (not on every streamed frame).
 */
export function windowTitle(state: AppState): string {
  const task = state.current ? state.tasks[state.current] : undefined;
  const waiting = Object.values(state.tasks).some((t) => t.snapshot.pendingApprovals > 0);
  const title = (task?.snapshot.title ?? "").replace(/[\x00-\x1f\x7f-\x9f]/g, " ").slice(0, 60);
  const state_ = task?.snapshot.status === "running" ? " (running)" : "";
  return `${waiting ? "! waiting for approval · " : ""}${title ? `${title}${state_} · ` : ""}NanoHermes`;
}

function followTitle(rt: UiRuntime): void {
  const { store } = rt;
  const { stdout } = rt.opts;
  let tasks: unknown = null;
  let current: string | null = null;
  let shown = "";
  store.subscribe(() => {
    const s = store.getState();
    if (s.tasks === tasks && s.current === current) return;
    tasks = s.tasks;
    current = s.current;
    const title = windowTitle(s);
    if (title === shown) return;
    shown = title;
    stdout.write(`\x1b]2;${title}\x07`);
  });
}

export function wireBus(rt: UiRuntime): void {
  const { bus, store, settle, services, ctl } = rt;
  const { settings, stdout } = rt.opts;
  followTitle(rt);
  // The engine reports checkpointed turns after tool calls only: a resumed session's turns, and the
  // files' states after a rewind, are read from the store (a rewind is answered with notices).
  bus.onCommand((command) => {
    if (command.type === "session.rewind" || command.type === "file.revert") rt.rewinding.add(command.taskId);
  });
  const readTurns = (taskId: string) => {
    const sessionId = store.getState().transcripts[taskId]?.sessionId;
    if (sessionId)
      void ctl.deps.checkpoints
        .turns(sessionId)
        .then((turns) => store.dispatch({ type: "ui.checkpoints", taskId, turns }));
  };
  bus.subscribe((event) => {
    // A remote task's files are on the daemon's machine: nothing here is read for it.
    const remoteTask = store.getState().tasks[event.taskId]?.snapshot.location === "remote";
    if (event.type === "tool.started" && event.kind === "edit" && !remoteTask) {
      const path = (event.args as { path?: unknown } | null)?.path;
      if (typeof path === "string" && !services.before.has(path))
        services.before.set(path, readSmall(resolve(settings.workspace, path)));
    }
    if (event.type === "task.updated") {
      const prev = store.getState().tasks[event.taskId]?.snapshot.status;
      const now = event.task.status;
      const elsewhere = !rt.focused || store.getState().current !== event.taskId;
      if (prev && prev !== now && elsewhere && (now === "waiting" || now === "done" || now === "failed")) {
        const what = now === "waiting" ? "needs approval" : now === "done" ? "finished" : "failed";
        if (settings.notify.osc)
          stdout.write(notify("NanoHermes", `${event.task.title} ${what}`, { kind: "osc9", tmux: rt.wrapForTmux }));
        else if (settings.notify.bell) stdout.write("\x07");
      }
    }
    // A diff on screen shows the file as it is after the tool (or a restore) changed it.
    if (event.type === "tool.completed" || event.type === "checkpoints.updated" || event.type === "notice")
      settle.filesChanged();
    store.dispatch(event);
    const forward = ctl.agentsForward.observe(event, store.getState().current);
    if (forward) store.updateUi(forward);
    if (event.type === "session.started" && event.resumed && !remoteTask) readTurns(event.taskId);
    if (event.type === "turn.started") rt.rewinding.delete(event.taskId);
    if (event.type === "prompt.refused") giveBack(ctl, event.text, event.reason);
    if (event.type === "notice" && rt.rewinding.has(event.taskId) && !remoteTask) readTurns(event.taskId);
    // An answer from the Skills tab: the status line says what it did (the pane may hide the transcript).
    if (event.type === "proposals.updated" && event.answer)
      ctl.status(event.answer.text, event.answer.ok ? "info" : "error", event.answer.ok ? 6000 : 15_000);
  });
}

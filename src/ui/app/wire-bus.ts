// The engine's events into the store, and what else they set off: the content of a file before
// its first edit (the Changes tab), a notification for news in a task you are not looking at, the
// checkpointed turns after a resume or a rewind, and fresh reads of the files a diff shows.
import { resolve } from "node:path";
import { notify } from "../terminal/osc.js";
import { readSmall, type UiRuntime } from "./services.js";

export function wireBus(rt: UiRuntime): void {
  const { bus, store, settle, services, ctl } = rt;
  const { settings, stdout } = rt.opts;
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
    if (event.type === "notice" && rt.rewinding.has(event.taskId) && !remoteTask) readTurns(event.taskId);
  });
}

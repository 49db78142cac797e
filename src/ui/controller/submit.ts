// The composer's send path: a prompt (a new turn, or steering while one runs), a queued prompt,
// a `!` shell command. Each is remembered in the history and scrolls the transcript to its end.
import type { Controller } from "./controller.js";
import { scrollTo } from "./scroll.js";

/**
 * Sends a prompt (a new turn, or steering while one runs). `typed`: what the user typed, for the
 * history, when the prompt was made from it (a slash command's fixed prompt). `model`: for this
 * turn only.
 */
export function submitText(ctl: Controller, text: string, opts: { typed?: string; model?: string } = {}): boolean {
  const task = ctl.currentTask();
  if (!task) return false;
  const missing = missingSetup(ctl);
  if (missing) {
    ctl.status(`not sent: ${missing}`, "error", 12_000);
    return false;
  }
  if (opts.typed === undefined) ctl.deps.remember(text);
  ctl.deps.history.add(opts.typed ?? text);
  const images = ctl.ui.attachments;
  const steer = ctl.isRunning();
  if (images.length > 0 && steer) {
    ctl.status("images go with a new turn: wait for this one to end (or Tab to queue without them)", "warn");
    return false;
  }
  ctl.send({
    type: "user.submit",
    taskId: task.id,
    text,
    mode: steer ? "steer" : "turn",
    ...(images.length ? { images } : {}),
    ...(opts.model && !steer ? { model: opts.model } : {}),
  });
  if (images.length) ctl.setUi((ui) => ({ ...ui, attachments: [] }));
  scrollTo(ctl, "bottom");
  return true;
}

/** What to set before anything can be sent from the current task (a local one), or null. */
export function missingSetup(ctl: Controller): string | null {
  if (ctl.currentTask()?.snapshot.location === "remote") return null;
  return ctl.deps.notSetUp?.() ?? null;
}

/** `!` shell mode: the engine runs `command` under the task's policy and sandbox, between turns. */
export function runShell(ctl: Controller, text: string, command: string): void {
  const task = ctl.currentTask();
  if (!task) return;
  ctl.deps.remember(text);
  ctl.deps.history.add(text);
  if (ctl.isRunning()) {
    ctl.status("a ! command runs between turns: wait for this one to end (or stop it)", "warn");
    return;
  }
  ctl.send({ type: "shell.run", taskId: task.id, command });
  scrollTo(ctl, "bottom");
}

/** Tab in the composer: the prompt waits for the turn to end. */
export function queueText(ctl: Controller, text: string): void {
  const task = ctl.currentTask();
  if (!task) return;
  ctl.deps.remember(text);
  ctl.deps.history.add(text);
  ctl.send({ type: "user.submit", taskId: task.id, text, mode: "queue" });
}

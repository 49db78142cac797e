// What the UI opens with: the workspace trust question when needed, then the first task (a bare
// --resume asks which session first; attached, the daemon's sessions), then the earlier tasks.
import { showWelcome } from "../controller/welcome.js";
import { askTrust } from "../controller/trust.js";
import type { RemoteTasks } from "../../remote/remote-tasks.js";
import { openPicker } from "../controller/session-picker.js";
import type { UiRuntime } from "./runtime.js";
import { readTaskIndex } from "../../session/task-index.js";

export async function openFirstTask(rt: UiRuntime): Promise<void> {
  const { store, ctl, opts } = rt;
  const { settings } = opts;
  // Asked once per workspace (the answer is remembered in ~/.nanohermes/trusted.json): what of
  // it waits for trust, its config keys and its commands; /trust asks again.
  askTrust(ctl);
  const remote = rt.remote();
  if (opts.attach && remote) {
    const { client, sessions } = opts.attach;
    const { describeAddress } = await import("../../remote/client.js");
    // The newest 100 and every running one, oldest first so the list ends with the newest.
    const shown = sessions.filter((info, i) => i < 100 || info.running);
    for (const info of [...shown].reverse()) (remote as RemoteTasks).add(info.id, client, info.id, info);
    const first = sessions.find((s) => s.running) ?? sessions[0];
    if (first) ctl.selectTask(first.id);
    else ctl.newTask();
    ctl.status(
      `attached to ${describeAddress(client.address)}: ${sessions.length} session${sessions.length === 1 ? "" : "s"}; turns go on there when you quit`,
      "info",
      8_000,
    );
  } else if (opts.pickSession) {
    const trust = store.getState().ui.dialog;
    openPicker(ctl, { startup: true });
    // The trust question (if any) comes first; the picker waits under it.
    if (trust?.kind === "confirm")
      store.updateUi((ui) => ({ ...ui, dialog: ui.dialog ? { ...trust, back: ui.dialog } : trust }));
  } else if (opts.sessionFile && rt.manager && (await resumeListed(rt, opts.sessionFile))) {
    // -c / --resume ID: the task listed for that session, with its id, title and usage.
  } else {
    ctl.newTask(opts.sessionFile);
    showWelcome(ctl, settings);
  }
  rt.addEarlier();
}

/**
 * Opens the task the index lists for `sessionFile` under its own id, title, pin and usage, so a
 * resumed session is one task (one tasks.json entry) and not a "New task" beside its old entry.
 * False when the index has none (the caller makes a new task on the file).
 */
async function resumeListed(rt: UiRuntime, sessionFile: string): Promise<boolean> {
  const entry = (await readTaskIndex(rt.opts.settings.home).catch(() => [])).find((e) => e.sessionFile === sessionFile);
  if (!entry || !rt.manager) return false;
  rt.manager.add(entry.id, {
    title: entry.title,
    sessionFile,
    pinned: entry.pinned,
    updatedAt: entry.updatedAt,
    ...(entry.usage ? { usage: entry.usage } : {}),
  });
  rt.ctl.selectTask(entry.id);
  rt.ctl.setUi((ui) => ({ ...ui, focus: "composer" }));
  return true;
}

// An approval card's keys (the composer's card, guarded against type-ahead, or a subagent view's)
// and Ctrl-Y, which goes to the next task with an unanswered approval.
import type { Key } from "../input/keys.js";
import { orderedTasks } from "../state/store.js";
import type { Block } from "../state/transcript.js";
import type { Controller } from "./controller.js";
import { cardGuard } from "./approval-guard.js";

/** The approval card's keys for `pending` (the composer's card, or a subagent view's); true when `key` was one. */
export function answerApproval(
  ctl: Controller,
  taskId: string,
  pending: Extract<Block, { kind: "approval" }>,
  key: Key,
): boolean {
  const reply = (decision: "once" | "always" | "deny", scope?: "workspace") =>
    ctl.send({
      type: "approval.reply",
      taskId,
      requestId: pending.requestId,
      decision,
      ...(scope ? { scope } : {}),
      // Deny means stop: the model does not go on to ask for something else (d goes on, with a note).
      ...(decision === "deny" ? { stop: true } : {}),
    });
  const back = ctl.ui.dialog ?? undefined;
  const action = ctl.action(key, [
    "approveOnce",
    "approveAlwaysWorkspace",
    "approveAlways",
    "deny",
    "denyWithNote",
    "toggleBlock",
  ]);
  switch (action) {
    case "approveOnce":
      reply("once");
      return true;
    case "approveAlways":
      reply("always");
      return true;
    case "approveAlwaysWorkspace":
      // Never offered for a dangerous command: consent to one is kept for this task at most.
      if (!pending.alwaysWorkspace)
        ctl.status(
          "a dangerous command can only be allowed for this task: a (exactly this command) or y (once)",
          "warn",
        );
      else reply("always", "workspace");
      return true;
    case "deny":
      reply("deny");
      ctl.status(
        pending.agentId
          ? `denied: ${pending.agentId} stops at its next step`
          : "denied and stopped: say what to do instead (d: deny with a note, go on)",
        "info",
        6000,
      );
      return true;
    case "denyWithNote":
      ctl.setUi((ui) => ({
        ...ui,
        dialog: {
          kind: "input",
          purpose: "note",
          title: "Deny with a note to the model",
          value: "",
          target: pending.requestId,
          index: 0,
          ...(back ? { back } : {}),
        },
      }));
      return true;
    case "toggleBlock":
      ctl.setUi((ui) => ({
        ...ui,
        dialog: {
          kind: "detail",
          title: pending.title,
          lines: pending.detail.split("\n"),
          offset: 0,
          ...(back ? { back } : {}),
        },
      }));
      return true;
    default:
      return false;
  }
}

/**
 * The composer's card: `answerApproval`, unless the key is type-ahead (one already on its way when
 * the card appeared, or typing still going on). Then it is left to the input, where it is kept
 * (approval-guard.ts); false.
 */
export function answerCard(
  ctl: Controller,
  taskId: string,
  pending: Extract<Block, { kind: "approval" }>,
  key: Key,
): boolean {
  if (!cardGuard(ctl.ui, pending.requestId, ctl.deps.now())) return answerApproval(ctl, taskId, pending, key);
  if (ctl.action(key, ["approveOnce", "approveAlways", "approveAlwaysWorkspace", "deny", "denyWithNote"]))
    ctl.status("typed into the input; pause, then y once · n deny", "info", 2000);
  return false;
}

/**
 * Ctrl-Y: the next task with an unanswered approval (a subagent's included: it waits in its
 * task), shown with its card: the input gets focus and an overlay pane gets out of the way. The
 * user went looking for that card, so it answers the next key at once (approval-guard.ts).
 */
export function jumpToApproval(ctl: Controller): void {
  const list = orderedTasks(ctl.state);
  const start = list.findIndex((t) => t.id === ctl.state.current);
  for (let k = 1; k <= list.length; k++) {
    const t = list[(start + k) % list.length]!;
    if (t.snapshot.pendingApprovals > 0) {
      ctl.selectTask(t.id);
      ctl.setUi((ui) => ({
        ...ui,
        focus: "composer",
        resultsOpen: ui.columns >= 120 && ui.resultsOpen,
        taskListOpen: ui.columns >= 80 && ui.taskListOpen,
      }));
      const pending = ctl.pendingApproval();
      if (pending)
        ctl.setUi((ui) => ({
          ...ui,
          cardShown: { requestId: pending.requestId, since: ctl.deps.now(), deliberate: true },
        }));
      return;
    }
  }
  ctl.status("no approvals are waiting");
}

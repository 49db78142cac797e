// Keys of the subagent board: picking a child on the Agents tab, opening its live transcript
// (the "agent" dialog), scrolling that view, answering the child's approval there, and stopping it.
import type { Action } from "../../config/keybindings.js";
import type { InputEvent, Key } from "../input/keys.js";
import { formatKeySpec, matches } from "../input/keymap.js";
import { agentApproval, boardRows } from "../state/children.js";
import type { AgentRow } from "../state/transcript.js";
import { movePosition, settleFollow } from "../view/transcript-view.js";
import { followScroll } from "../state/scroll.js";
import type { DialogHost, UiHost } from "./host.js";
import { fitsFrom } from "./scroll.js";
import type { AgentDialog } from "../state/dialogs.js";
import type { ConfirmDialog } from "../state/dialogs.js";
import type { Dialog } from "../state/dialogs.js";

/** The current task's board in display order. */
export function boardOf(ctl: UiHost): AgentRow[] {
  const id = ctl.state.current;
  const t = id ? ctl.state.transcripts[id] : undefined;
  return t ? boardRows(t) : [];
}

/** Which of `action`'s keys `key` is (0-based), or -1: digits 1-9 pick the Nth item. */
export function bindingIndex(ctl: UiHost, action: Action, key: Key): number {
  return ctl.keymap[action].findIndex((spec) => matches(key, spec));
}

/** The first key of `action` as hints show it: a plain letter stays lower-case ("x", not "X"). */
export function keyLabel(ctl: UiHost, action: Action): string {
  const spec = ctl.keymap[action][0];
  if (!spec) return "";
  return !spec.ctrl && !spec.alt && !spec.shift && spec.name.length === 1 ? spec.name : formatKeySpec(spec);
}

/** The keys of a subagent's view for the status line, most needed first. */
export function agentViewHints(ctl: UiHost, live: boolean): string[] {
  return [
    "Esc close",
    ...(live ? [`${keyLabel(ctl, "agentStop")} stop`] : []),
    `↑↓ ${keyLabel(ctl, "scrollUp")} ${keyLabel(ctl, "scrollDown")} scroll`,
    `${keyLabel(ctl, "scrollBottom")} follow`,
    "1-9 other agent",
  ];
}

export function openAgentView(ctl: UiHost, row: AgentRow): void {
  const taskId = ctl.state.current;
  if (!taskId) return;
  ctl.setUi((ui) => ({ ...ui, dialog: { kind: "agent", taskId, agentId: row.id, scroll: followScroll() } }));
}

const stoppable = (row: AgentRow) => row.status === "queued" || row.status === "running" || row.status === "waiting";

/** Asks before stopping a queued or running child (`back`: the view to return to). */
export function askStopAgent(ctl: UiHost, row: AgentRow, back?: Dialog): void {
  const taskId = ctl.state.current;
  if (!taskId) return;
  if (!stoppable(row)) {
    ctl.status(`${row.id} has already ${row.status === "done" ? "finished" : row.status}`);
    return;
  }
  const title =
    row.status === "queued"
      ? `Stop ${row.id} (${row.name})? It is queued and will not start.`
      : `Stop ${row.id} (${row.name}) at its next step? (f: now, killing its running command)`;
  ctl.setUi((ui) => ({
    ...ui,
    dialog: { kind: "confirm", action: "stopAgent", title, target: row.id, taskId, ...(back ? { back } : {}) },
  }));
}

function scrollView(ctl: DialogHost, dialog: AgentDialog, move: number | "top" | "bottom"): void {
  const view = ctl.agentView;
  if (!view || view.count === 0) return;
  let scroll = dialog.scroll;
  if (move === "top") scroll = { follow: false, top: { block: 0, line: 0 } };
  else if (move === "bottom") scroll = settleFollow(view.count, view.linesOf, view.height);
  else {
    const top = movePosition(view.top, move, view.count, view.linesOf);
    scroll =
      move > 0 && fitsFrom(top, view) ? settleFollow(view.count, view.linesOf, view.height) : { follow: false, top };
  }
  ctl.setUi((ui) => (ui.dialog?.kind === "agent" ? { ...ui, dialog: { ...ui.dialog, scroll } } : ui));
}

/** Keys while a subagent's view is open; false for a key it does not use (Esc: the dialog layer closes it). */
export function handleAgentViewKey(ctl: DialogHost, dialog: AgentDialog, event: InputEvent): boolean {
  if (event.kind !== "key") return false;
  const key = event.key;
  const pending = agentApproval(ctl.state, dialog.taskId, dialog.agentId);
  if (pending && ctl.answerApproval(dialog.taskId, pending, key)) return true;
  const row = ctl.state.transcripts[dialog.taskId]?.agents.find((a) => a.id === dialog.agentId);
  const page = Math.max(1, (ctl.agentView?.height ?? 2) - 2);
  const action = ctl.action(key, [
    "cursorUp",
    "cursorDown",
    "scrollUp",
    "scrollDown",
    "scrollTop",
    "scrollBottom",
    "agentStop",
    "listPick",
    "nextApproval",
  ]);
  switch (action) {
    case "cursorUp":
    case "cursorDown":
      scrollView(ctl, dialog, action === "cursorUp" ? -1 : 1);
      return true;
    case "scrollUp":
    case "scrollDown":
      scrollView(ctl, dialog, action === "scrollUp" ? -page : page);
      return true;
    case "scrollTop":
    case "scrollBottom":
      scrollView(ctl, dialog, action === "scrollTop" ? "top" : "bottom");
      return true;
    case "agentStop":
      if (row) askStopAgent(ctl, row, dialog);
      return true;
    case "listPick": {
      const other = boardOf(ctl)[bindingIndex(ctl, "listPick", key)];
      if (other) {
        ctl.setUi((ui) => ({ ...ui, resultsIndex: boardOf(ctl).indexOf(other) }));
        openAgentView(ctl, other);
      }
      return true;
    }
    case "nextApproval":
      ctl.setUi((ui) => ({ ...ui, dialog: null }));
      ctl.jumpToApproval();
      return true;
    default:
      return false;
  }
}

/** The Agents tab's own keys (results pane focused): digits pick, Enter opens, x stops. */
export function agentsTabKey(ctl: UiHost, action: Action, _key: Key): boolean {
  const rows = boardOf(ctl);
  const index = Math.min(ctl.ui.resultsIndex, Math.max(0, rows.length - 1));
  const row = rows[index];
  switch (action) {
    case "listSelect":
      if (row) openAgentView(ctl, row);
      return true;
    case "agentStop":
      if (row) askStopAgent(ctl, row);
      return true;
    default:
      return false;
  }
}

/** Answers the stop question: y stops at the next step, f also kills the running command. */
export function confirmStopAgent(ctl: UiHost, dialog: ConfirmDialog, force: boolean): void {
  const taskId = dialog.taskId ?? ctl.state.current;
  if (!taskId) return;
  ctl.send({ type: "subagent.stop", taskId, agentId: dialog.target, ...(force ? { force: true } : {}) });
  ctl.status(
    force ? `stopping ${dialog.target} and killing its running command` : `stopping ${dialog.target} at its next step`,
    "warn",
  );
}

// Going back: what /rewind does (its keys and drawing: dialogs/rewind.ts; a turn, then files,
// conversation or both -> session.rewind) and the Turns tab's keys (a file's diff since before its
// turn, "revert this file only" -> file.revert).
import type { Key } from "../input/keys.js";
import { displayPath, turnsOf, turnsTabRows, type FileChange, type TurnRow } from "../state/turns.js";
import type { AreaHost, UiHost } from "./host.js";
import type { ConfirmDialog } from "../state/dialogs.js";
import type { Dialog } from "../state/dialogs.js";
import type { RewindDialog, RewindWhat } from "../state/dialogs.js";
import { patchDialog, type TurnDiff } from "../state/ui-state.js";

/** In the order the dialog lists them (and ↑↓ move through them). */
export const rewindChoices: RewindWhat[] = ["files", "conversation", "both"];

/** A folded turn can only have its files restored: that is the highlighted choice there. */
export const defaultWhat = (row: TurnRow | undefined): RewindWhat => (row?.folded ? "files" : "both");

/** Opens /rewind on the current task; with `turn`, straight at the question of what to restore. */
export function openRewind(ctl: UiHost, turn?: number): void {
  const task = ctl.currentTask();
  if (!task) return;
  const rows = turnsOf(ctl.state.transcripts[task.id]).rows;
  const at = turn === undefined ? -1 : rows.findIndex((r) => r.turn === turn);
  const pick = at >= 0 ? { turn: rows[at]!.turn, what: defaultWhat(rows[at]) } : null;
  ctl.setUi((ui) => ({ ...ui, dialog: { kind: "rewind", taskId: task.id, index: Math.max(0, at), pick } }));
}

export function updateRewind(ctl: UiHost, change: (d: RewindDialog) => Dialog): void {
  ctl.setUi((ui) => {
    const dialog = patchDialog(ui.dialog, "rewind", change);
    return dialog === ui.dialog ? ui : { ...ui, dialog };
  });
}

export const closeRewind = (ctl: UiHost) => ctl.setUi((ui) => ({ ...ui, dialog: null }));

export function rewindTo(ctl: UiHost, d: RewindDialog, turn: number, what: RewindWhat): void {
  closeRewind(ctl);
  ctl.dispatch({ type: "ui.reloading", taskId: d.taskId });
  ctl.send({ type: "session.rewind", taskId: d.taskId, turn, what });
  // A diff of a turn the conversation drops would show a checkpoint the engine forgets.
  if (what !== "files")
    ctl.setUi((ui) => (ui.turnDiff?.taskId === d.taskId && ui.turnDiff.turn >= turn ? { ...ui, turnDiff: null } : ui));
  const label =
    what === "files" ? "files" : what === "conversation" ? "the conversation" : "files and the conversation";
  ctl.status(`rewinding ${label} to before turn ${turn}…`, "info", 60_000, { taskId: d.taskId, state: "reloading" });
}

/** Asks before putting one file back to how it was before `turn`. */
function confirmRevert(ctl: UiHost, taskId: string, turn: number, path: string): void {
  const name = displayPath(path, ctl.state.transcripts[taskId]?.workspace ?? null);
  const title = `Revert ${name} to how it was before turn ${turn}? Only this file changes. (y/n)`;
  ctl.setUi((ui) => ({ ...ui, dialog: { kind: "confirm", title, action: "revertFile", target: path, taskId, turn } }));
}

/** After y on the revert question. */
export function revertConfirmed(ctl: UiHost, dialog: ConfirmDialog): void {
  if (!dialog.taskId || dialog.turn === undefined) return;
  ctl.send({ type: "file.revert", taskId: dialog.taskId, turn: dialog.turn, path: dialog.target });
  ctl.status(
    `reverting ${displayPath(dialog.target, ctl.state.transcripts[dialog.taskId]?.workspace ?? null)} to before turn ${dialog.turn}…`,
  );
}

/** Shows a file's diff since before `turn`; its earlier content comes from the checkpoint store. */
function openTurnDiff(ctl: AreaHost, taskId: string, turn: number, change: FileChange): void {
  if (ctl.state.tasks[taskId]?.snapshot.location === "remote") return openRemoteTurnDiff(ctl, taskId, turn, change);
  const sessionId = ctl.state.transcripts[taskId]?.sessionId ?? null;
  const load = change.before === "kept" && sessionId !== null;
  const diff: TurnDiff = {
    taskId,
    turn,
    path: change.path,
    before: change.before === "absent" ? null : undefined,
    loading: load,
    offset: 0,
  };
  ctl.setUi((ui) => ({ ...ui, turnDiff: diff, diffHunk: 0 }));
  if (!load) return;
  const done = (before: string | null | undefined) =>
    ctl.setUi((ui) =>
      ui.turnDiff?.taskId === taskId && ui.turnDiff.turn === turn && ui.turnDiff.path === change.path
        ? { ...ui, turnDiff: { ...ui.turnDiff, before, loading: false } }
        : ui,
    );
  ctl.checkpoints.contentBefore(sessionId, turn, change.path).then(done, () => done(undefined));
}

/** The same for a remote task: the daemon reads the file and its checkpoint. */
function openRemoteTurnDiff(ctl: AreaHost, taskId: string, turn: number, change: FileChange): void {
  ctl.setUi((ui) => ({
    ...ui,
    turnDiff: { taskId, turn, path: change.path, before: undefined, loading: true, offset: 0 },
    diffHunk: 0,
  }));
  const done = (got: { before: string | null | undefined; now: string | null } | null) =>
    ctl.setUi((ui) =>
      ui.turnDiff?.taskId === taskId && ui.turnDiff.turn === turn && ui.turnDiff.path === change.path
        ? { ...ui, turnDiff: { ...ui.turnDiff, loading: false, before: got?.before, ...(got ? { now: got.now } : {}) } }
        : ui,
    );
  ctl.remoteFile(taskId, turn, change.path).then(done, (error: unknown) => {
    done(null);
    ctl.status(
      `the daemon did not send ${displayPath(change.path, ctl.state.transcripts[taskId]?.workspace ?? null)}: ${(error as Error).message}`,
      "error",
    );
  });
}

/** The Turns tab's own keys (results focus); false for the ones the pane handles for every tab. */
export function turnsTabKey(ctl: AreaHost, key: Key): boolean {
  const ui = ctl.ui;
  const taskId = ctl.state.current;
  if (!taskId) return false;
  const diff = ui.turnDiff?.taskId === taskId ? ui.turnDiff : null;
  if (diff) {
    if (ctl.is("stop", key) || ctl.is("listSelect", key)) {
      ctl.setUi((u) => ({ ...u, turnDiff: null }));
      return true;
    }
    const m = ctl.results;
    const page = Math.max(1, (m?.height ?? 10) - 1);
    const last = Math.max(0, (m?.lines ?? 0) - (m?.height ?? 0));
    const scrollTo = (offset: number) =>
      ctl.setUi((u) =>
        u.turnDiff ? { ...u, turnDiff: { ...u.turnDiff, offset: Math.max(0, Math.min(last, offset)) } } : u,
      );
    const action = ctl.action(key, [
      "listUp",
      "listDown",
      "scrollUp",
      "scrollDown",
      "nextHunk",
      "prevHunk",
      "revertFile",
    ]);
    switch (action) {
      case "listUp":
      case "listDown":
        scrollTo(diff.offset + (action === "listUp" ? -1 : 1));
        return true;
      case "scrollUp":
      case "scrollDown":
        scrollTo(diff.offset + (action === "scrollUp" ? -page : page));
        return true;
      case "nextHunk":
      case "prevHunk": {
        const starts = m?.hunkStarts ?? [];
        if (starts.length === 0) return true;
        const next = (ui.diffHunk + (action === "nextHunk" ? 1 : starts.length - 1)) % starts.length;
        ctl.setUi((u) =>
          u.turnDiff
            ? { ...u, diffHunk: next, turnDiff: { ...u.turnDiff, offset: Math.max(0, Math.min(last, starts[next]!)) } }
            : u,
        );
        ctl.status(`hunk ${next + 1} of ${starts.length}`);
        return true;
      }
      case "revertFile":
        confirmRevert(ctl, taskId, diff.turn, diff.path);
        return true;
      default:
        return false;
    }
  }
  const rows = turnsTabRows(ctl.state.transcripts[taskId]);
  const row = rows[Math.min(ui.resultsIndex, rows.length - 1)];
  switch (ctl.action(key, ["listSelect", "revertFile"])) {
    case "listSelect":
      if (row?.kind === "turn") openRewind(ctl, row.row.turn);
      else if (row) openTurnDiff(ctl, taskId, row.row.turn, row.change);
      return true;
    case "revertFile":
      if (row?.kind === "file") confirmRevert(ctl, taskId, row.row.turn, row.change.path);
      else if (row)
        ctl.status("u reverts one file: select one of the turn's files (Enter on the turn rewinds all of it)");
      return true;
    default:
      return false;
  }
}

// The centre column while a dialog is open: the open dialog's view (dialogs/), drawn from what it
// may read (`selectDialog`: its DialogScope). As lines here for the first frame drawn before Ink
// loads; the Ink app draws the same view with components (components/DialogArea.tsx).
import type { AppServices } from "../context/services.js";
import { agentFollowKey } from "../dialogs/agent-view.js";
import type { DialogScope } from "../dialogs/dialog.js";
import { dialogSpec } from "../dialogs/index.js";
import type { Dialog } from "../state/dialogs.js";
import { selector } from "../state/select.js";
import type { AppState, FollowTop, TaskEntry } from "../state/store.js";
import type { TranscriptState } from "../state/transcript.js";
import type { UiState } from "../state/ui-state.js";
import { dialogText, type DialogView } from "../view/dialog-frame.js";

/** The parts of the state an open dialog reads: see DialogScope (../dialogs/dialog.ts). */
export interface DialogModel {
  dialog: Dialog | null;
  ui: UiState;
  current: string | null;
  /** The task it is about: the dialog's `taskId`, else the current task. */
  taskId: string | null;
  transcript: TranscriptState | undefined;
  task: TaskEntry | undefined;
  /** A subagent's view's follow jump (its key: agentFollowKey). */
  followKey: string | null;
  follow: FollowTop | undefined;
  shown: AppState["shown"];
  clock: number;
  redraws: number;
}

export const selectDialog = selector((s: AppState): DialogModel => {
  const d = s.ui.dialog;
  const taskId = (d && "taskId" in d ? d.taskId : s.current) ?? null;
  const followKey = d?.kind === "agent" ? agentFollowKey(d) : null;
  return {
    dialog: d,
    ui: s.ui,
    current: s.current,
    taskId,
    transcript: taskId ? s.transcripts[taskId] : undefined,
    task: taskId ? s.tasks[taskId] : undefined,
    followKey,
    follow: followKey ? s.follow[followKey] : undefined,
    shown: s.shown,
    clock: s.clock,
    redraws: s.redraws,
  };
});

const scopes = new WeakMap<DialogModel, DialogScope>();

/** The model as the state a dialog's view takes: of the tasks, only the one it is about. */
export function dialogScope(m: DialogModel): DialogScope {
  let scope = scopes.get(m);
  if (!scope) {
    const id = m.taskId;
    scope = {
      ui: m.ui,
      current: m.current,
      transcripts: id && m.transcript ? { [id]: m.transcript } : {},
      tasks: id && m.task ? { [id]: m.task } : {},
      follow: m.followKey && m.follow ? { [m.followKey]: m.follow } : {},
      shown: m.shown,
      clock: m.clock,
    };
    scopes.set(m, scope);
  }
  return scope;
}

/** The open dialog's view at this size, or null when none is open or there is no room. */
export function dialogView(m: DialogModel, sv: AppServices, width: number, height: number): DialogView | null {
  const d = m.dialog;
  return d && width > 0 && height > 0 ? dialogSpec(d).view(dialogScope(m), sv, d, width, height) : null;
}

export function dialogArea(m: DialogModel, sv: AppServices, width: number, height: number): string[] {
  const view = dialogView(m, sv, width, height);
  if (!view) return [];
  // The screen-reader layout: the dialogs' rules and marks in ASCII (view/linear-cards.ts).
  return dialogText(sv.palette, view, width, height, m.ui.screenReader);
}

// What every dialog file exports (`DialogSpec`) and the small helpers their key handlers share.
// Dialog files stay free of Ink and React: the controller (keys) and the first frame (drawn as
// text before Ink loads, when the trust question or a bare --resume opens a dialog) use them.
import type { AppServices } from "../context/services.js";
import type { DialogHost, UiHost } from "../controller/host.js";
import type { InputEvent, Key } from "../input/keys.js";
import type { AppState } from "../state/store.js";
import type { DialogView } from "../view/dialog-frame.js";
import type { Dialog } from "../state/dialogs.js";

/**
 * What a dialog's view reads of the app state (../panes/dialog-area.ts selects it): the UI state,
 * the clock, the files a diff shows, and of the task it is about (the dialog's `taskId`, else the
 * current task) its transcript, its entry and, for a subagent's view, its follow jump; nothing of
 * other tasks.
 */
export type DialogScope = Pick<AppState, "ui" | "current" | "transcripts" | "tasks" | "follow" | "shown" | "clock">;

/**
 * Contract: one dialog kind. `view` is pure (no writes, no I/O) and draws from its scope alone;
 * `keys` gets every key while the dialog is open and returns whether it used it: Esc or Ctrl-C
 * it leaves unused close the dialog (back to the one it was opened over). `H` is what its keys use
 * of the controller (../controller/host.ts): `DialogHost` at most; a dialog that needs less says
 * so (the confirm question: `UiHost` and three ports), and a test can drive it with that alone.
 */
export interface DialogSpec<S, H extends UiHost = DialogHost> {
  view(s: DialogScope, sv: AppServices, d: S, width: number, height: number): DialogView;
  keys(host: H, d: S, event: InputEvent): boolean;
  /** Takes the whole width (side panes hidden): lists of long rows. A question over it keeps it wide. */
  wide?: boolean;
  /** What the status line says while it is open (instead of the usual keys); null: the usual. */
  hint?(s: DialogScope, sv: AppServices, d: S, width: number): string | null;
}

/** A plain key: `name` without Ctrl or Alt. */
export const isKey = (key: Key, name: string): boolean => key.name === name && !key.ctrl && !key.alt;

/** Replaces the open dialog. */
export const setDialog = (host: UiHost, dialog: Dialog): void => host.setUi((ui) => ({ ...ui, dialog }));

/** Closes the open dialog, back to the one it was opened over (if any). */
export const closeDialog = (host: UiHost): void =>
  host.setUi((ui) => ({ ...ui, dialog: (ui.dialog && "back" in ui.dialog ? ui.dialog.back : undefined) ?? null }));

// Where dialogs are listed: one line per dialog kind. The controller sends a key to the open
// dialog's `keys` through it, and DialogArea.tsx and the first frame draw the open dialog's `view`.
// A new dialog is a new file in this folder (its DialogSpec), its state type in
// ../state/dialogs.ts (the `Dialog` union the store holds) and its line here.
import type { DialogHost } from "../controller/host.js";
import type { InputEvent } from "../input/keys.js";
import type { Dialog, DialogKind } from "../state/dialogs.js";
import { agentDialog } from "./agent.js";
import { confirmDialog } from "./confirm.js";
import { detailDialog } from "./detail.js";
import { closeDialog, isKey, type DialogSpec } from "./dialog.js";
import { helpDialog } from "./help.js";
import { inputDialog } from "./input.js";
import { memoryDialog } from "./memory.js";
import { paletteDialog } from "./command-palette.js";
import { permissionsDialog } from "./permissions.js";
import { queueDialog } from "./queue.js";
import { rewindDialog } from "./rewind.js";
import { sessionsDialog } from "./sessions.js";

/** Every dialog kind's spec: a missing or misnamed one fails the typecheck. */
const dialogs: { [K in DialogKind]: DialogSpec<Extract<Dialog, { kind: K }>> } = {
  palette: paletteDialog,
  help: helpDialog,
  input: inputDialog,
  confirm: confirmDialog,
  detail: detailDialog,
  agent: agentDialog,
  queue: queueDialog,
  permissions: permissionsDialog,
  sessions: sessionsDialog,
  memory: memoryDialog,
  rewind: rewindDialog,
};

/** The spec of a dialog's kind. */
export function dialogSpec<D extends Dialog>(d: D): DialogSpec<D> {
  return dialogs[d.kind] as unknown as DialogSpec<D>;
}

/**
 * A key while a dialog is open: to the dialog's own handler first; Esc or Ctrl-C it did not use
 * close it (back to the dialog it was opened over). Nothing else reaches the panes under it.
 */
export function handleDialogKey(host: DialogHost, dialog: Dialog, event: InputEvent): void {
  if (dialogSpec(dialog).keys(host, dialog, event)) return;
  if (event.kind === "key" && (isKey(event.key, "escape") || host.is("interrupt", event.key))) closeDialog(host);
}

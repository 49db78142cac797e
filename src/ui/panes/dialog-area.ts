// The centre column while a dialog is open, as width-exact lines: the open dialog's view
// (dialogs/), for the first frame drawn before Ink loads. The Ink app draws the same view with
// components (components/DialogArea.tsx).
import type { AppServices } from "../context/services.js";
import { dialogSpec } from "../dialogs/index.js";
import type { Dialog } from "../state/dialogs.js";
import type { AppState } from "../state/store.js";
import { dialogText } from "../view/dialog-frame.js";

export function dialogArea(s: AppState, sv: AppServices, dialog: Dialog, width: number, height: number): string[] {
  if (width <= 0 || height <= 0) return [];
  const view = dialogSpec(dialog).view(s, sv, dialog, width, height);
  // The screen-reader layout: the dialogs' rules and marks in ASCII (view/linear-cards.ts).
  return dialogText(sv.palette, view, width, height, s.ui.screenReader);
}

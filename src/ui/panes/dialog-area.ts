// The centre column while a dialog is open: the dialog's own view, or a subagent's live transcript
// (the "agent" dialog), as width-exact lines.
import type { AppServices } from "../context/services.js";
import { padToWidth, truncateToWidth } from "../render/wrap.js";
import type { AppState } from "../state/store.js";
import type { Dialog } from "../controller/ui-state.js";
import { dialogLines } from "../view/dialog-view.js";
import { plainLine } from "../view/linear-cards.js";
import { agentViewPane } from "./subagent-view.js";

export function dialogArea(s: AppState, sv: AppServices, dialog: Dialog, width: number, height: number): string[] {
  const lines = dialogAreaLines(s, sv, dialog, width, height);
  // The screen-reader layout: the dialogs' rules and marks in ASCII (view/linear-cards.ts).
  return s.ui.screenReader ? lines.map(plainLine) : lines;
}

function dialogAreaLines(s: AppState, sv: AppServices, dialog: Dialog, width: number, height: number): string[] {
  if (width <= 0 || height <= 0) return [];
  if (dialog.kind === "agent") return agentViewPane(s, sv, dialog, width, height).lines;
  const lines = dialogLines(sv.ctl, sv.palette, dialog, width, height).map((l) =>
    padToWidth(truncateToWidth(l, width), width),
  );
  while (lines.length < height) lines.push(" ".repeat(width));
  return lines.slice(0, height);
}

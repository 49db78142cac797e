// The centre column while a dialog is open: the open dialog's view (its file in ../dialogs/, found
// through the registry there) drawn in a DialogFrame, or, for a dialog that draws the whole area
// itself (a subagent's live view), its lines. Its model: selectDialog (../panes/dialog-area.ts).
import { useMemo } from "react";
import { useApp, useStore } from "../context/useStore.js";
import { dialogView, selectDialog } from "../panes/dialog-area.js";
import { sameParts } from "../state/select.js";
import { DialogFrame } from "./DialogFrame.js";
import { Lines } from "./Lines.js";
import { plainLine } from "../view/linear-cards.js";

export function DialogArea({ width, height }: { width: number; height: number }) {
  const sv = useApp();
  const model = useStore(selectDialog, sameParts);
  const plain = model.ui.screenReader;
  const view = useMemo(() => dialogView(model, sv, width, height), [model, sv, width, height]);
  const d = model.dialog;
  const which = d ? `${d.kind}:${"purpose" in d ? d.purpose : ""}` : "";
  if (!view) return null;
  if ("area" in view) {
    const lines = view.area.slice(0, height);
    return <Lines lines={plain ? lines.map(plainLine) : lines} width={width} />;
  }
  // Keyed by the dialog, so one dialog's field never lends its cursor to the next one's.
  return <DialogFrame key={which} {...view} width={width} height={height} plain={plain} />;
}

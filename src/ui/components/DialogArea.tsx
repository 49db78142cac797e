// The centre column while a dialog is open: the open dialog's view (its file in ../dialogs/, found
// through the registry there) drawn in a DialogFrame, or, for a dialog that draws the whole area
// itself (a subagent's live view), its lines.
import { useMemo } from "react";
import { dialogSpec } from "../dialogs/index.js";
import { useApp, useSlices, useStore } from "../context/useStore.js";
import { DialogFrame } from "./DialogFrame.js";
import { Lines } from "./Lines.js";
import { plainLine } from "../view/linear-cards.js";

export function DialogArea({ width, height }: { width: number; height: number }) {
  const sv = useApp();
  const plain = useStore((s) => s.ui.screenReader);
  // A dialog draws from the UI state and, for a subagent's view or /rewind, its task's transcript.
  const slices = useSlices((s) => {
    const d = s.ui.dialog;
    const taskId = d && "taskId" in d ? d.taskId : s.current;
    return [s.ui, taskId ? s.transcripts[taskId] : null, s.tasks, d?.kind === "agent" ? s.follow : null];
  });
  const { view, which } = useMemo(() => {
    const s = sv.store.getView();
    const d = s.ui.dialog;
    return {
      view: d && width > 0 && height > 0 ? dialogSpec(d).view(s, sv, d, width, height) : null,
      which: d ? `${d.kind}:${"purpose" in d ? d.purpose : ""}` : "",
    };
  }, [sv, width, height, ...slices]);
  if (!view) return null;
  if ("area" in view) {
    const lines = view.area.slice(0, height);
    return <Lines lines={plain ? lines.map(plainLine) : lines} width={width} />;
  }
  // Keyed by the dialog, so one dialog's field never lends its cursor to the next one's.
  return <DialogFrame key={which} {...view} width={width} height={height} plain={plain} />;
}

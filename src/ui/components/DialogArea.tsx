// The centre column while a dialog is open: today's dialog views (view/dialog-view.ts) and a
// subagent's live transcript, as one component until each dialog is its own.
import { useMemo } from "react";
import { useApp, useSlices } from "../context/useStore.js";
import { dialogArea } from "../panes/dialog-area.js";
import { Lines } from "./Lines.js";

export function DialogArea({ width, height }: { width: number; height: number }) {
  const sv = useApp();
  const slices = useSlices((s) => {
    const d = s.ui.dialog;
    // A subagent's view follows that task's transcript (its child's blocks, its approvals).
    return d?.kind === "agent" ? [s.ui, s.transcripts[d.taskId], s.follow] : [s.ui, null, null];
  });
  const lines = useMemo(() => {
    const s = sv.store.getState();
    return s.ui.dialog ? dialogArea(s, sv, s.ui.dialog, width, height) : [];
  }, [sv, width, height, ...slices]);
  return <Lines lines={lines} width={width} />;
}

// The bottom line: the latest status message, or the keys that matter right now. A message goes
// when the controller takes it off at its expiry (Controller.status); this component keeps no timer.
import { useMemo } from "react";
import { useApp, useSlices } from "../context/useStore.js";
import { statusLine } from "../panes/status.js";
import { Lines } from "./Lines.js";

export function StatusLine({ width }: { width: number }) {
  const sv = useApp();
  const slices = useSlices((s) => {
    const t = s.current ? s.transcripts[s.current] : undefined;
    const d = s.ui.dialog;
    return [
      s.ui,
      s.current,
      t?.running,
      // A stop or rewind hint holds only while the task is stopping or reloading (status-truth.ts).
      t?.stopping,
      t?.reloadFrom,
      t?.blocks.find((b) => b.kind === "approval" && b.resolved === null),
      d?.kind === "agent" ? s.transcripts[d.taskId]?.agents : null,
      // The context gauge leads the hints: the task snapshot carries it.
      s.current ? s.tasks[s.current]?.snapshot : undefined,
    ];
  });
  const line = useMemo(() => statusLine(sv.store.getView(), sv, width), [sv, width, ...slices]);
  return <Lines lines={[line]} width={width} />;
}

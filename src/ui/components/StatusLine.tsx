// The bottom line: the latest status message, or the keys that matter right now. A message
// disappears when its time is up (a timer here, as nothing else may change then).
import { useEffect, useMemo, useState } from "react";
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
  const [expired, expire] = useState(0);
  const until = sv.store.getView().ui.status?.until ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the controller's clock is fixed for the app's life; only `until` schedules the timer
  useEffect(() => {
    const left = until - sv.ctl.deps.now();
    if (left <= 0) return;
    const timer = setTimeout(() => expire((n) => n + 1), Math.min(left + 5, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [until]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `expired` and the slices are the triggers; the state is read whole when they change
  const line = useMemo(() => statusLine(sv.store.getView(), sv, width), [sv, width, expired, ...slices]);
  return <Lines lines={[line]} width={width} />;
}

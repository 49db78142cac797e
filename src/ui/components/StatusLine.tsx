// The bottom line: the latest status message, or the keys that matter right now. A message goes
// when the controller takes it off at its expiry (Controller.status); this component keeps no timer.
import { useMemo } from "react";
import { useApp, useStore } from "../context/useStore.js";
import { selectStatus, statusLine } from "../panes/status.js";
import { sameParts } from "../state/select.js";
import { Lines } from "./Lines.js";

export function StatusLine({ width }: { width: number }) {
  const sv = useApp();
  const model = useStore(selectStatus, sameParts);
  const line = useMemo(() => statusLine(model, sv, width), [model, sv, width]);
  return <Lines lines={[line]} width={width} />;
}

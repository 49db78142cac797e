// The title bar: brand, model, mode, sandbox, policy, tokens, the approval inbox, workspace.
import { useMemo } from "react";
import { useApp, useSlices } from "../context/useStore.js";
import { titleLine } from "../panes/title.js";
import { Lines } from "./Lines.js";

export function TitleBar({ width }: { width: number }) {
  const sv = useApp();
  // The UI state is in the slices for the sandbox label, which changes with a UI update.
  const slices = useSlices((s) => [s.tasks, s.current, s.mcp, s.ui]);
  const line = useMemo(() => titleLine(sv.store.getView(), sv, width), [sv, width, ...slices]);
  return <Lines lines={[line]} width={width} />;
}

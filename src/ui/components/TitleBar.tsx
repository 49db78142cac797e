// The title bar: brand, model, mode, sandbox, policy, tokens, the approval inbox, workspace.
import { useMemo } from "react";
import { useApp, useStore } from "../context/useStore.js";
import { selectTitle, titleLine } from "../panes/title.js";
import { sameParts } from "../state/select.js";
import { Lines } from "./Lines.js";

export function TitleBar({ width }: { width: number }) {
  const sv = useApp();
  const model = useStore(selectTitle, sameParts);
  const line = useMemo(() => titleLine(model, sv, width), [model, sv, width]);
  return <Lines lines={[line]} width={width} />;
}

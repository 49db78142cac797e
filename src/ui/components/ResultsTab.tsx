// One results tab, whichever it is (../tabs/): its rows, drawn from its model (its definition's
// `select`), so recomputed only when a part of it changes, and the spinner rows it marks.
import { useMemo } from "react";
import { useApp, useStore } from "../context/useStore.js";
import { tabRows } from "../panes/results.js";
import { sameParts } from "../state/select.js";
import type { ResultsTab as TabId } from "../state/ui-state.js";
import { resultsTabDefs } from "../tabs/index.js";
import { Lines } from "./Lines.js";

export interface TabProps {
  width: number;
  height: number;
  focused: boolean;
}

export function ResultsTab({ tab, width, height, focused }: TabProps & { tab: TabId }) {
  const sv = useApp();
  const def = resultsTabDefs[tab];
  const model = useStore(def.select, sameParts);
  const rows = useMemo(
    () => tabRows(def.lines(model, sv, width, height, focused).body, width, height),
    [def, model, sv, width, height, focused],
  );
  const spin = useMemo(() => def.spin?.(rows), [def, rows]);
  return <Lines lines={rows} width={width} {...(spin ? { spin } : {})} />;
}

/** A component for one tab (tests mount one tab alone). */
export const tabComponent = (tab: TabId) => (props: TabProps) => <ResultsTab tab={tab} {...props} />;

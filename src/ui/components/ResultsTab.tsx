// One results tab, whichever it is (../tabs/): its rows, recomputed only when the slices its
// definition names change, and the spinner rows it marks.
import { useMemo } from "react";
import { useApp, useSlices } from "../context/useStore.js";
import { tabRows } from "../panes/results.js";
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
  const slices = useSlices(def.slices);
  const rows = useMemo(
    () => tabRows(def.lines(sv.store.getView(), sv, width, height, focused).body, width, height),
    [sv, def, width, height, focused, ...slices],
  );
  const spin = useMemo(() => def.spin?.(rows), [def, rows]);
  return <Lines lines={rows} width={width} {...(spin ? { spin } : {})} />;
}

/** A component for one tab (tests mount one tab alone). */
export const tabComponent = (tab: TabId) => (props: TabProps) => <ResultsTab tab={tab} {...props} />;

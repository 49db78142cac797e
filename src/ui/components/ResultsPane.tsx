// The results pane: a border column, the tab bar, and the current tab (ResultsTab.tsx draws any of them).
import { Box } from "ink";
import { useMemo } from "react";
import { useApp, useSlices } from "../context/useStore.js";
import type { ResultsTab as TabId } from "../state/ui-state.js";
import { resultsBorder, resultsTabBar } from "../panes/results.js";
import { Lines } from "./Lines.js";
import { taskOf } from "../tabs/tab.js";
import { ResultsTab } from "./ResultsTab.js";

/** `plain`: the screen-reader form, with a margin instead of the border column. */
export function ResultsPane({ width, height, plain = false }: { width: number; height: number; plain?: boolean }) {
  const sv = useApp();
  const [tab, focused] = useSlices((s) => [s.ui.resultsTab, s.ui.focus === "results"]) as [TabId, boolean];
  const counts = useSlices((s) => {
    const t = taskOf(s);
    return [tab, t?.checkpoints, t?.jobs, t?.agents, t?.changed, t?.reads, s.ui.worktreeDiff === null, s.proposals];
  });
  const inner = width - 2;
  const bar = useMemo(
    () => resultsTabBar(sv.store.getView(), sv, inner).slice(0, Math.max(0, height)),
    [sv, inner, height, ...counts],
  );
  const border = useMemo(
    () => Array.from({ length: height }, () => resultsBorder(sv, focused, plain)),
    [sv, height, focused, plain],
  );
  if (width <= 2 || height <= 0) return null;
  return (
    <Box width={width} height={height} flexShrink={0}>
      <Lines lines={border} width={2} />
      <Box width={inner} height={height} flexDirection="column">
        <Lines lines={bar} width={inner} />
        {/* Keyed by tab: each tab names its own store slices, so another tab is another component
            (one instance would change its hooks' dependency lists in size between renders). */}
        <ResultsTab key={tab} tab={tab} width={inner} height={height - bar.length} focused={focused} />
      </Box>
    </Box>
  );
}

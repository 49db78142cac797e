// The results pane: a border column, the tab bar, and the current tab (ResultsTab.tsx draws any of them).
import { Box } from "ink";
import { useMemo } from "react";
import { useApp, useStore } from "../context/useStore.js";
import { resultsBorder, resultsTabBar, selectResultsBar } from "../panes/results.js";
import { sameParts } from "../state/select.js";
import { Lines } from "./Lines.js";
import { ResultsTab } from "./ResultsTab.js";

/** `plain`: the screen-reader form, with a margin instead of the border column. */
export function ResultsPane({ width, height, plain = false }: { width: number; height: number; plain?: boolean }) {
  const sv = useApp();
  const model = useStore(selectResultsBar, sameParts);
  const { tab, focused } = model;
  const inner = width - 2;
  const bar = useMemo(() => resultsTabBar(model, sv, inner).slice(0, Math.max(0, height)), [model, sv, inner, height]);
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
        {/* Keyed by tab: each tab has its own model (its definition's select), so another tab is
            another component. */}
        <ResultsTab key={tab} tab={tab} width={inner} height={height - bar.length} focused={focused} />
      </Box>
    </Box>
  );
}

// One results tab's rows, recomputed only when the slices the tab reads change.
import { useMemo } from "react";
import { useApp, useSlices } from "../../context/useStore.js";
import { tabRows, type TabBody, type TabLines } from "../../panes/results.js";
import type { AppState } from "../../state/store.js";

export interface TabProps {
  width: number;
  height: number;
  focused: boolean;
}

export const taskOf = (s: AppState) => (s.current ? s.transcripts[s.current] : undefined);

/** `rows`: exactly `height` lines of `width` columns; `body`: the tab's own lines (for spin rows). */
export function useTab(
  lines: TabLines,
  select: (s: AppState) => readonly unknown[],
  { width, height, focused }: TabProps,
): TabBody & { rows: string[] } {
  const sv = useApp();
  const slices = useSlices(select);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `lines` is a module-level function per tab; the slices are what change
  return useMemo(() => {
    const tab = lines(sv.store.getView(), sv, width, height, focused);
    return { ...tab, rows: tabRows(tab.body, width, height) };
  }, [sv, width, height, focused, ...slices]);
}

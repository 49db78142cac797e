// The Diff tab: the working tree's diff as /diff last read it (../../controller/worktree-diff.ts
// reads it into `ui.worktreeDiff`). Shown once /diff ran (../../state/ui-state.ts `shownTabs`).
import type { ResultsTabDef } from "../tab.js";
import { diffTabKey } from "./keys.js";
import { diffLines } from "./view.js";

export const diffTab: ResultsTabDef = {
  label: "Diff",
  short: "Diff",
  lines: diffLines,
  slices: (s) => [s.ui.worktreeDiff],
  keys: diffTabKey,
};

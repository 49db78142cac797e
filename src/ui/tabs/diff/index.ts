// The Diff tab: the working tree's diff as /diff last read it (../../controller/worktree-diff.ts
// reads it into `ui.worktreeDiff`). Shown once /diff ran (../../state/ui-state.ts `shownTabs`).
import { selector } from "../../state/select.js";
import type { AppState } from "../../state/store.js";
import { defineTab } from "../tab.js";
import { diffTabKey } from "./keys.js";
import { diffLines, type DiffModel } from "./view.js";

export const diffTab = defineTab({
  label: "Diff",
  short: "Diff",
  select: selector((s: AppState): DiffModel => ({ worktreeDiff: s.ui.worktreeDiff })),
  lines: diffLines,
  keys: diffTabKey,
});

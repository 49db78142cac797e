// The Skills tab: skill proposals from the background review, each as a diff, answered with a
// (accept), e (edit in $EDITOR) and d or x (drop). Shown while proposals wait (../../state/ui-state.ts
// `shownTabs`); the list is the engine's proposals.updated.
import { selector } from "../../state/select.js";
import type { AppState } from "../../state/store.js";
import { defineTab } from "../tab.js";
import { skillsTabKey } from "./keys.js";
import { skillsLines, type SkillsModel } from "./view.js";

export const skillsTab = defineTab({
  label: "Skills",
  short: "Skl",
  select: selector(
    (s: AppState): SkillsModel => ({ proposals: s.proposals, index: s.ui.resultsIndex, open: s.ui.proposalOpen }),
  ),
  lines: skillsLines,
  keys: skillsTabKey,
});

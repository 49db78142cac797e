// The Skills tab: skill proposals from the background review, each as a diff, answered with a
// (accept), e (edit in $EDITOR) and d or x (drop). Shown while proposals wait (../../state/ui-state.ts
// `shownTabs`); the list is the engine's proposals.updated.
import type { ResultsTabDef } from "../tab.js";
import { skillsTabKey } from "./keys.js";
import { skillsLines } from "./view.js";

export const skillsTab: ResultsTabDef = {
  label: "Skills",
  short: "Skl",
  lines: skillsLines,
  slices: (s) => [s.proposals, s.ui.resultsIndex, s.ui.proposalOpen],
  keys: skillsTabKey,
};

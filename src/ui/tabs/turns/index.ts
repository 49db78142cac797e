// The Turns tab: the task's checkpointed turns and the files each changed; Enter rewinds a turn
// or opens a file's diff, u reverts a file (../../controller/rewind.ts). Drawn by
// ../../view/turns-view.ts, which /rewind's dialog shares.
import { turnsTabKey } from "../../controller/rewind.js";
import { turnsTab as lines } from "../../view/turns-view.js";
import { taskOf, type ResultsTabDef } from "../tab.js";

export const turnsTab: ResultsTabDef = {
  label: "Turns",
  short: "Trn",
  letter: "Tu",
  lines,
  slices: (s) => [s.ui.resultsIndex, s.ui.turnDiff, s.current, taskOf(s), s.shown],
  keys: turnsTabKey,
};

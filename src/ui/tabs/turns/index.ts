// The Turns tab: the task's checkpointed turns and the files each changed; Enter rewinds a turn
// or opens a file's diff, u reverts a file (../../controller/rewind.ts). Drawn by
// ../../view/turns-view.ts, which /rewind's dialog shares.
import { turnsTabKey } from "../../controller/rewind.js";
import { selectTurns, turnsTab as lines } from "../../view/turns-view.js";
import { defineTab } from "../tab.js";

export const turnsTab = defineTab({
  label: "Turns",
  short: "Trn",
  letter: "Tu",
  select: selectTurns,
  lines,
  keys: turnsTabKey,
});

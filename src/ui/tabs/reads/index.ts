// The Reads tab: the files this task read (a plain list).
import { listLines } from "../../view/panes.js";
import { taskOf, type ResultsTabDef, type TabLines } from "../tab.js";

const lines: TabLines = (s, sv, inner, height, focused) => {
  const reads = taskOf(s)?.reads ?? [];
  return {
    body: listLines(sv.palette, reads, s.ui.resultsIndex, focused, inner, height, "no files read by this task yet"),
    measure: { count: reads.length, hunks: 0 },
  };
};

export const readsTab: ResultsTabDef = {
  label: "Reads",
  short: "Rds",
  lines,
  slices: (s) => [s.ui.resultsIndex, taskOf(s)?.reads],
};

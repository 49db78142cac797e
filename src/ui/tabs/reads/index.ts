// The Reads tab: the files this task read (a plain list).
import { selector } from "../../state/select.js";
import type { AppState } from "../../state/store.js";
import type { TranscriptState } from "../../state/transcript.js";
import { listLines } from "../../view/panes.js";
import { defineTab, taskOf, type TabLines } from "../tab.js";

interface ReadsModel {
  reads: TranscriptState["reads"] | undefined;
  index: number;
}

const lines: TabLines<ReadsModel> = (m, sv, inner, height, focused) => {
  const reads = m.reads ?? [];
  return {
    body: listLines(sv.palette, reads, m.index, focused, inner, height, "no files read by this task yet"),
    measure: { count: reads.length, hunks: 0 },
  };
};

export const readsTab = defineTab({
  label: "Reads",
  short: "Rds",
  select: selector((s: AppState): ReadsModel => ({ reads: taskOf(s)?.reads, index: s.ui.resultsIndex })),
  lines,
});

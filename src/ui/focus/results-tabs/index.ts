// Where results tabs are listed: one line per `ResultsTab` (state/ui-state.ts). The results
// pane (../results.ts) asks the current tab's `keys` first. A tab with keys of its own is a new file
// in this folder (its ResultsTabSpec) plus its line here; a plain list tab is `listTab`.
import type { ResultsTab } from "../../state/ui-state.js";
import { agentsTab } from "./agents.js";
import { changesTab } from "./changes.js";
import { diffTab } from "./diff.js";
import { jobsTab } from "./jobs.js";
import { listTab } from "./list.js";
import type { ResultsTabSpec } from "./tab.js";
import { turnsTab } from "./turns.js";

const tabs: Record<ResultsTab, ResultsTabSpec> = {
  files: listTab,
  changes: changesTab,
  diff: diffTab,
  turns: turnsTab,
  reads: listTab,
  todo: listTab,
  jobs: jobsTab,
  agents: agentsTab,
};

/** The key handling of a results tab. */
export function resultsTabSpec(tab: ResultsTab): ResultsTabSpec {
  return tabs[tab];
}

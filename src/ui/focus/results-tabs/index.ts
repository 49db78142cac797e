// Where results tabs are listed: one line per `ResultsTab` (controller/ui-state.ts). The results
// pane (../results.ts) asks the current tab's `keys` first. A tab with keys of its own is a new file
// in this folder (its ResultsTabSpec) plus its line here; a plain list tab is `listTab`.
import type { ResultsTab } from "../../controller/ui-state.js";
import { agentsTab } from "./agents.js";
import { changesTab } from "./changes.js";
import { diffTab } from "./diff.js";
import { jobsTab } from "./jobs.js";
import { listTab } from "./list.js";
import type { ResultsTabSpec } from "./tab.js";
import { turnsTab } from "./turns.js";

// Read when first used, as ../index.ts's list (import cycles through the controller).
const list = (): Record<ResultsTab, ResultsTabSpec> => ({
  files: listTab,
  changes: changesTab,
  diff: diffTab,
  turns: turnsTab,
  reads: listTab,
  todo: listTab,
  jobs: jobsTab,
  agents: agentsTab,
});

let registry: Record<ResultsTab, ResultsTabSpec> | null = null;

/** The key handling of a results tab. */
export function resultsTabSpec(tab: ResultsTab): ResultsTabSpec {
  registry ??= list();
  return registry[tab];
}

// Where results tabs are listed, one line each, in the order the tab bar shows them. A new tab is
// a folder here (its ResultsTabDef: ./tab.ts), its line below and its name in `ResultsTab`
// (../state/ui-state.ts); tsc fails until the three agree. See ../README.md.
import type { ResultsTab } from "../state/ui-state.js";
import { agentsTab } from "./agents/index.js";
import { changesTab } from "./changes/index.js";
import { diffTab } from "./diff/index.js";
import { filesTab } from "./files/index.js";
import { jobsTab } from "./jobs/index.js";
import { readsTab } from "./reads/index.js";
import { skillsTab } from "./skills/index.js";
import type { ResultsTabDef } from "./tab.js";
import { todoTab } from "./todo/index.js";
import { turnsTab } from "./turns/index.js";

export const resultsTabDefs: Record<ResultsTab, ResultsTabDef> = {
  files: filesTab,
  changes: changesTab,
  diff: diffTab,
  turns: turnsTab,
  reads: readsTab,
  todo: todoTab,
  jobs: jobsTab,
  agents: agentsTab,
  skills: skillsTab,
};

import { agentsTabKey } from "../../controller/agents.js";
import type { ResultsTabSpec } from "./tab.js";
import { paneAction } from "./tab.js";

/** The Agents tab (the subagent board): Enter opens an agent's view, x stops it (controller/agents.ts). */
export const agentsTab: ResultsTabSpec = {
  keys(ctl, key) {
    const action = paneAction(ctl, key);
    return action !== undefined && agentsTabKey(ctl, action, key);
  },
};

// One subagent's transcript, read-only and live (Enter on the Agents tab). It draws the whole area
// itself (agent-view.ts: the main view's virtualised renderer); its keys scroll it, answer
// the child's approval, stop it or show another (controller/agents.ts, shared with the Agents tab).
import { agentViewHints, handleAgentViewKey } from "../controller/agents.js";
import { agentViewPane } from "./agent-view.js";
import type { DialogSpec } from "./dialog.js";
import type { AgentDialog } from "../state/dialogs.js";

export const agentDialog: DialogSpec<AgentDialog> = {
  view: (s, sv, d, width, height) => ({ area: agentViewPane(s, sv, d, width, height).lines }),
  keys: handleAgentViewKey,
  hint(s, sv, d) {
    const row = s.transcripts[d.taskId]?.agents.find((a) => a.id === d.agentId);
    const live = row !== undefined && (row.status === "queued" || row.status === "running" || row.status === "waiting");
    return sv.palette.dim(agentViewHints(sv.ctl, live).join(" · "));
  },
};

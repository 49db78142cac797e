// The Agents tab: the subagent board, a spinner on each running child's row; Enter opens an
// agent's view, x stops it (../../controller/agents.ts).
import { agentsTabKey } from "../../controller/agents.js";
import { boardRows } from "../../state/children.js";
import type { Block } from "../../state/transcript.js";
import { boardLines } from "../../view/agent-board.js";
import { approvalTitle } from "../../view/cards.js";
import { paneAction, taskOf, type ResultsTabDef, type TabLines } from "../tab.js";

/** The unanswered questions of subagents, by agent id. */
function asksOf(blocks: readonly Block[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of blocks) {
    if (b.kind === "approval" && b.resolved === null && b.agentId && !out[b.agentId]) out[b.agentId] = approvalTitle(b);
  }
  return out;
}

const lines: TabLines = (s, sv, inner, height, focused) => {
  const t = taskOf(s);
  const rows = t ? boardRows(t) : [];
  const body = boardLines(
    sv.palette,
    { rows, selected: s.ui.resultsIndex, focused, now: Date.now(), ascii: sv.ascii, asks: t ? asksOf(t.blocks) : {} },
    inner,
    height,
  );
  return { body, measure: { count: rows.length, hunks: 0 } };
};

const SGR = /\x1b\[[0-9;:]*m/g;
/** A running child's first row: its number (or a blank), its indent, the running glyph. */
const RUNNING = /^[0-9 ] (?: {2})*[●*] /;

/** The Agents tab (the subagent board): Enter opens an agent's view, x stops it (controller/agents.ts). */
export const agentsTab: ResultsTabDef = {
  label: "Agents",
  short: "Agt",
  lines,
  // The board shows elapsed times: it follows the UI state, which the one-second tick renews.
  slices: (s) => [s.ui, taskOf(s)?.agents, taskOf(s)?.blocks],
  keys(host, key) {
    const action = paneAction(host, key);
    return action !== undefined && agentsTabKey(host, action, key);
  },
  spin: (rows) => rows.flatMap((line, i) => (i > 0 && RUNNING.test(line.replace(SGR, "")) ? [i] : [])),
};

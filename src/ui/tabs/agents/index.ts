// The Agents tab: the subagent board, a spinner on each running child's row; Enter opens an
// agent's view, x stops it (../../controller/agents.ts).
import { agentsTabKey } from "../../controller/agents.js";
import { boardRows } from "../../state/children.js";
import { selector } from "../../state/select.js";
import type { AppState } from "../../state/store.js";
import type { Block, TranscriptState } from "../../state/transcript.js";
import { boardLines, isActive } from "../../view/agent-board.js";
import { approvalTitle } from "../../view/cards.js";
import { defineTab, paneAction, taskOf, type TabLines } from "../tab.js";

/** The unanswered questions of subagents, by agent id. */
function asksOf(blocks: readonly Block[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of blocks) {
    if (b.kind === "approval" && b.resolved === null && b.agentId && !out[b.agentId]) out[b.agentId] = approvalTitle(b);
  }
  return out;
}

interface AgentsModel {
  agents: TranscriptState["agents"] | undefined;
  parents: TranscriptState["parents"] | undefined;
  /** Its subagents' unanswered questions are approval blocks of the task. */
  blocks: TranscriptState["blocks"] | undefined;
  index: number;
  /** Elapsed times show while a child runs or waits: the store's clock then, else 0. */
  clock: number;
}

const select = selector((s: AppState): AgentsModel => {
  const t = taskOf(s);
  return {
    agents: t?.agents,
    parents: t?.parents,
    blocks: t?.blocks,
    index: s.ui.resultsIndex,
    clock: t?.agents.some(isActive) ? s.clock : 0,
  };
});

const lines: TabLines<AgentsModel> = (m, sv, inner, height, focused) => {
  const rows = m.agents && m.parents ? boardRows({ agents: m.agents, parents: m.parents }) : [];
  const body = boardLines(
    sv.palette,
    { rows, selected: m.index, focused, now: m.clock, ascii: sv.ascii, asks: m.blocks ? asksOf(m.blocks) : {} },
    inner,
    height,
  );
  return { body, measure: { count: rows.length, hunks: 0 } };
};

const SGR = /\x1b\[[0-9;:]*m/g;
/** A running child's first row: its number (or a blank), its indent, the running glyph. */
const RUNNING = /^[0-9 ] (?: {2})*[●*] /;

/** The Agents tab (the subagent board): Enter opens an agent's view, x stops it (controller/agents.ts). */
export const agentsTab = defineTab({
  label: "Agents",
  short: "Agt",
  select,
  lines,
  keys(host, key) {
    const action = paneAction(host, key);
    return action !== undefined && agentsTabKey(host, action, key);
  },
  spin: (rows) => rows.flatMap((line, i) => (i > 0 && RUNNING.test(line.replace(SGR, "")) ? [i] : [])),
});

// Subagents in the UI store: every event a child emits (it carries `agentId`) goes to that child's
// own transcript, never into the parent's blocks, and the board's rows are put in tree order.
import type { BusEvent } from "../../protocol/events.js";
import { emptyTranscript, reduceTranscript, type AgentRow, type Block, type TranscriptState } from "./transcript.js";

/**
 * Contract: reduces one engine event into a task's transcript. Events with an `agentId` change only
 * `children[agentId]` (the parent's `blocks` array keeps its identity, so the parent view does not
 * re-render), except a child's approval questions: the card lives in the parent task (the inbox
 * counts it there) and is mirrored into the child's transcript so its view shows it in place.
 */
export function reduceTask(t: TranscriptState, event: BusEvent, now = Date.now()): TranscriptState {
  if (event.type === "approval.requested" && event.agentId) {
    return toChild(reduceTranscript(t, event, now), event.agentId, event, now);
  }
  if (event.type === "approval.resolved") {
    const asked = t.blocks.find((b) => b.kind === "approval" && b.requestId === event.requestId);
    const next = reduceTranscript(t, event, now);
    return asked?.kind === "approval" && asked.agentId ? toChild(next, asked.agentId, event, now) : next;
  }
  if (event.type === "subagent.updated") {
    const next = reduceTranscript(t, event, now);
    const isNew = !t.agents.some((a) => a.id === event.row.id);
    return isNew && event.row.depth > 1 ? withParent(next, event.row) : next;
  }
  // A subagent's file changes belong to its parent's turn; the list is the session's.
  if (event.type === "checkpoints.updated") return reduceTranscript(t, event, now);
  if (event.agentId) return toChild(t, event.agentId, event, now);
  return reduceTranscript(t, event, now);
}

function toChild(t: TranscriptState, agentId: string, event: BusEvent, now: number): TranscriptState {
  const child = t.children[agentId] ?? emptyTranscript();
  const next = reduceTranscript(child, event, now);
  return next === child ? t : { ...t, children: { ...t.children, [agentId]: next } };
}

/**
 * A nested subagent's row does not name its parent; the agent whose running `subagent` call asked
 * for exactly this agent and task does. Unknown (no match) leaves the row at the top level.
 */
function withParent(t: TranscriptState, row: AgentRow): TranscriptState {
  for (const [agentId, child] of Object.entries(t.children)) {
    const asked = child.blocks.some((b) => {
      if (b.kind !== "tool" || b.name !== "subagent" || b.status !== "running") return false;
      const args = b.args as { agent?: unknown; task?: unknown } | null;
      return args?.agent === row.name && args.task === row.task;
    });
    if (asked && agentId !== row.id) return { ...t, parents: { ...t.parents, [row.id]: agentId } };
  }
  return t;
}

const orderCache = new WeakMap<AgentRow[], { parents: Record<string, string>; rows: AgentRow[] }>();

/** The board's rows with each nested child right after its parent (otherwise first-seen order). */
export function boardRows(t: Pick<TranscriptState, "agents" | "parents">): AgentRow[] {
  const hit = orderCache.get(t.agents);
  if (hit && hit.parents === t.parents) return hit.rows;
  const known = new Set(t.agents.map((a) => a.id));
  const under = new Map<string, AgentRow[]>();
  const roots: AgentRow[] = [];
  for (const row of t.agents) {
    const parent = t.parents[row.id];
    if (parent && known.has(parent)) under.set(parent, [...(under.get(parent) ?? []), row]);
    else roots.push(row);
  }
  const rows: AgentRow[] = [];
  const visit = (row: AgentRow) => {
    rows.push(row);
    for (const c of under.get(row.id) ?? []) visit(c);
  };
  roots.forEach(visit);
  orderCache.set(t.agents, { parents: t.parents, rows });
  return rows;
}

/** The oldest unanswered approval this child asked for (it lives in the parent task's blocks). */
export function agentApproval(
  state: { transcripts: Record<string, TranscriptState> },
  taskId: string,
  agentId: string,
): Extract<Block, { kind: "approval" }> | null {
  for (const b of state.transcripts[taskId]?.blocks ?? [])
    if (b.kind === "approval" && b.resolved === null && b.agentId === agentId) return b;
  return null;
}

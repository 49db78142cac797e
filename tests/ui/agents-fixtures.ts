// Fixtures for the subagent board tests: board rows relative to a fixed clock, a task that fans
// out to six children in every state, and the keys that open the Agents tab.
import type { BusEvent } from "../../src/protocol/events.js";
import type { AgentRow } from "../../src/ui/state/transcript.js";
import { snapshot, type Harness } from "./harness.js";

export const T0 = Date.parse("2026-03-01T12:00:00Z");
export const iso = (ms: number) => new Date(ms).toISOString();
export const esc = "\x1b";
export const right = "\x1b[C";
export const ctrl = (c: string) => String.fromCharCode(c.toUpperCase().charCodeAt(0) - 64);

export function row(id: string, over: Partial<AgentRow> = {}): AgentRow {
  return {
    id,
    name: "worker",
    task: "fix the failing parser tests in src/parser.ts",
    status: "running",
    durationMs: 0,
    preview: "",
    depth: 1,
    startedAt: iso(T0 - 65_000),
    endedAt: null,
    lastActivityAt: iso(T0 - 2_000),
    tool: null,
    usage: { prompt: 0, completion: 0 },
    files: [],
    ...over,
  };
}

export const board = (r: AgentRow): BusEvent => ({ type: "subagent.updated", taskId: "t0", row: r });

/** Six children in every state, one of them silent and one asking for approval. */
export function fanOut(h: Harness): void {
  h.emit({ type: "task.updated", taskId: "t0", task: snapshot({ title: "fan out", status: "running" }) });
  h.emit({ type: "turn.started", taskId: "t0", turnId: "u1", prompt: "fan out six workers" });
  h.emit(
    board(
      row("agent-1", {
        tool: { name: "run_command", summary: "npm test -- --run tests/parser" },
        usage: { prompt: 2900, completion: 310 },
        files: ["src/a.ts", "src/b.ts"],
      }),
    ),
  );
  h.emit(board(row("agent-2", { status: "waiting", task: "update the changelog" })));
  h.emit({
    type: "approval.requested",
    taskId: "t0",
    agentId: "agent-2",
    requestId: "r1",
    callId: "c1",
    tool: "write_file",
    kind: "edit",
    title: "[agent-2 worker] write CHANGELOG.md",
    detail: "+ a line",
    reason: "policy on-request",
  });
  h.emit(
    board(row("agent-3", { lastActivityAt: iso(T0 - 185_000), tool: { name: "run_command", summary: "sleep 600" } })),
  );
  h.emit(
    board(
      row("agent-4", {
        status: "done",
        endedAt: iso(T0),
        durationMs: 12_000,
        usage: { prompt: 800, completion: 300 },
        preview: "All green.",
      }),
    ),
  );
  h.emit(board(row("agent-5", { status: "queued", startedAt: null, task: "review the lexer" })));
  h.emit(
    board(
      row("agent-6", { status: "failed", endedAt: iso(T0), durationMs: 3_000, preview: "model error: 500 internal" }),
    ),
  );
}

export async function openAgentsTab(h: Harness): Promise<string[]> {
  h.keys(ctrl("r"));
  for (let i = 0; i < 4; i++) h.keys(right);
  return h.lines();
}

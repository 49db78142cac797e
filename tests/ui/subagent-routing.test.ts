// A subagent's events in the UI store: its own transcript (the parent's blocks keep their
// identity and the parent keeps running), its approvals, nested children, the one-second tick.
import { describe, expect, it } from "vitest";
import type { BusEvent } from "../../src/protocol/events.js";
import { boardRows } from "../../src/ui/state/children.js";
import { initialState, isLive, reduceApp, type AppState } from "../../src/ui/state/store.js";
import { board, iso, row, T0 } from "./agents-fixtures.js";
import { snapshot } from "./harness.js";

describe("child events", () => {
  const ev = { taskId: "t0", agentId: "agent-1" };
  const start = (): AppState => {
    let s = reduceApp(initialState(), { type: "task.updated", taskId: "t0", task: snapshot() });
    s = reduceApp(s, { type: "turn.started", taskId: "t0", turnId: "u1", prompt: "fan out" });
    return reduceApp(s, board(row("agent-1")));
  };

  it("go to the child's transcript: the parent's blocks keep their identity and it keeps running", () => {
    let s = start();
    const parentBlocks = s.transcripts.t0!.blocks;
    const events: BusEvent[] = [
      { type: "turn.started", ...ev, turnId: "c1", prompt: "fix the parser" },
      { type: "step.started", ...ev, turnId: "c1", step: 1, model: "m" },
      { type: "reasoning.delta", ...ev, text: "hmm" },
      { type: "assistant.delta", ...ev, text: "Looking" },
      {
        type: "tool.started",
        ...ev,
        callId: "x1",
        name: "run_command",
        kind: "exec",
        args: { command: "ls" },
        summary: "ls",
      },
      { type: "tool.output", ...ev, callId: "x1", stream: "stdout", chunk: "a\n" },
      {
        type: "tool.completed",
        ...ev,
        callId: "x1",
        name: "run_command",
        status: "ok",
        forModel: "a",
        display: "1 line",
        durationMs: 5,
      },
      { type: "usage.updated", ...ev, prompt: 10, completion: 2, model: "m" },
      { type: "notice", ...ev, level: "warn", text: "child warning" },
      { type: "assistant.completed", ...ev, text: "done", toolCalls: 0 },
      {
        type: "turn.completed",
        ...ev,
        turnId: "c1",
        reason: "completed",
        response: "done",
        steps: 1,
        usage: { prompt: 10, completion: 2 },
      },
    ];
    for (const e of events) s = reduceApp(s, e);
    // Board rows change the board, not the parent's blocks either.
    s = reduceApp(s, board(row("agent-1", { usage: { prompt: 10, completion: 2 } })));
    const parent = s.transcripts.t0!;
    expect(parent.blocks).toBe(parentBlocks);
    expect(parent.running).toBe(true);
    const child = parent.children["agent-1"]!;
    expect(child.blocks.map((b) => b.kind)).toEqual(["user", "reasoning", "assistant", "tool", "notice"]);
    expect(child.running).toBe(false);
  });

  it("a child's approval stays in the parent (named by the board) and is mirrored in the child", () => {
    let s = start();
    s = reduceApp(s, {
      type: "approval.requested",
      ...ev,
      requestId: "r1",
      callId: "c1",
      tool: "write_file",
      kind: "edit",
      title: "[agent-1 worker] write a.ts",
      detail: "",
      reason: "policy",
    });
    const asked = s.transcripts.t0!.blocks.at(-1);
    expect(asked).toMatchObject({ kind: "approval", agentId: "agent-1", agentName: "worker", resolved: null });
    expect(s.transcripts.t0!.children["agent-1"]!.blocks.at(-1)).toMatchObject({ kind: "approval", requestId: "r1" });
    s = reduceApp(s, { type: "approval.resolved", taskId: "t0", requestId: "r1", decision: "once" });
    expect(s.transcripts.t0!.blocks.at(-1)).toMatchObject({ resolved: "once" });
    expect(s.transcripts.t0!.children["agent-1"]!.blocks.at(-1)).toMatchObject({ resolved: "once" });
  });

  it("a nested child is listed under the agent that started it", () => {
    let s = start();
    s = reduceApp(s, board(row("agent-2", { task: "second" })));
    s = reduceApp(s, {
      type: "tool.started",
      ...ev,
      callId: "x1",
      name: "subagent",
      kind: "agent",
      args: { agent: "helper", task: "look deeper" },
      summary: "helper: look deeper",
    });
    s = reduceApp(s, board(row("agent-3", { name: "helper", task: "look deeper", depth: 2 })));
    expect(s.transcripts.t0!.parents).toEqual({ "agent-3": "agent-1" });
    expect(boardRows(s.transcripts.t0!).map((r) => r.id)).toEqual(["agent-1", "agent-3", "agent-2"]);
  });

  it("keep the clock ticking while a child runs, even when no turn does", () => {
    let s = reduceApp(initialState(), { type: "task.updated", taskId: "t0", task: snapshot() });
    expect(isLive(s)).toBe(false);
    s = reduceApp(s, board(row("agent-1", { status: "queued" })));
    expect(isLive(s)).toBe(false);
    s = reduceApp(s, board(row("agent-1", { status: "waiting" })));
    expect(isLive(s)).toBe(true);
    s = reduceApp(s, board(row("agent-1", { status: "done", endedAt: iso(T0) })));
    expect(isLive(s)).toBe(false);
  });
});

// Approval records in the typed history (issue 28, item 12): the task's history keeps each
// question where it was asked, with its answer, its subagents' questions included; a question a
// killed run left waiting reads back as cancelled; a file written before this item existed still
// parses; and the rebuilt transcript shows each as the answered line the live one showed.
import { describe, expect, it } from "vitest";
import { HistoryRecorder, settleRunning } from "../../src/agent/history-recorder.js";
import type { BusEvent, EventOf } from "../../src/protocol/events.js";
import { HistoryItemSchema, type HistoryItem } from "../../src/protocol/history.js";
import { fromHistory } from "../../src/ui/state/transcript.js";

const asked = (requestId: string, extra: Partial<EventOf<"approval.requested">> = {}): BusEvent => ({
  type: "approval.requested",
  taskId: "t1",
  requestId,
  callId: `call-${requestId}`,
  tool: "run_command",
  kind: "exec",
  title: `Run: touch ${requestId}`,
  detail: `touch ${requestId}`,
  reason: "on-request policy",
  ...extra,
});
const answered = (
  requestId: string,
  decision: EventOf<"approval.resolved">["decision"],
  agentId?: string,
): BusEvent => ({
  type: "approval.resolved",
  taskId: "t1",
  requestId,
  decision,
  by: "user",
  ...(agentId ? { agentId } : {}),
});

describe("approval items", () => {
  it("records each question where it was asked and fills in its answer", () => {
    const items: HistoryItem[] = [];
    const rec = new HistoryRecorder(() => items, undefined);
    rec.onEvent({ type: "turn.started", taskId: "t1", turnId: "u1", prompt: "go" } as BusEvent);
    rec.onEvent(asked("a"));
    rec.onEvent(answered("a", "once"));
    rec.onEvent(asked("b", { agentId: "agent-1", title: "[agent-1 worker] Run: touch b", dangerous: true }));
    rec.onEvent(answered("b", "deny", "agent-1"));
    expect(items).toEqual([
      { type: "user", text: "go" },
      {
        type: "approval",
        requestId: "a",
        callId: "call-a",
        tool: "run_command",
        kind: "exec",
        title: "Run: touch a",
        decision: "once",
        by: "user",
      },
      {
        type: "approval",
        requestId: "b",
        callId: "call-b",
        tool: "run_command",
        kind: "exec",
        title: "[agent-1 worker] Run: touch b",
        dangerous: true,
        agentId: "agent-1",
        decision: "deny",
        by: "user",
      },
    ]);
    for (const it of items) expect(HistoryItemSchema.safeParse(it).success).toBe(true);
  });

  it("a subagent's history keeps only its own questions", () => {
    const items: HistoryItem[] = [];
    const child = new HistoryRecorder(() => items, "agent-1");
    child.onEvent(asked("c", { agentId: "agent-2" }));
    child.onEvent(asked("d"));
    expect(items).toEqual([]);
  });

  it("an unanswered question reads back as cancelled; an older history without approvals parses", () => {
    const items: HistoryItem[] = [];
    const rec = new HistoryRecorder(() => items, undefined);
    rec.onEvent(asked("d"));
    settleRunning(items);
    expect(items[0]).toMatchObject({ type: "approval", decision: "cancelled" });
    const old = [
      { type: "user", text: "hi" },
      { type: "assistant", text: "hello" },
    ];
    expect(old.every((it) => HistoryItemSchema.safeParse(it).success)).toBe(true);
  });

  it("rebuilds answered lines, never a card that waits, with the asking child named", () => {
    const items: HistoryItem[] = [
      { type: "user", text: "go" },
      {
        type: "approval",
        requestId: "a",
        tool: "run_command",
        kind: "exec",
        title: "Run: touch a",
        decision: "always",
      },
      {
        type: "approval",
        requestId: "b",
        tool: "write_file",
        kind: "edit",
        title: "[agent-2 docs writer] Create b.md",
        agentId: "agent-2",
        decision: null,
      },
    ];
    const blocks = fromHistory(items).blocks;
    expect(
      blocks.map((b) => (b.kind === "approval" ? [b.resolved, b.agentId ?? null, b.agentName ?? null] : b.kind)),
    ).toEqual(["user", ["always", null, null], ["cancelled", "agent-2", "docs writer"]]);
  });
});

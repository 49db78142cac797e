// The transcript a session.loaded rebuilds from typed history items: one block per item the live
// run showed a block for (memory items show none), cards with the item's kind, summary and state;
// and a session.loaded from a daemon older than typed history gives an empty transcript, not a crash.
import { describe, expect, it } from "vitest";
import type { BusEvent } from "../../src/protocol/events.js";
import type { HistoryItem } from "../../src/protocol/history.js";
import { emptyTranscript, fromHistory, reduceTranscript } from "../../src/ui/state/transcript.js";

const tool = (status: "ok" | "denied" | "aborted" | "running"): HistoryItem => ({
  type: "tool",
  callId: `c-${status}`,
  name: "run_command",
  kind: "exec",
  summary: `npm ${status}`,
  status,
  display: status,
  durationMs: 5,
  args: { command: "npm" },
  forModel: "out",
});

describe("fromHistory", () => {
  it.each<[HistoryItem, object | null]>([
    [
      { type: "user", text: "hi" },
      { kind: "user", text: "hi" },
    ],
    [
      { type: "steer", text: "also" },
      { kind: "steer", text: "also" },
    ],
    [
      { type: "assistant", text: "part", stopped: true },
      { kind: "assistant", text: "part", done: true, stopped: true },
    ],
    [
      { type: "reasoning", text: "hmm" },
      { kind: "reasoning", text: "hmm", done: true, expanded: false },
    ],
    [
      tool("denied"),
      {
        kind: "tool",
        toolKind: "exec",
        summary: "npm denied",
        status: "denied",
        args: { command: "npm" },
        forModel: "out",
        durationMs: 5,
      },
    ],
    [tool("running"), { kind: "tool", status: "aborted" }],
    [{ type: "memory", ids: ["m1"] }, null],
    [
      {
        type: "compaction",
        at: null,
        folded: null,
        kept: null,
        summaryChars: 3,
        failed: false,
        beforeChars: null,
        afterChars: null,
        summary: "sum",
        focus: "x",
      },
      { kind: "compaction", folded: null, summary: "sum", focus: "x" },
    ],
    [
      { type: "turn-end", reason: "interrupted" },
      { kind: "turn-end", reason: "interrupted", text: "stopped" },
    ],
    [
      { type: "turn-end", reason: "error", error: "model request failed" },
      { kind: "turn-end", reason: "error", text: "model request failed" },
    ],
    [
      { type: "note", text: "3 older transcript items were dropped" },
      { kind: "notice", level: "info" },
    ],
  ])("%j", (item, block) => {
    const t = fromHistory([item]);
    if (block === null) expect(t.blocks).toEqual([]);
    else expect(t.blocks).toEqual([expect.objectContaining({ ...block, id: "b1" })]);
  });

  it("a session.loaded without a history (an older daemon) empties the transcript", () => {
    const before = reduceTranscript(emptyTranscript(), {
      type: "turn.started",
      taskId: "t",
      turnId: "u1",
      prompt: "hi",
    });
    const old = {
      type: "session.loaded",
      taskId: "t",
      messages: [{ role: "user", content: "hi" }],
    } as unknown as BusEvent;
    expect(reduceTranscript(before, old).blocks).toEqual([]);
  });
});

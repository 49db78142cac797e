// What an MCP client sees of a turn's progress (src/mcp-server/threads.ts): one line per step and
// tool, failures and warnings, nothing of subagents or streamed text.
import { describe, expect, it } from "vitest";
import { progressLine } from "../../src/mcp-server/threads.js";
import type { BusEvent } from "../../src/protocol/events.js";

describe("progressLine", () => {
  it.each<[BusEvent, string | null]>([
    [{ type: "step.started", taskId: "t", turnId: "u", step: 2, model: "m" }, "step 2"],
    [
      { type: "tool.started", taskId: "t", callId: "c", name: "read_file", kind: "read", args: {}, summary: "a.txt" },
      "read_file: a.txt",
    ],
    [
      {
        type: "tool.completed",
        taskId: "t",
        callId: "c",
        name: "run_command",
        status: "denied",
        forModel: "refused: blocked\nmore",
        display: "",
        durationMs: 0,
      },
      "run_command denied: refused: blocked",
    ],
    [
      {
        type: "tool.completed",
        taskId: "t",
        callId: "c",
        name: "x",
        status: "ok",
        forModel: "",
        display: "",
        durationMs: 1,
      },
      null,
    ],
    [{ type: "notice", taskId: "t", level: "warn", text: "w" }, "warn: w"],
    [{ type: "notice", taskId: "t", level: "info", text: "i" }, null],
    [{ type: "assistant.delta", taskId: "t", text: "x" }, null],
    [{ type: "step.started", taskId: "t", agentId: "agent-1", turnId: "u", step: 1, model: "m" }, null],
  ])("%j", (event, line) => {
    expect(progressLine(event)).toBe(line);
  });
});

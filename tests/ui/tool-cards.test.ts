// Issue 18 items 4 and 5 as the transcript sees them: a failed or denied edit is not a change,
// and a call that never started keeps what it was (a denied command's card shows the command).
import { describe, expect, it } from "vitest";
import type { BusEvent } from "../../src/protocol/events.js";
import { emptyTranscript, reduceTranscript, type Block } from "../../src/ui/state/transcript.js";
import { builtinTheme } from "../../src/ui/theme/load.js";
import { makePalette } from "../../src/ui/theme/palette.js";
import { toolLines, userLines } from "../../src/ui/view/cards.js";
import { shellNote } from "../../src/agent/shell-mode.js";

const run = (events: BusEvent[]) => events.reduce((s, e) => reduceTranscript(s, e, 1000), emptyTranscript());
const started = (callId: string, path: string): BusEvent => ({
  type: "tool.started",
  taskId: "t",
  callId,
  name: "edit_file",
  kind: "edit",
  args: { path, old_string: "a", new_string: "b" },
  summary: path,
});
const completed = (
  callId: string,
  status: "ok" | "error" | "denied",
  extra: Partial<Extract<BusEvent, { type: "tool.completed" }>> = {},
): BusEvent => ({
  type: "tool.completed",
  taskId: "t",
  callId,
  name: "edit_file",
  status,
  forModel: status,
  display: status,
  durationMs: 5,
  ...extra,
});

describe("the Changes tab counts only edits that were made", () => {
  it("lists an edit once it succeeded, never one that failed or was refused", () => {
    const s = run([
      started("1", "ok.txt"),
      completed("1", "ok"),
      started("2", "failed.txt"),
      completed("2", "error"),
      completed("3", "error", {
        kind: "edit",
        summary: "prechecked.txt",
        args: { path: "prechecked.txt" },
        durationMs: 0,
      }),
      completed("4", "denied", { kind: "edit", summary: "denied.txt", args: { path: "denied.txt" }, durationMs: 0 }),
    ]);
    expect(s.changed).toEqual(["ok.txt"]);
  });
});

describe("a call that never started", () => {
  it("keeps its command on the card", () => {
    const s = run([
      {
        type: "tool.completed",
        taskId: "t",
        callId: "9",
        name: "run_command",
        status: "denied",
        forModel: "denied",
        display: "denied: the user said no",
        durationMs: 0,
        kind: "exec",
        summary: "rm -rf build",
        args: { command: "rm -rf build" },
      },
    ]);
    const block = s.blocks[0] as Extract<Block, { kind: "tool" }>;
    expect(block).toMatchObject({ summary: "rm -rf build", toolKind: "exec", status: "denied" });
    const lines = toolLines(block, {
      p: makePalette(builtinTheme("dark"), 0),
      width: 80,
      now: 1000,
      focused: false,
      ascii: false,
    });
    expect(lines[0]).toContain("run_command rm -rf build");
    expect(lines[1]).toContain("denied: the user said no");
  });
});

describe("a resumed session's cards", () => {
  const c = { p: makePalette(builtinTheme("dark"), 0), width: 80, now: 1000, focused: false, ascii: false };
  it("a tool card without a summary shows its command", () => {
    const block: Extract<Block, { kind: "tool" }> = {
      kind: "tool",
      id: "b1",
      callId: "x",
      name: "run_command",
      toolKind: null,
      summary: "",
      args: { command: "make test" },
      status: "denied",
      output: "",
      display: "denied",
      forModel: "",
      startedAt: 0,
      durationMs: null,
      expanded: false,
    };
    expect(toolLines(block, c)[0]).toContain("run_command make test");
  });

  it("a ! command's note shows as the command", () => {
    const text = shellNote("ls -la", {
      status: "ok",
      forModel: "$ ls -la\nexit code 0 (0.0 s)\n--- stdout ---\na\nb",
      display: "",
    });
    const lines = userLines({ kind: "user", id: "u", text }, c);
    expect(lines[0]).toBe("› !ls -la");
    expect(lines[1]).toContain("4 lines of output went to the model");
    expect(lines.join("\n")).not.toContain("<bash");
  });
});

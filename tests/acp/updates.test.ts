// The ACP translation of bus events and of a saved history (src/acp/updates.ts): kinds, locations,
// edit diffs, refused calls, the plan, usage and the mode, as tables.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acpKind, diffOf, locationsOf, replayUpdates, UpdateTranslator } from "../../src/acp/updates.js";
import type { BusEvent } from "../../src/protocol/events.js";
import { tempDir } from "../helpers/cli.js";

const ws = "/w";
const translator = (notices = false) =>
  new UpdateTranslator({ workspace: ws, mode: "default", contextWindow: () => 1000, notices });

describe("acpKind", () => {
  it.each([
    ["read_file", "read", "read"],
    ["grep", "read", "search"],
    ["glob", "read", "search"],
    ["list_dir", "read", "search"],
    ["edit_file", "edit", "edit"],
    ["apply_patch", "edit", "edit"],
    ["run_command", "exec", "execute"],
    ["task_kill", "exec", "execute"],
    ["git_commit", "exec", "execute"],
    ["web_fetch", "net", "fetch"],
    ["todo_write", "read", "think"],
    ["subagent", "agent", "other"],
    ["srv__tool", "mcp", "other"],
    ["unknown", null, "other"],
  ] as const)("%s (%s) is %s", (name, kind, expected) => {
    expect(acpKind(name, kind)).toBe(expected);
  });
});

describe("locationsOf", () => {
  it.each([
    ["read_file", { path: "a.txt", offset: 10 }, [{ path: "/w/a.txt", line: 10 }]],
    ["write_file", { path: "/abs/b.txt", content: "" }, [{ path: "/abs/b.txt" }]],
    ["run_command", { command: "ls" }, []],
    [
      "apply_patch",
      { patch: "*** Begin Patch\n*** Update File: src/x.ts\n@@\n-a\n+b\n*** Add File: new.ts\n+x\n*** End Patch" },
      [{ path: "/w/src/x.ts" }, { path: "/w/new.ts" }],
    ],
    ["apply_patch", { patch: "--- a/y.ts\n+++ b/y.ts\n@@ -1 +1 @@\n-a\n+b\n" }, [{ path: "/w/y.ts" }]],
  ])("%s %j", (name, args, expected) => {
    expect(locationsOf(name, args, ws)).toEqual(expected);
  });
});

describe("diffOf", () => {
  it("shows edit_file's strings and write_file's content against the file as it is", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "d"));
    writeFileSync(join(dir, "d", "f.txt"), "before\n");
    expect(diffOf("edit_file", { path: "d/f.txt", old_string: "a", new_string: "b" }, dir)).toEqual([
      { type: "diff", path: join(dir, "d", "f.txt"), oldText: "a", newText: "b" },
    ]);
    expect(diffOf("write_file", { path: "d/f.txt", content: "after\n" }, dir)).toEqual([
      { type: "diff", path: join(dir, "d", "f.txt"), oldText: "before\n", newText: "after\n" },
    ]);
    expect(diffOf("write_file", { path: "new.txt", content: "x" }, dir)).toEqual([
      { type: "diff", path: join(dir, "new.txt"), oldText: null, newText: "x" },
    ]);
    expect(diffOf("read_file", { path: "d/f.txt" }, dir)).toEqual([]);
  });
});

describe("UpdateTranslator", () => {
  it("streams text and thoughts of the task's own agent, not of its subagents", () => {
    const t = translator();
    expect(t.translate({ type: "assistant.delta", taskId: "s", text: "hi" })).toEqual([
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
    ]);
    expect(t.translate({ type: "reasoning.delta", taskId: "s", text: "hm" })).toEqual([
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hm" } },
    ]);
    expect(t.translate({ type: "assistant.delta", taskId: "s", agentId: "agent-1", text: "x" })).toEqual([]);
  });

  it("announces a call asked about as pending, then updates it; a refused call it never saw gets both", () => {
    const t = translator();
    expect(t.pending("c1", "write a.txt", "edit", "diff")).toMatchObject({
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      status: "pending",
    });
    expect(t.pending("c1", "again", "edit", "")).toBeNull();
    const started: BusEvent = {
      type: "tool.started",
      taskId: "s",
      callId: "c1",
      name: "edit_file",
      kind: "edit",
      args: { path: "a.txt", old_string: "x", new_string: "y" },
      summary: "a.txt",
    };
    expect(t.translate(started)).toEqual([
      expect.objectContaining({ sessionUpdate: "tool_call_update", status: "in_progress", kind: "edit" }),
    ]);
    const done = t.translate({
      type: "tool.completed",
      taskId: "s",
      callId: "c1",
      name: "edit_file",
      status: "ok",
      forModel: "edited",
      display: "1 line",
      durationMs: 1,
    });
    expect(done).toEqual([
      expect.objectContaining({
        sessionUpdate: "tool_call_update",
        status: "completed",
        content: [
          { type: "diff", path: "/w/a.txt", oldText: "x", newText: "y" },
          { type: "content", content: { type: "text", text: "edited" } },
        ],
      }),
    ]);
    const refused = t.translate({
      type: "tool.completed",
      taskId: "s",
      callId: "c2",
      name: "run_command",
      kind: "exec",
      status: "denied",
      forModel: "refused: blocked",
      display: "refused",
      durationMs: 0,
      args: { command: "rm -rf /" },
      summary: "rm -rf /",
    });
    expect(refused.map((u) => [u.sessionUpdate, (u as { status?: string }).status])).toEqual([
      ["tool_call", "pending"],
      ["tool_call_update", "failed"],
    ]);
  });

  it("reports the plan, usage with the window and the priced cost, and a mode change once", () => {
    const t = translator();
    expect(
      t.translate({
        type: "todo.updated",
        taskId: "s",
        items: [{ content: "a", status: "completed" }],
      }),
    ).toEqual([{ sessionUpdate: "plan", entries: [{ content: "a", status: "completed", priority: "medium" }] }]);
    expect(
      t.translate({ type: "usage.updated", taskId: "s", prompt: 100, completion: 5, model: "m", costUsd: 0.5 }),
    ).toEqual([{ sessionUpdate: "usage_update", used: 100, size: 1000, cost: { amount: 0.5, currency: "USD" } }]);
    expect(
      t.translate({ type: "usage.updated", taskId: "s", prompt: 200, completion: 5, model: "x", contextWindow: 9000 }),
    ).toEqual([{ sessionUpdate: "usage_update", used: 200, size: 9000 }]);
    const snapshot = (mode: "default" | "plan") =>
      ({ type: "task.updated", taskId: "s", task: { mode } }) as unknown as BusEvent;
    expect(t.translate(snapshot("default"))).toEqual([]);
    expect(t.translate(snapshot("plan"))).toEqual([{ sessionUpdate: "current_mode_update", currentModeId: "plan" }]);
    expect(t.translate(snapshot("plan"))).toEqual([]);
  });

  it("sends warnings as notices only to a client that shows them", () => {
    const warn: BusEvent = { type: "notice", taskId: "s", level: "warn", text: "careful" };
    expect(translator(false).translate(warn)).toEqual([]);
    expect(translator(true).translate(warn)).toEqual([
      { sessionUpdate: "notice", severity: "warning", title: "careful" },
    ]);
  });
});

describe("replayUpdates", () => {
  it("replays prompts, answers, thoughts and tool calls; leaves bookkeeping out", () => {
    const updates = replayUpdates(
      [
        { type: "user", text: "q" },
        { type: "reasoning", text: "r" },
        {
          type: "tool",
          callId: "c",
          name: "read_file",
          kind: "read",
          summary: "a.txt",
          status: "ok",
          display: "",
          durationMs: 1,
          args: { path: "a.txt" },
          forModel: "1\ta",
        },
        { type: "memory", ids: [] },
        { type: "assistant", text: "a" },
        { type: "turn-end", reason: "interrupted" },
      ],
      ws,
    );
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "agent_thought_chunk",
      "tool_call",
      "agent_message_chunk",
    ]);
    expect(updates[2]).toMatchObject({ status: "completed", kind: "read", locations: [{ path: "/w/a.txt" }] });
  });
});

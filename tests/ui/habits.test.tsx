// Habits (issue 28, item 5): `\` + Enter adds a line; Shift-Tab cycles default → accept-edits →
// plan only; the mouse wheel (SGR reports) scrolls the transcript, never the prompt history.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../helpers/pty.js";
import { renderUi, snapshot, type Harness } from "./harness.js";
import { windowTitle } from "../../src/ui/app/wire-bus.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const ev = { taskId: "t0" };
const wheelUp = "\x1b[<64;10;5M";
const wheelDown = "\x1b[<65;10;5M";

describe("habits", () => {
  it("\\ + Enter inserts a newline instead of sending", async () => {
    h = await renderUi(80, 24);
    h.keys("first line\\\r");
    expect(h.sent.filter((c) => c.type === "user.submit")).toEqual([]);
    h.keys("second\r");
    expect(h.sent.at(-1)).toEqual({ type: "user.submit", taskId: "t0", text: "first line\nsecond", mode: "turn" });
  });

  it("Shift-Tab cycles default, accept-edits and plan only", async () => {
    h = await renderUi(80, 24);
    const modes: string[] = [];
    for (const mode of ["default", "accept-edits", "plan", "goal", "debug"] as const) {
      h.emit({ type: "task.updated", ...ev, task: snapshot({ mode }) });
      h.keys(keys.shiftTab);
      const sent = h.sent.at(-1);
      modes.push(sent?.type === "config.update" ? (sent.mode ?? "") : "");
    }
    expect(modes).toEqual(["accept-edits", "plan", "default", "default", "default"]);
  });

  it("the mouse wheel scrolls the transcript and leaves the prompt history alone", async () => {
    h = await renderUi(80, 24, { history: ["an old prompt"] });
    for (let i = 0; i < 30; i++) h.emit({ type: "notice", ...ev, level: "info", text: `line ${i}` });
    expect(await h.frame()).toContain("line 29");
    h.keys(wheelUp + wheelUp + wheelUp + wheelUp + wheelUp);
    const up = await h.frame();
    expect(up).not.toContain("line 29");
    expect(up).not.toContain("an old prompt");
    h.keys(wheelDown.repeat(10));
    expect(await h.frame()).toContain("line 29");
  });

  it("the window title names the task and an approval waiting", () => {
    const base = { current: "t0", order: ["t0"] } as const;
    const entry = (over: Parameters<typeof snapshot>[0]) => ({
      id: "t0",
      snapshot: snapshot(over),
      queue: [],
      attention: false,
    });
    const s = (over: Parameters<typeof snapshot>[0]) =>
      ({ ...base, tasks: { t0: entry(over) } }) as unknown as Parameters<typeof windowTitle>[0];
    expect(windowTitle(s({ title: "fix the parser" }))).toBe("fix the parser · NanoHermes");
    expect(windowTitle(s({ title: "fix the parser", pendingApprovals: 1, status: "waiting" }))).toBe(
      "! waiting for approval · fix the parser · NanoHermes",
    );
  });
});

describe("finished command cards", () => {
  it("keep the last lines of output, and a stopped command keeps what was on screen", async () => {
    h = await renderUi(80, 24);
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "test" });
    h.emit({
      type: "tool.started",
      ...ev,
      callId: "c1",
      name: "run_command",
      kind: "exec",
      args: { command: "npm test" },
      summary: "npm test",
    });
    h.emit({
      type: "tool.output",
      ...ev,
      callId: "c1",
      stream: "stdout",
      chunk: "suite a ok\nsuite b ok\nsuite c FAILED\n  expected 2, got 3\n",
    });
    h.emit({
      type: "tool.completed",
      ...ev,
      callId: "c1",
      name: "run_command",
      status: "aborted",
      forModel: "[interrupted]",
      display: "stopped",
      durationMs: 900,
    });
    const frame = await h.frame();
    expect(frame).toContain("│ suite b ok");
    expect(frame).toContain("│ suite c FAILED");
    expect(frame).toContain("│   expected 2, got 3");
    expect(frame).not.toContain("suite a ok");
  });
});

describe("the plan inline", () => {
  it("todo_write shows its checklist in the transcript", async () => {
    h = await renderUi(80, 24);
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "plan" });
    const items = [
      { content: "read the parser", status: "completed" },
      { content: "write the fix", status: "in_progress" },
      { content: "run the tests", status: "pending" },
      { content: "update the docs", status: "pending" },
    ];
    h.emit({
      type: "tool.started",
      ...ev,
      callId: "c1",
      name: "todo_write",
      kind: "read",
      args: { items },
      summary: "1/4 done",
    });
    h.emit({
      type: "tool.completed",
      ...ev,
      callId: "c1",
      name: "todo_write",
      status: "ok",
      forModel: "plan saved",
      display: "1/4 done",
      durationMs: 1,
    });
    const frame = await h.frame();
    expect(frame).toContain("✔ read the parser");
    expect(frame).toContain("▶ write the fix");
    expect(frame).toContain("☐ run the tests");
    expect(frame).toContain("☐ update the docs");
  });
});

describe("fixed prompts", () => {
  it("/init and /review show a one-line header, the full text one Enter away in browse mode", async () => {
    const { INIT_PROMPT, reviewPrompt } = await import("../../src/ui/view/fixed-prompts.js");
    h = await renderUi(100, 30);
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: INIT_PROMPT });
    let frame = await h.frame();
    expect(frame).toContain("/init · write or update AGENTS.md");
    expect(frame).not.toContain("Read what is there first");
    const diff = "diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1,2 @@\n-old\n+new\n+more\n";
    h.emit({ type: "turn.started", ...ev, turnId: "turn-2", prompt: reviewPrompt(diff, "the parser") });
    frame = await h.frame();
    expect(frame).toContain("/review the parser · the uncommitted change: 1 file, +2 −1");
    expect(frame).not.toContain("+more");
    h.emit({
      type: "turn.completed",
      ...ev,
      turnId: "turn-2",
      reason: "completed",
      response: "",
      steps: 1,
      usage: { prompt: 1, completion: 1 },
    });
    h.keys(keys.ctrl("x"));
    h.keys("\r");
    expect(await h.frame()).toContain("+more");
  });
});

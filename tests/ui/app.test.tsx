// The whole UI rendered at 40, 80 and 120 columns from engine events, driven by real key bytes:
// layout, streaming, tool cards, the approval card, the Ctrl-C contract, the composer and panes.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../helpers/pty.js";
import { renderUi, snapshot, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const ev = { taskId: "t0" };
const widest = (lines: string[]) => Math.max(...lines.map((l) => [...l].length));

describe.each([
  [40, 12],
  [80, 24],
  [120, 40],
])("at %ix%i", (columns, rows) => {
  it("renders rows - 1 lines, none wider than the terminal, with the right panes", async () => {
    h = await renderUi(columns, rows);
    const lines = await h.lines();
    expect(lines).toHaveLength(rows - 1);
    expect(widest(lines)).toBeLessThanOrEqual(columns);
    expect(lines[0]).toMatch(/^NanoHermes/);
    expect(lines.some((l) => l.includes("Ask anything"))).toBe(true);
    expect(lines.some((l) => l.startsWith("Tasks 1"))).toBe(columns >= 80);
    expect(lines.some((l) => l.includes("[Changes]"))).toBe(columns >= 120);
  });

  it("shows a streaming reply, a tool card with live output, and its result", async () => {
    h = await renderUi(columns, rows);
    h.emit({ type: "task.updated", ...ev, task: snapshot({ status: "running", title: "build it" }) });
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "build it" });
    h.emit({ type: "assistant.delta", ...ev, text: "Running the **build** now." });
    expect(await h.frame()).toContain("Running the build now.");
    h.emit({ type: "assistant.completed", ...ev, text: "Running the **build** now.", toolCalls: 1 });
    h.emit({
      type: "tool.started",
      ...ev,
      callId: "c1",
      name: "run_command",
      kind: "exec",
      args: { command: "npm run build" },
      summary: "npm run build",
    });
    h.emit({ type: "tool.output", ...ev, callId: "c1", stream: "stdout", chunk: "compiling 12 files\n" });
    let frame = await h.frame();
    expect(frame).toMatch(/run_command npm run build/);
    expect(frame).toContain("compiling 12 files");
    h.emit({
      type: "tool.completed",
      ...ev,
      callId: "c1",
      name: "run_command",
      status: "ok",
      forModel: "$ npm run build\nexit code 0",
      display: "exit 0 in 1.2 s",
      durationMs: 1200,
    });
    frame = await h.frame();
    expect(frame).toContain("exit 0 in 1.2 s");
    // The finished card keeps the tail of its output (issue 28, item 6).
    expect(frame).toContain("│ compiling 12 files");
    const lines = frame.split("\n");
    expect(lines).toHaveLength(rows - 1);
    expect(widest(lines)).toBeLessThanOrEqual(columns);
  });

  it("shows the approval card with the exact command and answers it with y", async () => {
    h = await renderUi(columns, rows);
    h.emit({ type: "task.updated", ...ev, task: snapshot({ status: "waiting", pendingApprovals: 1 }) });
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "clean up" });
    h.emit({
      type: "approval.requested",
      ...ev,
      requestId: "r1",
      callId: "c1",
      tool: "run_command",
      kind: "exec",
      title: "Run: rm -rf build",
      detail: "rm -rf build",
      reason: "on-request policy: not a recognised read-only command",
    });
    const lines = await h.lines();
    expect(lines).toHaveLength(rows - 1);
    expect(widest(lines)).toBeLessThanOrEqual(columns);
    const frame = lines.join("\n");
    expect(frame).toContain("Approval needed");
    expect(frame).toContain("rm -rf build");
    expect(frame).toMatch(/y once/);
    expect(frame).toMatch(/n deny/);
    expect(lines[0]).toContain("1 approval");
    // The captured screen guards the layout of the card at this size.
    // (The turn's elapsed time is the one moving part: normalised.)
    expect(frame.replace(/ · \d+s( · |$)/gm, " · Ns$1")).toMatchSnapshot();
    h.later(); // read before answered (controller/approval-guard.ts)
    h.keys("y");
    expect(h.sent.at(-1)).toEqual({ type: "approval.reply", taskId: "t0", requestId: "r1", decision: "once" });
  });
});

describe("keys", () => {
  it("Ctrl-C while running stops at the step boundary; a second press within 2 s kills", async () => {
    h = await renderUi(80, 24);
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "go" });
    h.keys(keys.ctrl("c"));
    expect(h.sent.at(-1)).toEqual({ type: "turn.interrupt", taskId: "t0", force: false });
    expect(await h.frame()).toContain("stopping after this step");
    h.keys(keys.ctrl("c"));
    expect(h.sent.at(-1)).toEqual({ type: "turn.interrupt", taskId: "t0", force: true });
    expect(h.exits).toBe(0);
  });

  it("Ctrl-C when idle clears the input, then exits only on a second press; Ctrl-D exits on an empty input", async () => {
    h = await renderUi(80, 24);
    h.keys("draft text");
    expect(await h.frame()).toContain("draft text");
    h.keys(keys.ctrl("c"));
    const frame = await h.frame();
    expect(frame).not.toContain("draft text");
    expect(frame).toMatch(/Ctrl-C again within 2 s to exit/);
    expect(h.exits).toBe(0);
    h.keys(keys.ctrl("c"));
    expect(h.exits).toBe(1);
    h.keys("x");
    h.keys(keys.ctrl("d"));
    expect(h.exits).toBe(1);
    h.keys(keys.backspace);
    h.keys(keys.ctrl("d"));
    expect(h.exits).toBe(2);
  });

  it("Enter sends; while a turn runs Enter steers and Tab queues", async () => {
    h = await renderUi(80, 24);
    h.keys("first\r");
    expect(h.sent.at(-1)).toEqual({ type: "user.submit", taskId: "t0", text: "first", mode: "turn" });
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "first" });
    h.keys("also this\r");
    expect(h.sent.at(-1)).toEqual({ type: "user.submit", taskId: "t0", text: "also this", mode: "steer" });
    h.keys(`later${keys.tab}`);
    expect(h.sent.at(-1)).toEqual({ type: "user.submit", taskId: "t0", text: "later", mode: "queue" });
    h.emit({ type: "queue.updated", ...ev, items: [{ id: "q1", text: "later", mode: "queue" }] });
    expect(await h.frame()).toMatch(/queued later/);
  });

  it("a paste with newlines is one message; Ctrl-J adds a line", async () => {
    h = await renderUi(80, 24);
    h.keys(keys.paste("a\nb"));
    h.keys(`${keys.ctrl("j")}c\r`);
    expect(h.sent.at(-1)).toMatchObject({ type: "user.submit", text: "a\nb\nc" });
  });

  it("slash commands become bus commands; an unknown one is reported", async () => {
    h = await renderUi(80, 24);
    h.keys("/mode plan\r");
    expect(h.sent.at(-1)).toEqual({ type: "config.update", taskId: "t0", mode: "plan" });
    h.keys("/undo 2\r");
    expect(h.sent.at(-1)).toEqual({ type: "session.undo", taskId: "t0", n: 2 });
    h.keys("/frobnicate\r");
    expect(await h.frame()).toMatch(/unknown command \/frobnicate/);
  });

  it("completes slash commands and @paths with Tab", async () => {
    h = await renderUi(80, 24);
    h.keys("look at @src/c");
    h.keys(keys.tab);
    expect(await h.frame()).toContain("look at @src/cli.ts");
    h.keys(keys.ctrl("u"));
    h.keys("/pol");
    h.keys(keys.tab);
    expect(await h.frame()).toContain("/policy");
  });

  it("Ctrl-X browses the transcript (Esc on an empty input does not); y copies a block's source text", async () => {
    h = await renderUi(80, 24);
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "q" });
    h.emit({ type: "assistant.delta", ...ev, text: "Use:\n\n```sh\nnpm test\n```\n" });
    h.emit({ type: "assistant.completed", ...ev, text: "", toolCalls: 0 });
    h.emit({
      type: "turn.completed",
      ...ev,
      turnId: "turn-1",
      reason: "completed",
      response: "",
      steps: 1,
      usage: { prompt: 1, completion: 1 },
    });
    h.keys(keys.esc);
    expect(h.ctl.ui.focus).toBe("composer");
    h.keys("run tests");
    expect(await h.frame()).toContain("run tests");
    h.keys(keys.ctrl("u"));
    h.keys(keys.ctrl("x"));
    expect(await h.frame()).toMatch(/↑↓ blocks/);
    h.keys("y");
    expect(h.copied.at(-1)).toBe("Use:\n\n```sh\nnpm test\n```\n");
    h.keys("c");
    expect(h.copied.at(-1)).toBe("npm test");
    h.keys("k");
    h.keys("y");
    expect(h.copied.at(-1)).toBe("q");
  });

  it("searches the transcript and jumps between matches", async () => {
    h = await renderUi(80, 24);
    for (let i = 0; i < 5; i++) {
      h.emit({ type: "turn.started", ...ev, turnId: `turn-${i}`, prompt: i % 2 ? `needle ${i}` : `hay ${i}` });
      h.emit({
        type: "turn.completed",
        ...ev,
        turnId: `turn-${i}`,
        reason: "completed",
        response: "",
        steps: 1,
        usage: { prompt: 0, completion: 0 },
      });
    }
    h.keys(keys.ctrl("x"));
    h.keys("/needle\r");
    expect(await h.frame()).toMatch(/match 1 of 2 for "needle"/);
    h.keys("n");
    expect(await h.frame()).toMatch(/match 2 of 2/);
  });

  it("the task list renames, pins and deletes (after confirmation)", async () => {
    h = await renderUi(120, 40);
    h.keys(keys.ctrl("t"));
    h.keys("r");
    h.keys(`${keys.ctrl("u")}Renamed\r`);
    await h.frame();
    expect(h.sent.at(-1)).toEqual({ type: "task.update", taskId: "t0", title: "Renamed" });
    h.keys("p");
    expect(h.sent.at(-1)).toEqual({ type: "task.update", taskId: "t0", pinned: true });
    h.keys("x");
    expect(await h.frame()).toMatch(/Delete task "New task"/);
    h.keys("y");
    expect(h.sent.at(-1)).toEqual({ type: "task.delete", taskId: "t0" });
  });

  it("Alt-1..9 switch tasks; a task that needs approval elsewhere is flagged", async () => {
    h = await renderUi(120, 40);
    h.emit({ type: "task.updated", taskId: "t9", task: snapshot({ title: "second" }) });
    h.keys(keys.alt("2"));
    expect(h.store.getState().current).toBe("t9");
    h.emit({ type: "task.updated", taskId: "t0", task: snapshot({ status: "waiting", pendingApprovals: 1 }) });
    const frame = await h.frame();
    expect(frame).toMatch(/!1/);
    expect(frame.split("\n")[0]).toContain("1 approval");
    h.keys(keys.ctrl("y"));
    expect(h.store.getState().current).toBe("t0");
  });

  it("key bindings come from config", async () => {
    h = await renderUi(120, 40, { keys: { toggleTasks: "ctrl+x" } });
    h.keys(keys.ctrl("x"));
    expect(h.store.getState().ui.focus).toBe("tasks");
    h.keys(keys.esc);
    h.keys(keys.ctrl("t"));
    expect(h.store.getState().ui.focus).toBe("composer");
  });

  it("the palette lists commands and runs the chosen one", async () => {
    h = await renderUi(80, 24);
    h.keys(keys.ctrl("k"));
    h.keys("clear");
    expect(await h.frame()).toContain("/clear");
    h.keys("\r");
    await h.frame();
    expect(h.sent.at(-1)).toEqual({ type: "session.clear", taskId: "t0" });
  });

  it("the shortcut sheet lists every bound action", async () => {
    h = await renderUi(120, 40);
    h.keys("?");
    const frame = await h.frame();
    expect(frame).toContain("Keys and commands");
    expect(frame).toContain("Ctrl-K");
    expect(frame).toContain("command palette");
  });
});

describe("view helpers", () => {
  it("lays out the Files tab as a tree", async () => {
    const { fileTree } = await import("../../src/ui/view/panes.js");
    expect(fileTree(["README.md", "src/cli.ts", "src/ui/App.tsx", "src/ui/run.ts", "tests/a.test.ts"])).toEqual([
      "README.md",
      "src/",
      "  cli.ts",
      "  ui/",
      "    App.tsx",
      "    run.ts",
      "tests/",
      "  a.test.ts",
    ]);
  });
});

describe("results pane", () => {
  it("the Agents tab lists subagent.updated rows, updated in place", async () => {
    const h2 = await renderUi(120, 40);
    h2.keys(keys.ctrl("r"));
    for (let i = 0; i < 4; i++) h2.keys(keys.right);
    expect(await h2.frame()).toContain("[Agents]");
    h2.emit({
      type: "subagent.updated",
      taskId: "t0",
      row: {
        id: "agent-1",
        name: "reviewer",
        task: "review the diff",
        status: "running",
        durationMs: 10,
        preview: "",
        depth: 1,
        startedAt: null,
        endedAt: null,
        lastActivityAt: new Date().toISOString(),
        tool: null,
        usage: { prompt: 0, completion: 0 },
        files: [],
      },
    });
    let frame = await h2.frame();
    expect(frame).toMatch(/1 ● agent-1 reviewer/);
    // The selected child, marked as the harness draws without colour.
    expect(frame).toMatch(/│ › {5}review the diff/);
    h2.emit({
      type: "subagent.updated",
      taskId: "t0",
      row: {
        id: "agent-1",
        name: "reviewer",
        task: "review the diff",
        status: "done",
        durationMs: 900,
        preview: "ok",
        depth: 1,
        startedAt: null,
        endedAt: null,
        lastActivityAt: "2026-01-01T00:00:00Z",
        tool: null,
        usage: { prompt: 0, completion: 0 },
        files: [],
      },
    });
    frame = await h2.frame();
    // The side pane at 120 columns (28) has no room for the word "done": the glyph says it.
    expect(frame).toMatch(/1 ✓ agent-1 reviewer/);
    expect(frame).not.toMatch(/● agent-1/);
    h2.unmount();
  });
});

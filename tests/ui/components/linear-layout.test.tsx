// The screen-reader layout (LinearLayout) on its own with ink-testing-library at 40, 80 and 120
// columns: one pane at a time, no box drawing, words for states, a role first on each item, and
// the task list and results pane taking the transcript's place while toggled with Ctrl-T / Ctrl-R.
import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../../../src/ui/components/App.js";
import { AppContext } from "../../../src/ui/context/services.js";
import { KeyParser } from "../../../src/ui/input/keys.js";
import { visibleWidth } from "../../../src/ui/render/wrap.js";
import { markdownStyles } from "../../../src/ui/view/panes.js";
import { TranscriptRenderer } from "../../../src/ui/view/transcript-view.js";
import { createTestServices, snapshot } from "../harness.js";

const tick = () => new Promise((r) => setTimeout(r, 0));
// Box drawing (U+2500-U+257F) and the glyphs the other layouts use for states and gutters.
const BOX = /[\u2500-\u257f]/;
const GLYPHS = /[●✓✗⊘■▸▾›↳⏎⇄○⏸⚠]/;
const ev = { taskId: "t0" } as const;

/** The real App in screen-reader mode, as createServices sets it up for --screen-reader. */
function mountLinear(columns: number, rows: number) {
  const t = createTestServices(columns, rows);
  const services = {
    ...t.services,
    ascii: true,
    motion: false,
    renderer: new TranscriptRenderer(t.services.palette, markdownStyles(t.services.palette), true, true),
  };
  t.store.updateUi((ui) => ({ ...ui, screenReader: true }));
  const app = render(
    <AppContext.Provider value={services}>
      <App />
    </AppContext.Provider>,
  );
  const parser = new KeyParser();
  const keys = (bytes: string) => {
    for (const e of [...parser.feed(bytes), ...parser.flush()]) t.ctl.handle(e);
  };
  t.bus.emit({ type: "task.updated", taskId: "t0", task: snapshot() });
  const frame = async () => {
    for (let i = 0; i < 4; i++) await tick();
    return app.lastFrame() ?? "";
  };
  return { ...t, app, keys, frame };
}

let mounted: ReturnType<typeof mountLinear> | undefined;
afterEach(() => {
  mounted?.app.unmount();
  mounted = undefined;
});

/** A turn with a reply and a tool call, as the engine announces it. */
function turnWithTool(m: ReturnType<typeof mountLinear>, status: "running" | "done") {
  m.bus.emit({
    type: "task.updated",
    ...ev,
    task: snapshot({ status: status === "running" ? "running" : "done", title: "build it" }),
  });
  m.bus.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "please build it" });
  m.bus.emit({ type: "assistant.delta", ...ev, text: "Running the **build** now." });
  m.bus.emit({ type: "assistant.completed", ...ev, text: "Running the **build** now.", toolCalls: 1 });
  m.bus.emit({
    type: "tool.started",
    ...ev,
    callId: "c1",
    name: "run_command",
    kind: "exec",
    args: { command: "npm run build" },
    summary: "npm run build",
  });
  if (status === "done") {
    m.bus.emit({
      type: "tool.completed",
      ...ev,
      callId: "c1",
      name: "run_command",
      status: "ok",
      forModel: "$ npm run build\nexit code 0",
      display: "exit 0",
      durationMs: 1200,
    });
  }
}

describe.each([40, 80, 120])("LinearLayout at %i columns", (columns) => {
  const rows = 24;

  it("draws the transcript alone: roles first on their own lines, words for states, no box drawing or glyphs", async () => {
    mounted = mountLinear(columns, rows);
    turnWithTool(mounted, "running");
    let frame = await mounted.frame();
    let lines = frame.split("\n");
    expect(lines).toHaveLength(rows - 1);
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(columns);
    expect(frame).not.toMatch(BOX);
    expect(frame).not.toMatch(GLYPHS);
    expect(lines.some((l) => l.startsWith("You: please build it"))).toBe(true);
    expect(lines.some((l) => l.startsWith("Assistant: Running the build now."))).toBe(true);
    expect(lines.some((l) => /^Tool run_command: running/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith("npm run build"))).toBe(true);
    // Each item after a blank line: a reader hears where one ends.
    const you = lines.findIndex((l) => l.startsWith("You:"));
    expect(lines[you - 1]!.trim()).toBe("");
    // One pane: neither the task list nor the results pane is beside the transcript.
    expect(frame).not.toContain("Tasks:");
    expect(frame).not.toContain("[Changes");
    mounted.bus.emit({
      type: "tool.completed",
      ...ev,
      callId: "c1",
      name: "run_command",
      status: "ok",
      forModel: "$ npm run build\nexit code 0",
      display: "exit 0",
      durationMs: 1200,
    });
    frame = await mounted.frame();
    lines = frame.split("\n");
    expect(lines.some((l) => /^Tool run_command: done, 1\.2s/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith("Result: exit 0"))).toBe(true);
    expect(frame).not.toMatch(GLYPHS);
  });

  it("shows the task list in place of the transcript while toggled with Ctrl-T, in words", async () => {
    mounted = mountLinear(columns, rows);
    turnWithTool(mounted, "done");
    mounted.bus.emit({
      type: "task.updated",
      taskId: "t1",
      task: snapshot({ title: "second task", status: "failed" }),
    });
    expect(await mounted.frame()).toContain("You: please build it");
    mounted.keys("\x14");
    const frame = await mounted.frame();
    expect(frame).toContain("Tasks: 2");
    expect(frame).not.toContain("You: please build it");
    expect(frame).not.toMatch(BOX);
    expect(frame).not.toMatch(GLYPHS);
    const lines = frame.split("\n");
    // Titles are truncated at 40 columns: the state word is asserted where it fits.
    if (columns >= 80) {
      expect(lines.some((l) => /^> 1\. build it, done, open/.test(l))).toBe(true);
      expect(lines.some((l) => /^ {2}2\. second task, failed/.test(l))).toBe(true);
    } else expect(lines.some((l) => l.startsWith("> 1. build it"))).toBe(true);
    mounted.keys("\x14");
    const back = await mounted.frame();
    expect(back).toContain("You: please build it");
    expect(back).not.toContain("Tasks: 2");
  });

  it("shows the results pane in place of the transcript while focused (Ctrl-R), without its border", async () => {
    mounted = mountLinear(columns, rows);
    turnWithTool(mounted, "done");
    mounted.keys("\x12");
    const frame = await mounted.frame();
    expect(frame).toContain("[Changes");
    expect(frame).not.toContain("You: please build it");
    expect(frame).not.toMatch(BOX);
    expect(frame).not.toContain("|");
    // Esc hands focus back to the composer: the transcript is the pane again.
    mounted.keys("\x1b");
    const back = await mounted.frame();
    expect(back).toContain("You: please build it");
    expect(back).not.toContain("[Changes");
  });

  it("draws a reply's Markdown table and an open dialog without box drawing", async () => {
    mounted = mountLinear(columns, rows);
    mounted.bus.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "a table" });
    mounted.bus.emit({ type: "assistant.delta", ...ev, text: "| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\n- item\n" });
    mounted.bus.emit({
      type: "assistant.completed",
      ...ev,
      text: "| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\n- item\n",
      toolCalls: 0,
    });
    let frame = await mounted.frame();
    expect(frame).toMatch(/\| 1 +\| 2 +\|/);
    expect(frame).not.toMatch(BOX);
    mounted.keys("\x0b");
    frame = await mounted.frame();
    expect(mounted.store.getState().ui.dialog).not.toBeNull();
    expect(frame).not.toMatch(BOX);
    expect(frame).not.toMatch(GLYPHS);
  });

  it("asks for approval in sentences, without a bordered card, and y answers", async () => {
    mounted = mountLinear(columns, rows);
    mounted.bus.emit({ type: "task.updated", ...ev, task: snapshot({ status: "waiting", pendingApprovals: 1 }) });
    mounted.bus.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "clean up" });
    mounted.bus.emit({
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
    const frame = await mounted.frame();
    const lines = frame.split("\n");
    expect(frame).not.toMatch(BOX);
    expect(frame).not.toMatch(GLYPHS);
    expect(lines.some((l) => l.startsWith("Approval needed: Run: rm -rf build"))).toBe(true);
    expect(lines.some((l) => l.startsWith("Keys: y once"))).toBe(true);
    expect(lines.some((l) => l.startsWith("Approval waiting: Run: rm -rf build"))).toBe(true);
    mounted.later();
    mounted.keys("y");
    expect(mounted.sent.at(-1)).toEqual({ type: "approval.reply", taskId: "t0", requestId: "r1", decision: "once" });
  });
});

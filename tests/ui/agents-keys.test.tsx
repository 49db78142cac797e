// Keys of the subagent board: digits and Enter open a child's live transcript, x stops a child
// (asking first), Esc never stops the task, a child's approval is reached and answered.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { builtinTheme } from "../../src/ui/theme/load.js";
import { makePalette } from "../../src/ui/theme/palette.js";
import { helpLines } from "../../src/ui/dialogs/help.js";
import { board, ctrl, esc, fanOut, openAgentsTab, row, T0 } from "./agents-fixtures.js";
import { renderUi, snapshot, type Harness } from "./harness.js";

let h: Harness | undefined;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  h?.unmount();
  h = undefined;
  vi.useRealTimers();
});

describe("opening and stopping a child", () => {
  it("digits select, Enter opens its transcript, which streams live; Esc closes it", async () => {
    h = await renderUi(120, 40);
    fanOut(h);
    await openAgentsTab(h);
    h.keys("3");
    expect(h.store.getState().ui.resultsIndex).toBe(2);
    h.keys("1");
    h.keys("\r");
    const ev = { taskId: "t0", agentId: "agent-1" };
    h.emit({ type: "turn.started", ...ev, turnId: "c1", prompt: "fix the failing parser tests" });
    h.emit({ type: "assistant.delta", ...ev, text: "Looking at the **parser**" });
    let frame = await h.frame();
    expect(frame).toMatch(/agent-1 worker · ● running · 1m05s · 3\.2k tok/);
    expect(frame).toContain("› fix the failing parser tests");
    expect(frame).toContain("Looking at the parser");
    expect(frame).toMatch(/Esc close · x stop/);
    h.emit({ type: "assistant.delta", ...ev, text: " and the lexer." });
    h.emit({
      type: "tool.started",
      ...ev,
      callId: "x1",
      name: "run_command",
      kind: "exec",
      args: { command: "npm test" },
      summary: "npm test",
    });
    frame = await h.frame();
    expect(frame).toContain("Looking at the parser and the lexer.");
    expect(frame).toMatch(/● run_command npm test/);
    // The parent's transcript did not get any of it.
    expect(h.store.getState().transcripts.t0!.blocks.map((b) => b.kind)).toEqual(["user", "approval"]);
    h.keys("2");
    expect(await h.frame()).toMatch(/agent-2 worker · ! needs approval/);
    h.keys(esc);
    frame = await h.frame();
    expect(h.store.getState().ui.dialog).toBeNull();
    expect(frame).toContain("› fan out six workers");
  });

  it("scrolls a long child transcript and follows again at the end", async () => {
    h = await renderUi(80, 24);
    h.emit(board(row("agent-1")));
    const ev = { taskId: "t0", agentId: "agent-1" };
    h.emit({ type: "turn.started", ...ev, turnId: "c1", prompt: "count" });
    h.emit({
      type: "assistant.delta",
      ...ev,
      text: Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join("\n\n"),
    });
    await openAgentsTab(h);
    h.keys("\r");
    expect(await h.frame()).toContain("line 60");
    h.keys("\x1b[H"); // Home
    let frame = await h.frame();
    expect(frame).toContain("› count");
    expect(frame).toContain("↓ more below");
    h.keys("\x1b[6~"); // PgDn
    expect(await h.frame()).not.toContain("› count");
    h.keys("\x1b[F"); // End
    frame = await h.frame();
    expect(frame).toContain("line 60");
    expect(frame).not.toContain("more below");
  });

  it("x asks first, then y sends subagent.stop; f stops it now; a finished child is not asked about", async () => {
    h = await renderUi(80, 24);
    fanOut(h);
    await openAgentsTab(h);
    h.keys("x");
    expect(await h.frame()).toMatch(/Stop agent-1 \(worker\) at its next step\?/);
    expect(h.sent.some((c) => c.type === "subagent.stop")).toBe(false);
    h.keys("y");
    expect(h.sent.at(-1)).toEqual({ type: "subagent.stop", taskId: "t0", agentId: "agent-1" });
    h.keys("5");
    h.keys("x");
    expect(await h.frame()).toMatch(/It is queued and will not start/);
    h.keys("n");
    expect(h.sent.at(-1)).toEqual({ type: "subagent.stop", taskId: "t0", agentId: "agent-1" });
    // From the child's view, and back to it afterwards.
    h.keys("3");
    h.keys("\r");
    h.keys("x");
    h.keys("f");
    expect(h.sent.at(-1)).toEqual({ type: "subagent.stop", taskId: "t0", agentId: "agent-3", force: true });
    expect(h.store.getState().ui.dialog).toMatchObject({ kind: "agent", agentId: "agent-3" });
    h.keys(esc);
    h.keys("4");
    h.keys("x");
    expect(await h.frame()).toMatch(/agent-4 has already finished/);
  });

  it("Esc on the board goes back to the input without stopping the task", async () => {
    h = await renderUi(50, 20);
    fanOut(h);
    await openAgentsTab(h);
    h.keys(esc);
    expect(h.sent.some((c) => c.type === "turn.interrupt")).toBe(false);
    expect(h.store.getState().ui).toMatchObject({ focus: "composer", resultsOpen: false });
    expect(await h.frame()).toContain("› fan out six workers");
  });
});

describe("a child's approval", () => {
  it("is reached from the board with Ctrl-Y; the card names the agent", async () => {
    h = await renderUi(80, 24);
    fanOut(h);
    h.emit({
      type: "task.updated",
      taskId: "t0",
      task: snapshot({ title: "fan out", status: "waiting", pendingApprovals: 1 }),
    });
    await openAgentsTab(h);
    expect((await h.lines())[0]).toContain("1 approval");
    h.keys(ctrl("y"));
    const frame = await h.frame();
    expect(h.store.getState().ui).toMatchObject({ focus: "composer", resultsOpen: false });
    expect(frame).toMatch(/Approval needed \(asked by agent-2 worker\)/);
    expect(frame).toMatch(/│ write CHANGELOG\.md/);
    h.keys("y");
    expect(h.sent.at(-1)).toEqual({ type: "approval.reply", taskId: "t0", requestId: "r1", decision: "once" });
  });

  it("is answered from the child's view", async () => {
    h = await renderUi(120, 40);
    fanOut(h);
    await openAgentsTab(h);
    h.keys("2");
    h.keys("\r");
    expect(await h.frame()).toMatch(/Approval needed \(asked by agent-2 worker\)/);
    h.keys("n");
    expect(h.sent.at(-1)).toEqual({
      type: "approval.reply",
      taskId: "t0",
      requestId: "r1",
      decision: "deny",
      stop: true,
    });
    h.keys("d");
    expect(await h.frame()).toContain("Deny with a note");
    h.keys("not now\r");
    await h.frame();
    expect(h.sent.at(-1)).toEqual({
      type: "approval.reply",
      taskId: "t0",
      requestId: "r1",
      decision: "deny",
      note: "not now",
    });
    expect(h.store.getState().ui.dialog).toMatchObject({ kind: "agent", agentId: "agent-2" });
  });
});

describe("the shortcut sheet", () => {
  it("lists the board's keys and the subagent view", async () => {
    h = await renderUi(120, 40);
    const sheet = helpLines(h.ctl, makePalette(builtinTheme("dark"), 0), 100).join("\n");
    expect(sheet).toMatch(/1-9 +select item 1-9 of the results list/);
    expect(sheet).toMatch(/x +Agents tab and subagent view: stop the subagent/);
    expect(sheet).toContain("Subagent view (Enter on the Agents tab)");
    expect(sheet).toMatch(/Up k Down j +scroll a line/);
  });
});

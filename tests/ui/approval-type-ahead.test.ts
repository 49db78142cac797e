// Type-ahead never answers an approval (issue 25): a key that arrives before the card has been on
// screen for 400 ms, or while the input holds text typed in the last second, goes to the input and
// is kept there; after that the card takes it. The clock is the controller's, set by the test.
import { describe, expect, it } from "vitest";
import { CARD_GUARD_MS, TYPING_GUARD_MS } from "../../src/ui/controller/approval-guard.js";
import { editorText } from "../../src/ui/input/editor.js";
import { KeyParser } from "../../src/ui/input/keys.js";
import { selectTranscript, transcriptFrame } from "../../src/ui/panes/transcript-pane.js";
import { createTestServices, snapshot } from "./harness.js";

const ev = { taskId: "t0" };

/** A task whose turn waits on one approval, and a clock that starts at 0 ms. */
function waiting(columns = 80, rows = 24) {
  let time = 0;
  const t = createTestServices(columns, rows, { now: () => time });
  const parser = new KeyParser();
  const tick = () => new Promise((r) => setTimeout(r, 0));
  t.bus.emit({ type: "task.updated", ...ev, task: snapshot() });
  t.bus.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "tidy up" });
  return {
    ...t,
    at: (ms: number) => void (time = ms),
    keys: (bytes: string) => {
      for (const e of [...parser.feed(bytes), ...parser.flush()]) t.ctl.handle(e);
    },
    /** The card comes: the approval arrives and the store settles the frame that draws it. */
    card: async (requestId = "r1") => {
      t.bus.emit({
        type: "approval.requested",
        ...ev,
        requestId,
        callId: `c-${requestId}`,
        tool: "run_command",
        kind: "exec",
        title: "Run: rm -rf build",
        detail: "rm -rf build",
        reason: "on-request policy",
      });
      await tick();
    },
    replies: () => t.sent.filter((c) => c.type === "approval.reply"),
    input: () => editorText(t.store.getState().ui.composer),
  };
}

describe("type-ahead and the approval card", () => {
  it("a key 100 ms after the card goes to the input; one at 500 ms (input empty) answers", async () => {
    const w = waiting();
    await w.card();
    w.at(100);
    w.keys("y");
    expect(w.replies()).toEqual([]);
    expect(w.input()).toBe("y");
    // The input is cleared (as after sending it): the card alone decides.
    w.keys("\x7f");
    w.at(500);
    w.keys("y");
    expect(w.replies()).toEqual([{ type: "approval.reply", ...ev, requestId: "r1", decision: "once" }]);
  });

  it("a key at 500 ms answers when nothing was typed", async () => {
    const w = waiting();
    await w.card();
    w.at(CARD_GUARD_MS + 100);
    w.keys("n");
    expect(w.replies()).toEqual([{ type: "approval.reply", ...ev, requestId: "r1", decision: "deny", stop: true }]);
    expect(w.input()).toBe("");
  });

  it("every key of a phrase typed across the card's arrival lands in the input, in order", async () => {
    const w = waiting();
    w.keys("yes");
    await w.card();
    w.at(20);
    w.keys(" do a");
    w.at(CARD_GUARD_MS + 300);
    w.keys("nd"); // the card is old enough, but the typing goes on
    expect(w.replies()).toEqual([]);
    expect(w.input()).toBe("yes do and");
    // Space and Enter would open the full text: typing, they stay in the input too.
    expect(w.store.getState().ui.dialog).toBeNull();
  });

  it("a key while the input holds text typed 0.5 s ago goes to the input", async () => {
    const w = waiting();
    await w.card();
    // The card has been up for a while; "p" is no answer, and the "d" of "do" comes mid-typing.
    w.at(1500);
    w.keys("please do it");
    w.at(2000);
    w.keys("y");
    expect(w.replies()).toEqual([]);
    expect(w.input()).toBe("please do ity");
  });

  it("answers when the input's text was typed 2 s ago and the card was shown long ago", async () => {
    const w = waiting();
    w.keys("yes do it");
    await w.card();
    w.at(2000);
    w.keys("y");
    expect(w.replies()).toEqual([{ type: "approval.reply", ...ev, requestId: "r1", decision: "once" }]);
    // The typed text is still there for after the answer.
    expect(w.input()).toBe("yes do it");
  });

  it("does not count a card that was never drawn: the key that comes with it is typing", () => {
    const w = waiting();
    w.at(5000);
    // No settle between the event and the key (both in one turn of the event loop).
    w.bus.emit({
      type: "approval.requested",
      ...ev,
      requestId: "r1",
      callId: "c1",
      tool: "run_command",
      kind: "exec",
      title: "Run: ls",
      detail: "ls",
      reason: "policy",
    });
    w.keys("y");
    expect(w.replies()).toEqual([]);
    expect(w.input()).toBe("y");
  });

  it("a card hidden and shown again (browse mode) keeps its time on screen", async () => {
    const w = waiting();
    await w.card();
    w.at(1000);
    w.keys("\x18"); // Ctrl-X: browse mode, the card is off screen
    await new Promise((r) => setTimeout(r, 0));
    w.keys("\x1b");
    expect(w.store.getState().ui.focus).toBe("composer");
    w.keys("y");
    expect(w.replies()).toHaveLength(1);
  });

  it("the next card starts its own time: a second y right after the first is typing", async () => {
    const w = waiting();
    await w.card("r1");
    w.at(1000);
    w.keys("y");
    w.bus.emit({ type: "approval.resolved", ...ev, requestId: "r1", decision: "once" });
    await w.card("r2");
    w.at(1100);
    w.keys("y");
    expect(w.replies().map((r) => r.type === "approval.reply" && r.requestId)).toEqual(["r1"]);
    expect(w.input()).toBe("y");
    w.at(1100 + TYPING_GUARD_MS);
    w.keys("y");
    expect(w.replies().map((r) => r.type === "approval.reply" && r.requestId)).toEqual(["r1", "r2"]);
  });

  it("Ctrl-Y is deliberate: the card it brings answers the next key at once", async () => {
    const w = waiting();
    w.bus.emit({ type: "task.updated", taskId: "t1", task: snapshot({ title: "other" }) });
    w.ctl.selectTask("t1");
    await w.card();
    w.bus.emit({ type: "task.updated", ...ev, task: snapshot({ status: "waiting", pendingApprovals: 1 }) });
    w.at(3000);
    w.keys("\x19"); // Ctrl-Y
    await new Promise((r) => setTimeout(r, 0));
    w.at(3050);
    w.keys("y");
    expect(w.replies()).toEqual([{ type: "approval.reply", ...ev, requestId: "r1", decision: "once" }]);
  });
});

describe.each([50, 80, 120])("the card with type-ahead kept, %i columns wide", (width) => {
  it("shows the kept text on one line under the card, which still says how to answer", async () => {
    const w = waiting(width, 24);
    await w.card();
    w.at(100);
    w.keys("yes do it, and then run the whole test suite again please");
    await new Promise((r) => setTimeout(r, 0));
    const s = w.store.getView();
    const lines = transcriptFrame(selectTranscript(s), w.services, width, 22).lines;
    expect(lines).toHaveLength(22);
    expect(Math.max(...lines.map((l) => [...l].length))).toBe(width);
    const top = lines.findIndex((l) => l.includes("Approval needed"));
    expect(top).toBeGreaterThan(0);
    expect(lines.slice(top, -1).join("\n")).toMatch(/y once/);
    expect(lines.at(-2)).toMatch(/^╰─+╯$/);
    expect(lines.at(-1)).toMatch(/^› yes do it, and then/);
    expect(s.ui.status?.text).toBe("typed into the input; pause, then y once · n deny");
  });
});

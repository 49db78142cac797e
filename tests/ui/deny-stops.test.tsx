// Deny means stop (issue 28, item 4): n denies and stops the turn at its step boundary (the reply
// carries stop: true) and says to tell it what to do instead; d denies with a note and goes on.
import { afterEach, describe, expect, it } from "vitest";
import { renderUi, snapshot, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const ev = { taskId: "t0" };

async function withCard(): Promise<Harness> {
  const harness = await renderUi(80, 24);
  harness.emit({ type: "task.updated", ...ev, task: snapshot({ status: "waiting", pendingApprovals: 1 }) });
  harness.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "clean up" });
  harness.emit({
    type: "approval.requested",
    ...ev,
    requestId: "r1",
    callId: "c1",
    tool: "run_command",
    kind: "exec",
    title: "Run: git push --force",
    detail: "git push --force",
    reason: "dangerous: force push",
  });
  await harness.frame();
  harness.later();
  return harness;
}

describe("deny means stop", () => {
  it("n denies and stops the turn, and says so", async () => {
    h = await withCard();
    expect(await h.frame()).toMatch(/n deny and stop/);
    h.keys("n");
    expect(h.sent.at(-1)).toEqual({
      type: "approval.reply",
      taskId: "t0",
      requestId: "r1",
      decision: "deny",
      stop: true,
    });
    expect(await h.frame()).toMatch(/denied and stopped: say what to do instead/);
  });

  it("d denies with a note and lets the turn go on", async () => {
    h = await withCard();
    h.keys("d");
    expect(await h.frame()).toContain("Deny with a note");
    h.keys("use a normal push\r");
    await h.frame();
    expect(h.sent.at(-1)).toEqual({
      type: "approval.reply",
      taskId: "t0",
      requestId: "r1",
      decision: "deny",
      note: "use a normal push",
    });
  });
});

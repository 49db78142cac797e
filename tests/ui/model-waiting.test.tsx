// The task bar says when the open model request has sent nothing, and for how long, at 40, 80 and
// 120 columns; the mark goes as soon as content arrives.
import { afterEach, describe, expect, it } from "vitest";
import { renderUi, snapshot, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const ev = { taskId: "t0" };

describe.each([
  [40, 12],
  [80, 24],
  [120, 40],
])("at %ix%i", (columns, rows) => {
  it("shows the wait in the task bar and drops it when text streams", async () => {
    h = await renderUi(columns, rows);
    h.emit({ type: "task.updated", ...ev, task: snapshot({ status: "running" }) });
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "go" });
    h.emit({
      type: "model.waiting",
      ...ev,
      model: "m",
      idleMs: 45_000,
      elapsedMs: 45_000,
      idleLimitMs: 300_000,
      deadlineMs: 600_000,
    });
    const frame = await h.frame();
    expect(frame).toMatch(columns >= 80 ? /waiting for the model 4[5-9]s/ : /model 4[5-9]s/);
    h.emit({ type: "assistant.delta", ...ev, text: "here it comes" });
    const after = await h.frame();
    expect(after).not.toMatch(/model 4\ds/);
    expect(after).toContain("here it comes");
  });
});

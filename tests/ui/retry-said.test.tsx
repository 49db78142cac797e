// A retry is said in the transcript (issue 28, polish): the model failing and the request going
// out again happened silently, so the pause read as a hang. Each retry leaves one line, which
// attempt comes of how many and when; the step's text streamed before it is dropped as before.
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
  it("says each retry: attempt, of how many, when, and why", async () => {
    h = await renderUi(columns, rows);
    h.emit({ type: "task.updated", ...ev, task: snapshot({ status: "running" }) });
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "go" });
    h.emit({ type: "assistant.delta", ...ev, text: "half an ans" });
    const retry = { type: "model.retrying", ...ev, model: "m", status: 503, error: "503 overloaded" } as const;
    h.emit({ ...retry, attempt: 1, attempts: 3, delayMs: 1000 });
    let frame = await h.frame();
    expect(frame.replace(/\n/g, " ")).toMatch(/retrying, attempt 2 of 3 in 1\.0 s: 503/);
    expect(frame).not.toContain("half an ans");
    h.emit({ ...retry, attempt: 2, attempts: 3, delayMs: 2000 });
    frame = await h.frame();
    expect(frame.replace(/\n/g, " ")).toMatch(/retrying, attempt 3 of 3 in 2\.0 s/);
    h.emit({ type: "assistant.delta", ...ev, text: "the answer" });
    expect(await h.frame()).toContain("the answer");
  });
});

// Ctrl-C never quits by accident (issue 28, item 1): presses that stop or kill a turn do not count
// toward exit; while a second press would quit the status line says so; quitting with other tasks
// running or background jobs alive asks first; a stop pauses the queue, visibly.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../helpers/pty.js";
import { renderUi, snapshot, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const ev = { taskId: "t0" };
const ended = {
  type: "turn.completed",
  ...ev,
  turnId: "turn-1",
  reason: "interrupted",
  response: "",
  steps: 1,
  usage: { prompt: 1, completion: 1 },
} as const;

describe("the Ctrl-C contract", () => {
  it("stop, kill, then Ctrl-C just after the turn ends warns instead of quitting", async () => {
    h = await renderUi(80, 24);
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "go" });
    h.keys(keys.ctrl("c"));
    h.keys(keys.ctrl("c"));
    expect(h.sent.at(-1)).toEqual({ type: "turn.interrupt", taskId: "t0", force: true });
    h.emit(ended);
    h.keys(keys.ctrl("c"));
    expect(h.exits).toBe(0);
    expect(await h.frame()).toMatch(/press Ctrl-C again within 2 s to exit/);
    h.keys(keys.ctrl("c"));
    expect(h.exits).toBe(1);
  });

  it("keeps the exit warning on the status line over other messages, and any other key disarms it", async () => {
    h = await renderUi(80, 24);
    h.keys(keys.ctrl("c"));
    h.ctl.status("something else happened");
    expect(await h.frame()).toMatch(/press Ctrl-C again within 2 s to exit/);
    h.keys("x");
    h.keys(keys.ctrl("u"));
    expect(await h.frame()).not.toMatch(/again within 2 s to exit/);
    h.keys(keys.ctrl("c"));
    expect(h.exits).toBe(0);
  });

  it("asks before quitting while another task runs or a background job lives", async () => {
    h = await renderUi(80, 24);
    h.emit({ type: "task.updated", taskId: "t9", task: snapshot({ title: "long build", status: "running" }) });
    h.emit({ type: "turn.started", taskId: "t9", turnId: "turn-9", prompt: "build" });
    h.keys(keys.ctrl("c"));
    h.keys(keys.ctrl("c"));
    expect(h.exits).toBe(0);
    const frame = await h.frame();
    expect(frame).toMatch(/Quit\? 1 task is still running \(long build\)/);
    h.keys("n");
    expect(h.exits).toBe(0);
    h.emit({
      type: "background.updated",
      ...ev,
      job: { id: "j1", command: "npm run dev", state: "running", exitCode: null, lastLine: "", startedAt: "" },
    });
    h.keys("/quit\r");
    expect(await h.frame()).toMatch(/Quit\?/);
    expect(h.ctl.ui.dialog).toMatchObject({
      kind: "confirm",
      title: expect.stringMatching(/1 background job is still running/),
    });
    h.keys("y");
    expect(h.exits).toBe(1);
  });

  it("a stop pauses the queue: the text waits on screen and Enter on an empty input sends it on", async () => {
    h = await renderUi(80, 24);
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "go" });
    h.emit({ type: "queue.updated", ...ev, items: [{ id: "q1", text: "then write docs", mode: "queue" }] });
    h.keys(keys.ctrl("c"));
    h.emit(ended);
    h.emit({
      type: "queue.updated",
      ...ev,
      items: [{ id: "q1", text: "then write docs", mode: "queue" }],
      paused: true,
    });
    const frame = await h.frame();
    expect(frame).toContain("then write docs");
    expect(frame).toMatch(/queue paused/);
    h.keys("\r");
    expect(h.sent.at(-1)).toEqual({ type: "user.submit", taskId: "t0", text: "", resume: true });
  });
});

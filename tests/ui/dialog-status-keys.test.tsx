// The status line under a dialog says the dialog's keys (issue 28, polish): inside /rewind and
// /permissions it said the composer's ("Enter send · Ctrl-J newline ..."), keys the dialog had
// taken over. It now says the open dialog's own, for /rewind the step it is at.
import { afterEach, describe, expect, it } from "vitest";
import { renderUi, type Harness, until } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

function oneTurn(x: Harness): void {
  x.emit({
    type: "session.started",
    taskId: "t0",
    sessionId: "s1",
    sessionFile: "/home/u/.nanohermes/sessions/s1.json",
    workspace: "/work/demo",
    model: "mock-model",
    resumed: false,
    messages: 0,
  });
  x.emit({ type: "turn.started", taskId: "t0", turnId: "u1", prompt: "write the notes" });
  x.emit({ type: "assistant.completed", taskId: "t0", text: "done", toolCalls: 0 });
  x.emit({
    type: "turn.completed",
    taskId: "t0",
    turnId: "u1",
    reason: "completed",
    response: "done",
    steps: 1,
    usage: { prompt: 1, completion: 1 },
  });
  x.emit({
    type: "checkpoints.updated",
    taskId: "t0",
    turns: [
      {
        turn: 1,
        prompt: "write the notes",
        changes: [{ path: "/work/demo/notes.txt", before: "absent", after: "present", by: "write_file" }],
      },
    ],
  });
}

const statusOf = (frame: string) => frame.split("\n").at(-1) ?? "";

describe.each([
  [50, 20],
  [80, 24],
  [120, 40],
])("the status line under a dialog at %ix%i", (columns, rows) => {
  it("/rewind: the turn list's keys, then the restore choice's", async () => {
    h = await renderUi(columns, rows);
    oneTurn(h);
    expect(statusOf(await h.frame())).toMatch(/Enter send/);
    h.keys("/rewind\r");
    let frame = await until(h, (f) => f.includes("Rewind: go back to before a turn"));
    expect(statusOf(frame)).toMatch(/↑↓ .*Enter.*Esc close/);
    expect(statusOf(frame)).not.toMatch(/Enter send|Ctrl-J newline/);
    h.keys("\r");
    frame = await until(h, (f) => f.includes("Rewind to before turn 1"));
    expect(statusOf(frame)).toMatch(/f .*c .*b .*Esc back/);
    expect(statusOf(frame)).not.toMatch(/Enter send/);
  });

  it("/permissions: its list's keys", async () => {
    h = await renderUi(columns, rows);
    h.keys("/permissions\r");
    const frame = await until(h, (f) => f.includes('Allowed by "always"'));
    expect(statusOf(frame)).toMatch(/x remove · Esc close/);
    expect(statusOf(frame)).not.toMatch(/Enter send|Ctrl-J newline/);
  });
});

// /rewind on its own: the task's turns newest first, each with the files it changed (two rows a
// turn, the selected one whole in view); Enter asks what to restore (↓ moves through the choices,
// Enter takes the highlighted one, Esc steps back), and the rewind goes to the engine.
import { afterEach, describe, expect, it } from "vitest";
import type { BusEvent } from "../../../src/protocol/events.js";
import { keys } from "../../helpers/pty.js";
import { mountDialog, type MountedDialog, widths } from "./mount-dialog.js";

let m: MountedDialog | undefined;
afterEach(() => {
  m?.app.unmount();
  m = undefined;
});

const WS = "/work/demo";

function feed(emit: (e: BusEvent) => void): void {
  emit({
    type: "session.started",
    taskId: "t0",
    sessionId: "s1",
    sessionFile: "/s/s1.json",
    workspace: WS,
    model: "mock-model",
    resumed: false,
    messages: 0,
  });
  for (const [n, prompt] of [
    [1, "write the notes"],
    [2, "say hi"],
    [3, "change the notes"],
  ] as const) {
    emit({ type: "turn.started", taskId: "t0", turnId: `u${n}`, prompt });
    emit({ type: "assistant.completed", taskId: "t0", text: `done ${n}`, toolCalls: 0 });
    emit({
      type: "turn.completed",
      taskId: "t0",
      turnId: `u${n}`,
      reason: "completed",
      response: `done ${n}`,
      steps: 1,
      usage: { prompt: 1, completion: 1 },
    });
  }
  emit({
    type: "checkpoints.updated",
    taskId: "t0",
    turns: [
      {
        turn: 1,
        prompt: "write the notes",
        changes: [{ path: `${WS}/notes.txt`, before: "absent", after: "present", by: "write_file" }],
      },
      {
        turn: 3,
        prompt: "change the notes",
        changes: [{ path: `${WS}/notes.txt`, before: "kept", after: "present", by: "run_command" }],
      },
    ],
  });
}

describe.each(widths)("/rewind at %i columns", (columns) => {
  it("lists the turns, asks what to restore for the chosen one, and rewinds", async () => {
    m = mountDialog(columns);
    feed((e) => m!.bus.emit(e));
    m.type("/rewind\r");
    let rows = await m.rows();
    expect(rows[0]).toMatch(/^Rewind: go back to before a turn/);
    expect(rows[1]).toContain("3 turns, newest first");
    const first = rows.findIndex((r) => r.includes("change the notes"));
    expect(rows[first]).toMatch(/^ › 3 {2}change the notes +1 file$/);
    expect(rows[first + 1]).toMatch(/^ {6}notes\.txt/);
    m.type(keys.down);
    rows = await m.rows();
    expect(rows.find((r) => r.includes("say hi"))).toMatch(/^ › 2 {2}say hi +no files$/);
    m.type(keys.end);
    m.type(keys.enter);
    rows = await m.rows();
    expect(m.dialog()).toMatchObject({ kind: "rewind", pick: { turn: 1, what: "both" } });
    expect(rows[0]).toMatch(/^Rewind to before turn 1/);
    expect(rows.find((r) => r.includes("Both"))).toMatch(/^ › b {2}Both/);
    m.type(keys.up);
    rows = await m.rows();
    expect(rows.find((r) => r.includes("Conversation only"))).toMatch(/^ › c {2}Conversation only/);
    m.type(keys.esc);
    await m.frame();
    expect(m.dialog()).toMatchObject({ kind: "rewind", pick: null, index: 2 });
    m.type(keys.enter);
    m.type("f");
    await m.frame();
    expect(m.dialog()).toBeNull();
    expect(m.sent).toContainEqual({ type: "session.rewind", taskId: "t0", turn: 1, what: "files" });
  });

  it("says there is nothing to rewind before the first turn", async () => {
    m = mountDialog(columns);
    m.type("/rewind\r");
    const rows = await m.rows();
    expect(rows[0]).toMatch(/^Rewind/);
    expect(rows[1]).toContain("No turns yet");
  });
});

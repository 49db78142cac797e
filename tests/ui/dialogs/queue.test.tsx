// The pending messages on their own (Ctrl-E on an empty input): each with steer or queue, ↓
// selects, m switches the mode, K moves it up, x drops it; the changes go to the engine.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../../helpers/pty.js";
import { mountDialog, type MountedDialog, widths } from "./mount-dialog.js";

let m: MountedDialog | undefined;
afterEach(() => {
  m?.app.unmount();
  m = undefined;
});

const items = [
  { id: "q1", text: "also update the docs", mode: "steer" as const },
  { id: "q2", text: "then run the linter", mode: "queue" as const },
];

describe.each(widths)("the queue editor at %i columns", (columns) => {
  it("lists the items and edits them with keys", async () => {
    m = mountDialog(columns);
    m.bus.emit({ type: "queue.updated", taskId: "t0", items });
    m.type(keys.ctrl("e"));
    let rows = await m.rows();
    expect(rows[0]).toMatch(/^Pending messages/);
    expect(rows[1]).toMatch(/^ › steer also update/);
    expect(rows[2]).toMatch(/^ {3}queue then run/);
    m.type(keys.down);
    rows = await m.rows();
    expect(rows[2]).toMatch(/^ › queue then run/);
    m.type("m");
    await m.frame();
    expect(m.sent.at(-1)).toEqual({
      type: "queue.update",
      taskId: "t0",
      items: [items[0], { ...items[1], mode: "steer" }],
    });
    m.type("K");
    await m.frame();
    expect(m.sent.at(-1)).toEqual({ type: "queue.update", taskId: "t0", items: [items[1], items[0]] });
    expect(m.dialog()).toEqual({ kind: "queue", index: 0 });
    m.type("x");
    await m.frame();
    expect(m.sent.at(-1)).toEqual({ type: "queue.update", taskId: "t0", items: [items[1]] });
  });

  it("e takes the item into the input to edit", async () => {
    m = mountDialog(columns);
    m.bus.emit({ type: "queue.updated", taskId: "t0", items });
    m.type(keys.ctrl("e"));
    await m.frame();
    m.type("e");
    await m.frame();
    expect(m.dialog()).toBeNull();
    expect(m.store.getState().ui.composer.lines.join("\n")).toBe("also update the docs");
  });
});

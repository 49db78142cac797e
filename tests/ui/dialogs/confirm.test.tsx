// A yes/no question on its own: y does it, n and Esc do not; a question asked over another
// dialog goes back to it.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../../helpers/pty.js";
import { mountDialog, type MountedDialog, widths } from "./mount-dialog.js";

let m: MountedDialog | undefined;
afterEach(() => {
  m?.app.unmount();
  m = undefined;
});

describe.each(widths)("a confirmation at %i columns", (columns) => {
  it("y deletes the task", async () => {
    m = mountDialog(columns);
    m.store.updateUi((ui) => ({
      ...ui,
      dialog: {
        kind: "confirm",
        action: "delete",
        target: "t0",
        title: 'Delete task "New task" and its session? (y/n)',
      },
    }));
    const rows = await m.rows();
    expect(rows[0]).toMatch(/^Confirm/);
    expect(rows.slice(1, 4).join(" ")).toContain("Delete task");
    expect(rows.at(-1)).toContain("y yes · n or Esc no");
    m.type("y");
    await m.frame();
    expect(m.dialog()).toBeNull();
    expect(m.sent).toContainEqual({ type: "task.delete", taskId: "t0" });
  });

  it("n and Esc leave things as they are; Esc goes back to the dialog it was asked over", async () => {
    m = mountDialog(columns);
    const back = { kind: "permissions" as const, index: 0 };
    m.store.updateUi((ui) => ({
      ...ui,
      dialog: { kind: "confirm", action: "delete", target: "t0", title: "Delete? (y/n)", back },
    }));
    await m.frame();
    m.type("x");
    await m.frame();
    expect(m.dialog()?.kind).toBe("confirm");
    m.type(keys.esc);
    expect(await m.frame()).toContain('Allowed by "always"');
    expect(m.dialog()).toEqual(back);
    expect(m.sent.filter((c) => c.type === "task.delete")).toEqual([]);
  });

  it("stopping a subagent offers f (stop and kill its command)", async () => {
    m = mountDialog(columns);
    m.store.updateUi((ui) => ({
      ...ui,
      dialog: { kind: "confirm", action: "stopAgent", target: "agent-1", taskId: "t0", title: "Stop agent-1?" },
    }));
    expect((await m.rows()).at(-1)).toContain(columns >= 50 ? "f stop and kill its command" : "f stop");
    m.type("f");
    await m.frame();
    expect(m.sent).toContainEqual({ type: "subagent.stop", taskId: "t0", agentId: "agent-1", force: true });
  });
});

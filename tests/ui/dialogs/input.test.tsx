// One-line questions on their own: the text typed into the field, Enter answers (a rename is
// sent), Esc cancels; the history search lists its matches under the field and ↑↓ pick one.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../../helpers/pty.js";
import { mountDialog, type MountedDialog, widths } from "./mount-dialog.js";

let m: MountedDialog | undefined;
afterEach(() => {
  m?.app.unmount();
  m = undefined;
});

/** The rename dialog open on task t0 with `value` in its field. */
function mountRename(columns: number, value: string) {
  const mounted = mountDialog(columns);
  mounted.store.updateUi((ui) => ({
    ...ui,
    dialog: { kind: "input", purpose: "rename", title: "Rename task", value, target: "t0", index: 0 },
  }));
  return mounted;
}

describe.each(widths)("an input at %i columns", (columns) => {
  it("renames a task with what is typed", async () => {
    m = mountRename(columns, "old");
    let rows = await m.rows();
    expect(rows[0]).toMatch(/^Rename task/);
    expect(rows[1]?.trimEnd()).toBe(" › old▏");
    m.type(`${keys.backspace.repeat(3)}parser fix`);
    rows = await m.rows();
    expect(rows[1]?.trimEnd()).toBe(" › parser fix▏");
    m.type(keys.enter);
    await m.frame();
    expect(m.dialog()).toBeNull();
    expect(m.sent).toContainEqual({ type: "task.update", taskId: "t0", title: "parser fix" });
  });

  it("Esc cancels without sending", async () => {
    m = mountRename(columns, "x");
    await m.frame();
    m.type(keys.esc);
    await m.frame();
    expect(m.dialog()).toBeNull();
    expect(m.sent.filter((c) => c.type === "task.update")).toEqual([]);
  });

  it("searches the prompt history (Ctrl-S): matches listed, ↓ picks, Enter puts it in the input", async () => {
    m = mountDialog(columns, 16, { history: ["run the tests", "fix the lexer", "run the linter"] });
    m.type(keys.ctrl("s"));
    m.type("run");
    let rows = await m.rows();
    expect(rows[0]).toMatch(/^Search history/);
    const listed = rows.slice(3).filter((r) => r.includes("run the"));
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatch(/^ › run the/);
    m.type(keys.down);
    rows = await m.rows();
    expect(rows.slice(3).filter((r) => r.startsWith(" › "))).toHaveLength(1);
    const picked = rows
      .slice(3)
      .find((r) => r.startsWith(" › "))!
      .slice(3)
      .trim();
    m.type(keys.enter);
    await m.frame();
    expect(m.dialog()).toBeNull();
    expect(m.store.getState().ui.composer.lines.join("\n")).toBe(picked);
  });
});

// The command palette on its own: Ctrl-K opens it, typing filters, ↑↓ move (and wrap), Enter runs
// the selected entry, Esc closes; at 40, 80 and 120 columns.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../../helpers/pty.js";
import { mountDialog, type MountedDialog, widths } from "./mount-dialog.js";

let m: MountedDialog | undefined;
afterEach(() => {
  m?.app.unmount();
  m = undefined;
});

describe.each(widths)("the command palette at %i columns", (columns) => {
  it("filters as you type and runs the selected command with Enter", async () => {
    m = mountDialog(columns);
    m.type(keys.ctrl("k"));
    let rows = await m.rows();
    expect(rows).toHaveLength(16);
    expect(rows[0]).toMatch(/^Command palette/);
    expect(rows.at(-1)).toContain(columns >= 50 ? "Esc close" : "Enter run");
    expect(rows.filter((r) => r.includes("› "))).toHaveLength(2); // the field's prompt and the selected row
    m.type("/permissions");
    rows = await m.rows();
    expect(rows[1]).toContain("› /permissions");
    const listed = rows.slice(2).filter((r) => r.includes("/permissions"));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatch(/^ › \/permissions/);
    m.type(keys.enter);
    await m.frame();
    expect(m.dialog()).toEqual({ kind: "permissions", index: 0 });
  });

  it("↑ on the first entry goes to the last; Esc closes", async () => {
    m = mountDialog(columns);
    m.type(keys.ctrl("k"));
    await m.frame();
    m.type(keys.up);
    await m.frame();
    const d = m.dialog();
    expect(d?.kind === "palette" && d.index).toBeGreaterThan(10);
    expect((await m.rows()).some((r) => /^ › /.test(r))).toBe(true);
    m.type(keys.esc);
    await m.frame();
    expect(m.dialog()).toBeNull();
  });
});

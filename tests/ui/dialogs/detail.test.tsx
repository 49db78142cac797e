// A long read-only text on its own: wrapped to the width, scrolled with ↓ and PgDn (the footer
// says which lines show), closed with Esc.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../../helpers/pty.js";
import { mountDialog, type MountedDialog, widths } from "./mount-dialog.js";

let m: MountedDialog | undefined;
afterEach(() => {
  m?.app.unmount();
  m = undefined;
});

const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);

describe.each(widths)("a detail at %i columns", (columns) => {
  it("shows the lines that fit, scrolls, and closes with Esc", async () => {
    m = mountDialog(columns);
    m.store.updateUi((ui) => ({ ...ui, dialog: { kind: "detail", title: "Status", lines, offset: 0 } }));
    let rows = await m.rows();
    expect(rows[0]).toMatch(/^Status/);
    expect(rows[1]?.trim()).toBe("line 1");
    expect(rows.at(-1)).toContain("lines 1-14 of 40");
    m.type(keys.down);
    m.type(keys.pageDown);
    rows = await m.rows();
    expect(rows[1]?.trim()).toBe("line 12");
    expect(rows.at(-1)).toContain("lines 12-25 of 40");
    m.type(keys.esc);
    await m.frame();
    expect(m.dialog()).toBeNull();
  });

  it("wraps prose at spaces when asked to", async () => {
    m = mountDialog(columns);
    const long = "word ".repeat(60).trim();
    m.store.updateUi((ui) => ({
      ...ui,
      dialog: { kind: "detail", title: "Summary", lines: [long], offset: 0, words: true },
    }));
    const rows = await m.rows();
    const body = rows.slice(1, -1).filter((r) => r.trim());
    expect(body.length).toBeGreaterThan(1);
    for (const r of body) expect(r.trim()).toMatch(/^(word ?)+$/);
  });
});

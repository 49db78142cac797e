// The shortcut sheet on its own: ? on an empty input opens it, ↓ and PgDn scroll into the full
// reference, q closes it.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../../helpers/pty.js";
import { mountDialog, type MountedDialog, widths } from "./mount-dialog.js";

let m: MountedDialog | undefined;
afterEach(() => {
  m?.app.unmount();
  m = undefined;
});

describe.each(widths)("the shortcut sheet at %i columns", (columns) => {
  it("opens on ?, scrolls a line and a page, and closes with q", async () => {
    m = mountDialog(columns);
    m.type("?");
    let rows = await m.rows();
    expect(rows[0]).toMatch(/^Keys and commands/);
    expect(rows[1]).toContain("Keys");
    expect(rows.join("\n")).toContain("command palette");
    m.type(keys.down);
    await m.frame();
    expect(m.dialog()).toEqual({ kind: "help", offset: 1 });
    m.type(keys.pageDown);
    rows = await m.rows();
    expect(m.dialog()).toEqual({ kind: "help", offset: 11 });
    expect(rows[1]).not.toContain("Keys");
    m.type("q");
    await m.frame();
    expect(m.dialog()).toBeNull();
  });
});

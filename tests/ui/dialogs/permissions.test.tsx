// /permissions on its own: the task's "always" rules, ↓ and End move the selection, x removes the
// selected rule; with none it says how rules are made.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../../helpers/pty.js";
import { snapshot } from "../harness.js";
import { mountDialog, type MountedDialog, widths } from "./mount-dialog.js";

let m: MountedDialog | undefined;
afterEach(() => {
  m?.app.unmount();
  m = undefined;
});

const rules = ["run_command npm test", "run_command git status", "edit src/**"];

describe.each(widths)("/permissions at %i columns", (columns) => {
  it("lists the rules and removes the selected one with x", async () => {
    m = mountDialog(columns);
    m.bus.emit({ type: "task.updated", taskId: "t0", task: snapshot({ rules }) });
    m.type("/permissions\r");
    let rows = await m.rows();
    expect(rows[0]).toMatch(/^Allowed by "always"/);
    expect(rows.slice(1, 4).map((r) => r.trimEnd())).toEqual([
      " › run_command npm test",
      "   run_command git status",
      "   edit src/**",
    ]);
    m.type(keys.end);
    rows = await m.rows();
    expect(rows[3]?.trimEnd()).toBe(" › edit src/**");
    m.type(keys.up);
    m.type("x");
    await m.frame();
    expect(m.sent.at(-1)).toEqual({ type: "permissions.remove", taskId: "t0", rule: "run_command git status" });
  });

  it("says how a rule is made when there is none", async () => {
    m = mountDialog(columns);
    m.type("/permissions\r");
    const rows = await m.rows();
    expect(rows[1]).toContain("nothing: answer an approval");
    m.type(keys.esc);
    await m.frame();
    expect(m.dialog()).toBeNull();
  });
});

// Scheduled runs in the title bar at 40, 50, 80 and 120 columns: runs missed with no daemon (with how
// to start one while there is room), the unread inbox of a running daemon, nothing otherwise.
import { afterEach, describe, expect, it } from "vitest";
import type { CronLine } from "../../src/ui/state/ui-state.js";
import { visibleWidth } from "../../src/ui/render/wrap.js";
import { renderUi, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const set = (cron: CronLine | null) => h!.store.updateUi((ui) => ({ ...ui, cron }));
const title = async () => (await h!.lines())[0]!;

describe.each([40, 50, 80, 120])("the title bar at %i columns", (columns) => {
  it("says how many scheduled runs were missed with no daemon, and how to start one where it fits", async () => {
    h = await renderUi(columns, 24);
    expect(await title()).not.toMatch(/cron|missed/);
    set({ daemon: false, missed: 3, more: false, inbox: 0 });
    const line = await title();
    expect(visibleWidth(line)).toBeLessThanOrEqual(columns);
    if (columns >= 80) expect(line).toContain("3 cron runs missed: start nanohermes --daemon");
    else expect(line).toContain("cron 3 missed");
    set({ daemon: false, missed: 999, more: true, inbox: 0 });
    expect(await title()).toMatch(/999\+/);
  });

  it("shows the inbox's unread refusals while a daemon runs, and nothing when all is read", async () => {
    h = await renderUi(columns, 24);
    set({ daemon: true, missed: 0, more: false, inbox: 2 });
    const line = await title();
    expect(line).toMatch(/inbox 2/);
    if (columns >= 80) expect(line).toContain("cron inbox 2");
    expect(line).not.toContain("missed");
    set({ daemon: true, missed: 0, more: false, inbox: 0 });
    expect(await title()).not.toMatch(/cron|inbox/);
  });
});

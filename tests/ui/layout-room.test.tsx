// Issue 18 item 1: the transcript gets the room. At 50, 80, 120 and 160 columns: the transcript's
// share, Ctrl-T / Ctrl-R hiding and showing their panes, and tab names as words where they fit.
import { afterEach, describe, expect, it } from "vitest";
import { computeLayout } from "../../src/ui/layout/layout.js";
import { builtinTheme } from "../../src/ui/theme/load.js";
import { makePalette } from "../../src/ui/theme/palette.js";
import { visibleWidth } from "../../src/ui/render/wrap.js";
import { tabBar } from "../../src/ui/tabs/tab-bar.js";
import { keys } from "../helpers/pty.js";
import { renderUi, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const words = ["Files", "Changes", "Reads", "Todo", "Jobs", "Agents"];
/** The transcript's columns on the task bar row: between the task list's border and the results pane's (lines come trimmed). */
function transcriptColumns(line: string, columns: number): number {
  const chars = [...line];
  const bars = chars.flatMap((c, i) => (c === "│" ? [i] : []));
  const left = bars[0] ?? -1;
  const right = bars[1] ?? columns;
  return right - left - 1;
}

describe("the transcript's share of the width", () => {
  it("is at least 60% at 120 columns and grows on wider terminals", () => {
    const share = (columns: number) =>
      computeLayout({ columns, rows: 40, taskListOpen: true, resultsOpen: true }).transcriptWidth / columns;
    expect(share(120)).toBeGreaterThanOrEqual(0.6);
    expect(share(160)).toBeGreaterThan(share(120));
    expect(share(200)).toBeGreaterThan(share(160));
    expect(share(300)).toBeGreaterThan(share(200));
  });
});

describe.each([
  [50, 20],
  [80, 24],
  [120, 40],
  [160, 40],
])("at %ix%i", (columns, rows) => {
  it("gives the transcript the room the layout promises, and Ctrl-R / Ctrl-T hide and show their panes", async () => {
    h = await renderUi(columns, rows);
    const bodyRow = async () => (await h!.lines())[1]!;
    const wide = columns >= 120;
    const expected = computeLayout({ columns, rows, taskListOpen: columns >= 80, resultsOpen: wide }).transcriptWidth;
    if (wide) expect(transcriptColumns(await bodyRow(), columns)).toBe(expected);
    if (wide) expect(expected / columns).toBeGreaterThanOrEqual(0.6);

    // Ctrl-R shows and focuses the pane (beside the transcript or over it), with words for tabs.
    if (wide) expect(h.store.getState().ui).toMatchObject({ resultsOpen: true, focus: "composer" });
    h.keys(keys.ctrl("r"));
    expect(h.store.getState().ui).toMatchObject({ resultsOpen: true, focus: "results" });
    let frame = await h.frame();
    for (const w of words) expect(frame, w).toContain(w);
    expect(frame).toContain("[Changes]");
    // Tabs still switch with the arrows in the focused pane.
    h.keys(keys.right);
    expect(h.store.getState().ui.resultsTab).not.toBe("changes");

    // Ctrl-R on the focused pane hides it, wherever it is; the transcript takes its columns.
    h.keys(keys.ctrl("r"));
    expect(h.store.getState().ui).toMatchObject({ resultsOpen: false, focus: "composer" });
    frame = await h.frame();
    expect(frame).not.toContain("Agents");
    if (wide)
      expect(transcriptColumns(await bodyRow(), columns)).toBe(
        computeLayout({ columns, rows, taskListOpen: true, resultsOpen: false }).transcriptWidth,
      );

    // Hidden: Ctrl-R brings it back focused; Esc gives the focus back and leaves a side pane shown.
    h.keys(keys.ctrl("r"));
    expect(h.store.getState().ui).toMatchObject({ resultsOpen: true, focus: "results" });
    h.keys(keys.esc);
    expect(h.store.getState().ui).toMatchObject({ resultsOpen: wide, focus: "composer" });

    // Ctrl-T: the same rule for the task list.
    h.keys(keys.ctrl("t"));
    expect(h.store.getState().ui).toMatchObject({ taskListOpen: true, focus: "tasks" });
    expect(await h.frame()).toMatch(/Tasks 1/);
    h.keys(keys.ctrl("t"));
    expect(h.store.getState().ui).toMatchObject({ taskListOpen: false, focus: "composer" });
    expect(await h.frame()).not.toMatch(/Tasks 1/);
    // No task list: the transcript starts at column 0 and the results pane's border follows it.
    if (wide)
      expect([...(await bodyRow())].indexOf("│")).toBe(
        computeLayout({ columns, rows, taskListOpen: false, resultsOpen: true }).transcriptWidth,
      );
  });
});

describe("the tab bar", () => {
  const p = makePalette(builtinTheme("dark"), 0);
  const all = ["files", "changes", "turns", "reads", "todo", "jobs", "agents"] as const;
  const counts = { changes: 1, turns: 2, reads: 3, jobs: 1, agents: 2 };
  const bar = (width: number) => tabBar(p, "files", counts, width, [...all]);

  it("uses words on one row when they fit, then on two rows, each row exactly the width", () => {
    expect(bar(80)).toEqual([expect.stringContaining("[Files] Changes 1  Turns 2  Reads 3  Todo  Jobs 1  Agents 2")]);
    const two = bar(34);
    expect(two).toHaveLength(2);
    for (const w of ["Changes 1", "Turns 2", "Reads 3", "Todo", "Jobs 1", "Agents 2"])
      expect(two.join("\n")).toContain(w);
    for (const row of [...bar(80), ...two]) expect(visibleWidth(row)).toBe(row === two[0] || row === two[1] ? 34 : 80);
  });

  it("shortens the fewest names, the longest first, to forms like Chg, and never to a letter while those fit", () => {
    const rows = bar(24);
    const text = rows.join("\n");
    expect(rows.length).toBeLessThanOrEqual(2);
    expect(text).toContain("[Files]");
    expect(text).toContain("Chg 1");
    expect(text).not.toMatch(/(^| )[A-Z]( |$)/m);
    // Wider, fewer names are shortened: Changes is the longest, so it goes first.
    const wider = bar(27).join("\n");
    expect(wider).toContain("Chg 1");
    expect(wider).toContain("Turns 2");
  });

  it("falls back to letters only when even the short forms do not fit", () => {
    const rows = bar(12);
    expect(rows).toHaveLength(1);
    expect(visibleWidth(rows[0]!)).toBe(12);
    expect(rows[0]).toContain("[Files");
  });
});

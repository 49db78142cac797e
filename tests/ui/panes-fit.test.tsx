// Panes that fit 120 columns (issue 28, item 10): task titles keep room in the side list (the
// plan and tokens give way first), the results pane widens while it has focus, and Ctrl-F zooms the
// focused pane to the full width (tmux's prefix-z habit).
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../helpers/pty.js";
import { renderUi, snapshot, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const ev = { taskId: "t0" };

describe("panes at 120x40", () => {
  it("keeps a task title readable in the side list", async () => {
    h = await renderUi(120, 40);
    h.emit({
      type: "task.updated",
      ...ev,
      task: snapshot({ title: "summarise the release notes", usage: { prompt: 8000, completion: 400 } }),
    });
    h.emit({
      type: "todo.updated",
      ...ev,
      items: [
        { content: "a", status: "completed" },
        { content: "b", status: "pending" },
      ],
    });
    const row = (await h.lines()).find((l) => l.startsWith("○1"));
    expect(row).toMatch(/summarise the…/);
  });

  it("widens the results pane while it has focus", async () => {
    h = await renderUi(120, 40);
    const width = (lines: string[]) => 120 - [...lines[1]!].lastIndexOf("│") - 1;
    const before = width(await h.lines());
    h.keys(keys.ctrl("r"));
    const after = width(await h.lines());
    expect(before).toBeLessThanOrEqual(28);
    expect(after).toBeGreaterThanOrEqual(47);
  });

  it("Ctrl-F zooms the focused pane to the full width and back", async () => {
    h = await renderUi(120, 40);
    h.emit({ type: "task.updated", ...ev, task: snapshot({ title: "a rather long title for a task, zoomed" }) });
    h.keys(keys.ctrl("t"));
    h.keys(keys.ctrl("f"));
    const zoomed = await h.lines();
    expect(zoomed.some((l) => l.includes("a rather long title for a task, zoomed"))).toBe(true);
    expect(zoomed.some((l) => l.includes("Ask anything"))).toBe(false);
    h.keys(keys.ctrl("f"));
    const back = await h.lines();
    expect(back.some((l) => l.includes("Ask anything"))).toBe(true);
    expect(back.some((l) => l.startsWith("Tasks 1"))).toBe(true);
  });
});

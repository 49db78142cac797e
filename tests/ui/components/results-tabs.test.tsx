// The results pane and each of its tabs on its own at 40, 80 and 120 columns.
import { afterEach, describe, expect, it } from "vitest";
import { ResultsPane } from "../../../src/ui/components/ResultsPane.js";
import { visibleWidth } from "../../../src/ui/render/wrap.js";
import { mountPane } from "./mount.js";
import { tabComponent } from "../../../src/ui/components/ResultsTab.js";

const AgentsTab = tabComponent("agents");
const ChangesTab = tabComponent("changes");
const DiffTab = tabComponent("diff");
const FilesTab = tabComponent("files");
const JobsTab = tabComponent("jobs");
const ReadsTab = tabComponent("reads");
const TodoTab = tabComponent("todo");
const TurnsTab = tabComponent("turns");

let mounted: ReturnType<typeof mountPane> | undefined;
afterEach(() => {
  mounted?.app.unmount();
  mounted = undefined;
});

const ev = { taskId: "t0" };

describe.each([40, 80, 120])("at %i columns", (columns) => {
  const width = Math.min(56, columns) - 2;
  const tab = { width, height: 8, focused: true };

  it.each([
    ["Files", FilesTab, "README.md"],
    ["Changes", ChangesTab, "no files changed"],
    ["Diff", DiffTab, "/diff shows the working"],
    ["Turns", TurnsTab, "no turn of this task"],
    ["Reads", ReadsTab, "no files read"],
    ["Todo", TodoTab, "no plan yet"],
    ["Jobs", JobsTab, "no background"],
    ["Agents", AgentsTab, "no subagents"],
  ] as const)("%s tab: its empty state, in rows no wider than the pane", async (_, Tab, empty) => {
    mounted = mountPane(<Tab {...tab} />, columns, 20);
    const frame = await mounted.frame();
    expect(frame).toContain(empty.slice(0, width));
    expect(frame.split("\n").length).toBeLessThanOrEqual(8);
    for (const line of frame.split("\n")) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
  });

  it("Changes tab: the open file's diff, from the content the controller read", async () => {
    const files: Record<string, string> = { "a.txt": "one\ntwo changed\n" };
    mounted = mountPane(<ChangesTab {...tab} />, columns, 20, { readFile: (p) => files[p] ?? null });
    mounted.services.before.set("a.txt", "one\ntwo\n");
    mounted.bus.emit({
      type: "tool.started",
      ...ev,
      callId: "c1",
      name: "edit_file",
      kind: "edit",
      args: { path: "a.txt" },
      summary: "a.txt",
    });
    mounted.bus.emit({
      type: "tool.completed",
      ...ev,
      callId: "c1",
      name: "edit_file",
      status: "ok",
      forModel: "ok",
      display: "edited",
      durationMs: 1,
    });
    mounted.store.updateUi((ui) => ({ ...ui, resultsTab: "changes", diffPath: "a.txt" }));
    const frame = await mounted.frame();
    expect(frame).toContain("changed");
    expect(mounted.store.getState().shown["a.txt"]).toEqual({ before: "one\ntwo\n", now: "one\ntwo changed\n" });
  });

  it("Todo tab: the plan with its progress", async () => {
    mounted = mountPane(<TodoTab {...tab} />, columns, 20);
    mounted.bus.emit({
      type: "todo.updated",
      ...ev,
      items: [
        { content: "write it", status: "completed" },
        { content: "test it", status: "in_progress" },
      ],
    });
    const frame = await mounted.frame();
    expect(frame).toContain("1/2 done");
    expect(frame).toContain("test it");
  });

  it("ResultsPane: the tab bar and the current tab; ← → on stdin change tabs while it has focus", async () => {
    mounted = mountPane(<ResultsPane width={width + 2} height={10} />, columns, 20);
    mounted.store.updateUi((ui) => ({ ...ui, resultsOpen: true, focus: "results", resultsTab: "changes" }));
    let frame = await mounted.frame();
    expect(frame).toContain("[Changes]");
    expect(frame.split("\n")).toHaveLength(10);
    mounted.app.stdin.write("\x1b[C");
    frame = await mounted.frame();
    expect(mounted.store.getState().ui.resultsTab).not.toBe("changes");
    expect(frame).not.toContain("[Changes]");
  });
});

// Without colour (NO_COLOR or a monochrome terminal: the harness palette is depth 0, where no
// style reaches the screen) every selection is marked by a "›" (issue 18, item 7): browsed
// transcript blocks, the task list, each results tab and the list dialogs, at 40, 80 and 120 columns.
import { afterEach, describe, expect, it } from "vitest";
import { visibleWidth } from "../../src/ui/render/wrap.js";
import { keys } from "../helpers/pty.js";
import { mountPane } from "./components/mount.js";
import { renderUi, snapshot, type Harness } from "./harness.js";
import { tabComponent } from "../../src/ui/components/ResultsTab.js";

const AgentsTab = tabComponent("agents");
const ChangesTab = tabComponent("changes");
const FilesTab = tabComponent("files");
const JobsTab = tabComponent("jobs");
const ReadsTab = tabComponent("reads");
const TodoTab = tabComponent("todo");
const TurnsTab = tabComponent("turns");

const ev = { taskId: "t0" };
type Mounted = ReturnType<typeof mountPane>;

let h: Harness | undefined;
let mounted: Mounted | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
  mounted?.app.unmount();
  mounted = undefined;
});

/** The one row holding `text`; it must exist. */
function rowWith(frame: string, text: string): string {
  const rows = frame.split("\n").filter((l) => l.includes(text));
  expect(rows, `"${text}" in\n${frame}`).toHaveLength(1);
  return rows[0]!;
}

/** `selected` is on a marked row, `other` on an unmarked one. */
function expectMarked(frame: string, selected: string, other: string): void {
  expect(rowWith(frame, selected)).toMatch(new RegExp(`› .*${selected.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  expect(rowWith(frame, other)).not.toContain("›");
}

function edit(m: Mounted, callId: string, path: string): void {
  m.bus.emit({ type: "tool.started", ...ev, callId, name: "edit_file", kind: "edit", args: { path }, summary: path });
  m.bus.emit({
    type: "tool.completed",
    ...ev,
    callId,
    name: "edit_file",
    status: "ok",
    forModel: "ok",
    display: "edited",
    durationMs: 1,
  });
}

function read(m: Mounted, callId: string, path: string): void {
  m.bus.emit({ type: "tool.started", ...ev, callId, name: "read_file", kind: "read", args: { path }, summary: path });
  m.bus.emit({
    type: "tool.completed",
    ...ev,
    callId,
    name: "read_file",
    status: "ok",
    forModel: "ok",
    display: "2 lines",
    durationMs: 1,
  });
}

function child(id: string, name: string) {
  return {
    id,
    name,
    task: `${name}'s task`,
    status: "running" as const,
    durationMs: 10,
    preview: "",
    depth: 1,
    startedAt: null,
    endedAt: null,
    lastActivityAt: new Date().toISOString(),
    tool: null,
    usage: { prompt: 0, completion: 0 },
    files: [],
  };
}

function job(id: string, command: string) {
  return { id, command, state: "running" as const, exitCode: null, lastLine: "", startedAt: "2026-01-01T00:00:00Z" };
}

describe.each([40, 80, 120])("without colour at %i columns", (columns) => {
  const width = Math.min(56, columns) - 2;
  const tab = { width, height: 10, focused: true };

  /** Mounts a tab, feeds it, selects row `index` and returns the frame. */
  async function tabFrame(Tab: typeof FilesTab, feed: (m: Mounted) => void, index: number): Promise<string> {
    mounted = mountPane(<Tab {...tab} />, columns, 24);
    feed(mounted);
    mounted.store.updateUi((ui) => ({ ...ui, resultsIndex: index }));
    const frame = await mounted.frame();
    for (const line of frame.split("\n")) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
    return frame;
  }

  it("Files tab", async () => {
    expectMarked(await tabFrame(FilesTab, () => {}, 0), "README.md", "src");
  });

  it("Changes tab", async () => {
    expectMarked(
      await tabFrame(ChangesTab, (m) => (edit(m, "c1", "a.txt"), edit(m, "c2", "b.txt")), 1),
      "M b.txt",
      "M a.txt",
    );
  });

  it("Reads tab", async () => {
    expectMarked(
      await tabFrame(ReadsTab, (m) => (read(m, "r1", "one.md"), read(m, "r2", "two.md")), 0),
      "one.md",
      "two.md",
    );
  });

  it("Todo tab", async () => {
    const items = [
      { content: "write it", status: "completed" as const },
      { content: "test it", status: "pending" as const },
    ];
    expectMarked(
      await tabFrame(TodoTab, (m) => m.bus.emit({ type: "todo.updated", ...ev, items }), 1),
      "test it",
      "write it",
    );
  });

  it("Jobs tab", async () => {
    const feed = (m: Mounted) => (
      m.bus.emit({ type: "background.updated", ...ev, job: job("j1", "npm run dev") }),
      m.bus.emit({ type: "background.updated", ...ev, job: job("j2", "npm run watch") })
    );
    expectMarked(await tabFrame(JobsTab, feed, 1), "npm run watch", "npm run dev");
  });

  it("Agents tab", async () => {
    const feed = (m: Mounted) => (
      m.bus.emit({ type: "subagent.updated", ...ev, row: child("agent-1", "alpha") }),
      m.bus.emit({ type: "subagent.updated", ...ev, row: child("agent-2", "beta") })
    );
    expectMarked(await tabFrame(AgentsTab, feed, 1), "agent-2 beta", "agent-1 alpha");
  });

  it("Turns tab (its own › gutter, not doubled)", async () => {
    const turns = [1, 2].map((turn) => ({
      turn,
      prompt: `prompt ${turn}`,
      changes: [
        { path: `/work/demo/f${turn}.txt`, before: "kept" as const, after: "present" as const, by: "edit_file" },
      ],
    }));
    const frame = await tabFrame(TurnsTab, (m) => m.bus.emit({ type: "checkpoints.updated", ...ev, turns }), 0);
    const marked = frame.split("\n").filter((l) => l.includes("›"));
    expect(marked, frame).toHaveLength(1);
    expect(marked[0]).not.toMatch(/›.*›/);
  });

  it("browse mode: the selected transcript block", async () => {
    h = await renderUi(columns, 24);
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "question" });
    h.emit({ type: "assistant.delta", ...ev, text: "the answer" });
    h.emit({ type: "assistant.completed", ...ev, text: "", toolCalls: 0 });
    h.emit({
      type: "turn.completed",
      ...ev,
      turnId: "turn-1",
      reason: "completed",
      response: "",
      steps: 1,
      usage: { prompt: 1, completion: 1 },
    });
    h.keys(keys.ctrl("x"));
    let frame = await h.frame();
    expect(rowWith(frame, "the answer")).toMatch(/› the answer/);
    // The prompt keeps only its own "›"; moving up marks it with a second.
    expect(rowWith(frame, "question")).not.toMatch(/›.*›/);
    h.keys("k");
    frame = await h.frame();
    expect(rowWith(frame, "question")).toMatch(/› › question/);
    expect(rowWith(frame, "the answer")).not.toContain("›");
  });

  it("the task list", async () => {
    h = await renderUi(columns, 24);
    h.emit({ type: "task.updated", taskId: "t9", task: snapshot({ title: "second task" }) });
    h.keys(keys.ctrl("t"));
    h.keys(keys.down);
    expectMarked(await h.frame(), "second task", "1  New task");
  });

  it("a list dialog: the command palette", async () => {
    h = await renderUi(columns, 24);
    h.keys(keys.ctrl("k"));
    const frame = await h.frame();
    const marked = (f: string) => f.split("\n").filter((l) => /› \/\w/.test(l));
    expect(marked(frame), frame).toEqual([expect.stringContaining("/new")]);
    h.keys(keys.down);
    expect(marked(await h.frame())).toEqual([expect.stringContaining("/tasks")]);
  });

  it("a list dialog: the allowed rules", async () => {
    h = await renderUi(columns, 24);
    h.emit({ type: "task.updated", taskId: "t0", task: snapshot({ rules: ["exec: npm test", "exec: git status"] }) });
    h.keys("/permissions\r");
    h.keys(keys.down);
    expectMarked(await h.frame(), "exec: git status", "exec: npm test");
  });
});

// The /resume picker on fake session sources: the workspace's sessions newest first, a debounced
// full-text search, Tab for every workspace, the preview, and Enter opening the session in its
// task (switching to an open one, or creating one on the session file). At 50, 80 and 120 columns.
import { afterEach, describe, expect, it } from "vitest";
import type { SessionRow, SessionSource } from "../../src/ui/state/data-sources.js";
import { keys } from "../helpers/pty.js";
import { renderUi, snapshot, type Harness, until } from "./harness.js";
import { waitFor } from "../helpers/wait.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

// The status line compares with the real clock: the fake one must not be far from it.
const NOW = Date.now();
const hoursAgo = (n: number) => new Date(NOW - n * 3_600_000).toISOString();
const rows: SessionRow[] = [
  {
    file: "/home/u/.nanohermes/sessions/s-parser.json",
    sessionId: "s-parser",
    title: "fix the flaky parser test",
    workspace: "/work/demo",
    updatedAt: hoursAgo(2),
  },
  {
    file: "/home/u/.nanohermes/sessions/s-retry.json",
    sessionId: "s-retry",
    title: "add retries to the HTTP client",
    workspace: "/work/demo",
    updatedAt: hoursAgo(30),
  },
  {
    file: "/home/u/.nanohermes/sessions/s-other.json",
    sessionId: "s-other",
    title: "write the release notes",
    workspace: "/work/other",
    updatedAt: hoursAgo(1),
  },
];

function fakeSessions() {
  const calls: string[] = [];
  const source: SessionSource = {
    list: async (all) => {
      calls.push(`list ${all}`);
      return rows
        .filter((r) => all || r.workspace === "/work/demo")
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    },
    search: async (query, all) => {
      calls.push(`search ${query} ${all}`);
      return rows
        .filter((r) => (all || r.workspace === "/work/demo") && r.title.includes(query))
        .map((r) => ({ ...r, snippet: `user: please ${r.title.replace(query, `[${query}]`)}` }));
    },
    lastPrompt: async (file) => `last prompt of ${file.replace(/^.*\//, "")}`,
  };
  return { source, calls };
}

const widest = (lines: string[]) => Math.max(...lines.map((l) => [...l].length));

describe.each([
  [50, 20],
  [80, 24],
  [120, 40],
])("the session picker at %ix%i", (columns, rows_) => {
  it("lists this workspace's sessions newest first, searches after a pause in typing, and fits the screen", async () => {
    const fake = fakeSessions();
    h = await renderUi(columns, rows_, { sessions: fake.source, now: () => NOW });
    h.keys("/resume\r");
    let frame = await until(h, (f) => f.includes("add retries"));
    let lines = frame.split("\n");
    expect(lines).toHaveLength(rows_ - 1);
    expect(widest(lines)).toBeLessThanOrEqual(columns);
    expect(frame).toContain("Resume a session");
    expect(frame).toContain("2 sessions in this workspace · Tab: all");
    expect(frame).not.toContain("release notes");
    // Newest first, with its age; the selected row's last prompt below.
    expect(frame.indexOf("flaky parser")).toBeLessThan(frame.indexOf("add retries"));
    expect(frame).toMatch(/2h ago +fix the flaky parser test/);
    expect(frame).toMatch(/1d ago +add retries/);
    frame = await until(h, (f) => f.includes("last prompt: last prompt of s-parser.json"));

    h.keys("retries");
    frame = await until(h, (f) => f.includes("1 found in this workspace"));
    // One search for the whole word, not one per key.
    expect(fake.calls.filter((c) => c.startsWith("search"))).toEqual(["search retries false"]);
    expect(frame).not.toContain("flaky parser");
    // Without colour the matched words keep their brackets.
    expect(frame).toContain("please add [retries] to the HTTP client");
    lines = frame.split("\n");
    expect(lines).toHaveLength(rows_ - 1);
    expect(widest(lines)).toBeLessThanOrEqual(columns);
  });
});

describe("the session picker's keys", () => {
  it("Tab searches every workspace; Enter on a session without a task creates one on its file and switches to it", async () => {
    const fake = fakeSessions();
    h = await renderUi(80, 24, { sessions: fake.source, now: () => NOW });
    const harness = h;
    harness.ctl.deps.bus.onCommand((c) => {
      if (c.type === "task.create")
        harness.emit({
          type: "task.updated",
          taskId: c.taskId,
          task: snapshot({ title: c.title ?? "New task", sessionFile: c.sessionFile ?? null }),
        });
    });
    h.keys("/resume\r");
    await until(h, (f) => f.includes("2 sessions in this workspace"));
    h.keys(keys.tab);
    let frame = await until(h, (f) => f.includes("3 sessions in every workspace · Tab: this one"));
    expect(frame).toMatch(/write the release notes +\/work\/other/);
    h.keys("release");
    frame = await until(h, (f) => f.includes("1 found in every workspace"));
    expect(fake.calls).toContain("search release true");
    h.keys(keys.enter);
    await h.frame();
    expect(h.store.getState().ui.dialog).toBeNull();
    const create = h.sent.find((c) => c.type === "task.create");
    expect(create).toEqual({
      type: "task.create",
      taskId: "t1",
      sessionFile: "/home/u/.nanohermes/sessions/s-other.json",
      title: "write the release notes",
    });
    expect(h.store.getState().current).toBe("t1");
    expect(h.sent.at(-1)).toEqual({ type: "task.open", taskId: "t1" });
    expect(await h.frame()).toContain('opened "write the release notes"');
  });

  it("Enter on a session that already has a task switches to that task instead of opening it twice", async () => {
    h = await renderUi(80, 24, { sessions: fakeSessions().source, now: () => NOW });
    h.emit({
      type: "task.updated",
      taskId: "old",
      task: snapshot({ title: "add retries to the HTTP client", sessionFile: rows[1]!.file }),
    });
    h.keys("/resume\r");
    await until(h, (f) => f.includes("2 sessions in this workspace"));
    h.keys(keys.down);
    await until(h, (f) => f.includes("last prompt of s-retry.json"));
    h.keys(keys.enter);
    await h.frame();
    expect(h.sent.some((c) => c.type === "task.create")).toBe(false);
    expect(h.store.getState().current).toBe("old");
    expect(h.sent.at(-1)).toEqual({ type: "task.open", taskId: "old" });
  });

  it("says when nothing matches, and a failing search is shown, not thrown", async () => {
    const fake = fakeSessions();
    fake.source.search = async (q) => {
      if (q === "boom") throw new Error("no such module: better-sqlite3");
      return [];
    };
    h = await renderUi(80, 24, { sessions: fake.source, now: () => NOW });
    h.keys("/resume\r");
    await until(h, (f) => f.includes("2 sessions in this workspace"));
    h.keys("zebra");
    await until(h, (f) => f.includes("nothing found in this workspace · Tab: all"));
    h.keys(`${keys.ctrl("u")}boom`);
    await until(h, (f) => f.includes("search failed: no such module: better-sqlite3"));
    h.keys(keys.esc);
    expect(h.store.getState().ui.dialog).toBeNull();
  });

  it("opened at start by a bare --resume, Esc starts a new task instead", async () => {
    h = await renderUi(80, 24, { sessions: fakeSessions().source, now: () => NOW });
    const { openPicker } = await import("../../src/ui/controller/session-picker.js");
    openPicker(h.ctl, { startup: true });
    const frame = await until(h, (f) => f.includes("2 sessions in this workspace"));
    expect(frame).toContain("Resume a session (Esc starts a new one)");
    h.keys(keys.esc);
    await waitFor(() => h!.store.getState().ui.dialog === null, { what: "Esc closed the picker" });
    expect(h.sent.find((c) => c.type === "task.create")).toEqual({ type: "task.create", taskId: "t1" });
  });
});

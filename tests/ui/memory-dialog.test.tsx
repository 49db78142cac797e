// The /memory dialog on a fake store: entries newest first with their kind, the filter, editing
// the text, cycling the kind, deleting after y/n, adding one, and "memory is off". At 50, 80, 120.
import { afterEach, describe, expect, it } from "vitest";
import type { MemoryRow, MemorySource } from "../../src/ui/state/data-sources.js";
import { keys } from "../helpers/pty.js";
import { renderUi, type Harness, until } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const NOW = Date.now();
const ago = (hours: number) => new Date(NOW - hours * 3_600_000).toISOString();

function fakeMemory(enabled = true) {
  let n = 0;
  const entries: MemoryRow[] = [
    {
      id: "m1",
      kind: "preference",
      text: "The user prefers pnpm over npm for every install",
      createdAt: ago(50),
      updatedAt: ago(50),
      workspace: "/work/demo",
    },
    {
      id: "m2",
      kind: "lesson",
      text: "Run the integration tests with --runInBand or they time out",
      createdAt: ago(3),
      updatedAt: ago(3),
    },
  ];
  const calls: string[] = [];
  const newest = () => entries.slice().sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const source: MemorySource = {
    enabled,
    kinds: ["lesson", "preference", "correction", "fact"],
    list: async () => newest(),
    search: async (q) => {
      calls.push(`search ${q}`);
      return entries.filter((e) => q.split(/\s+/).some((w) => e.text.toLowerCase().includes(w.toLowerCase())));
    },
    update: async (id, change) => {
      const e = entries.find((x) => x.id === id);
      if (!e) return null;
      if (change.text && change.text.length > 60) throw new Error("a memory is at most 60 characters here");
      Object.assign(e, change, { updatedAt: new Date(NOW + ++n * 1000).toISOString() });
      return e;
    },
    remove: async (id) => {
      const i = entries.findIndex((x) => x.id === id);
      if (i >= 0) entries.splice(i, 1);
      return i >= 0;
    },
    save: async (kind, text) => {
      const e = {
        id: `new${++n}`,
        kind,
        text,
        createdAt: new Date(NOW + n * 1000).toISOString(),
        updatedAt: new Date(NOW + n * 1000).toISOString(),
      };
      entries.push(e);
      return e;
    },
  };
  return { source, entries, calls };
}

const widest = (lines: string[]) => Math.max(...lines.map((l) => [...l].length));
const fits = (frame: string, columns: number, rows: number) => {
  const lines = frame.split("\n");
  expect(lines).toHaveLength(rows - 1);
  expect(widest(lines)).toBeLessThanOrEqual(columns);
};

describe.each([
  [50, 20],
  [80, 24],
  [120, 40],
])("the memory dialog at %ix%i", (columns, rows) => {
  it("lists entries newest first with their kind, filters by search, and fits the screen", async () => {
    const fake = fakeMemory();
    h = await renderUi(columns, rows, { memory: fake.source, now: () => NOW });
    h.keys("/memory\r");
    let frame = await until(h, (f) => f.includes("2 memories, newest first"));
    fits(frame, columns, rows);
    expect(frame).toContain("Long-term memory");
    expect(frame.indexOf("lesson")).toBeLessThan(frame.indexOf("preference"));
    expect(frame).toMatch(/lesson +Run the integration/);
    // The selected entry in full below the list, with when it was saved.
    expect(frame).toContain("lesson · saved 3h ago");
    h.keys("/pnpm");
    frame = await until(h, (f) => f.includes('1 match for "pnpm"'));
    fits(frame, columns, rows);
    expect(frame).not.toContain("Run the integration");
    expect(fake.calls).toEqual(["search pnpm"]);
    expect(frame).toContain("preference · saved 2d ago · from /work/demo");
    // Back to the list, then Enter edits: all of the text in view, the cursor at its end.
    h.keys("\r\r");
    frame = await h.frame();
    fits(frame, columns, rows);
    expect(frame).toContain("Edit this preference");
    expect(frame).toContain("› The user prefers pnpm");
    expect(frame).toContain("install▏");
  });
});

describe("the memory dialog's keys", () => {
  it("Enter edits the text, k cycles the kind, n adds one", async () => {
    const fake = fakeMemory();
    h = await renderUi(80, 24, { memory: fake.source, now: () => NOW });
    h.keys("/memory\r");
    await until(h, (f) => f.includes("2 memories"));
    h.keys(keys.enter);
    let frame = await h.frame();
    expect(frame).toContain("Edit this lesson");
    // The whole text, with a cursor mark at its end.
    expect(frame).toContain("› Run the integration tests with --runInBand or they time out▏");
    h.keys(`${keys.ctrl("u")}Run integration tests one file at a time\r`);
    frame = await until(h, (f) => f.includes("memory updated"));
    expect(fake.entries.find((e) => e.id === "m2")?.text).toBe("Run integration tests one file at a time");
    expect(frame).toContain("Long-term memory");
    expect(frame).toMatch(/› lesson +Run integration tests one file/);

    h.keys("k");
    frame = await until(h, (f) => f.includes("now a preference"));
    expect(fake.entries.find((e) => e.id === "m2")?.kind).toBe("preference");

    h.keys("n");
    expect(await h.frame()).toContain("New memory (saved as a fact; then k in the list changes its kind)");
    h.keys("The CI runs on Node 20\r");
    frame = await until(h, (f) => f.includes("saved as a fact"));
    expect(fake.entries.at(-1)).toMatchObject({ kind: "fact", text: "The CI runs on Node 20" });
    // The new entry is selected.
    expect(frame).toMatch(/› fact +The CI runs on Node 20/);
  });

  it("the New memory field's k hint: k types a k there, and k on the saved entry changes its kind (issue 18)", async () => {
    const fake = fakeMemory();
    h = await renderUi(80, 24, { memory: fake.source, now: () => NOW });
    h.keys("/memory\r");
    await until(h, (f) => f.includes("2 memories"));
    h.keys("n");
    await until(h, (f) => f.includes("then k in the list changes its kind"));
    h.keys("The CI keeps Node 20\r");
    await until(h, (f) => /› fact +The CI keeps Node 20/.test(f));
    expect(fake.entries.at(-1)).toMatchObject({ kind: "fact", text: "The CI keeps Node 20" });
    h.keys("k");
    await until(h, (f) => /› lesson +The CI keeps Node 20/.test(f));
    expect(fake.entries.at(-1)?.kind).toBe("lesson");
  });

  it("d deletes after a y/n confirmation; n keeps it; a rejected edit shows the store's message", async () => {
    const fake = fakeMemory();
    h = await renderUi(80, 24, { memory: fake.source, now: () => NOW });
    h.keys("/memory\r");
    await until(h, (f) => f.includes("2 memories"));
    h.keys("d");
    let frame = await h.frame();
    expect(frame.replace(/\s+/g, " ")).toContain(
      'Delete this lesson: "Run the integration tests with --runInBand or they time out"? (y/n)',
    );
    h.keys("n");
    frame = await h.frame();
    expect(frame).toContain("2 memories");
    expect(fake.entries).toHaveLength(2);
    h.keys("d");
    h.keys("y");
    frame = await until(h, (f) => f.includes("1 memory, newest first"));
    expect(frame).toContain("memory deleted");
    expect(fake.entries.map((e) => e.id)).toEqual(["m1"]);

    h.keys(keys.enter);
    h.keys(`${keys.ctrl("u")}${"x".repeat(70)}\r`);
    frame = await until(h, (f) => f.includes("memory: a memory is at most 60 characters here"));
    expect(fake.entries[0]!.text).toBe("The user prefers pnpm over npm for every install");
    h.keys(keys.esc);
    expect(h.store.getState().ui.dialog).toBeNull();
  });

  it("says memory is off with --no-memory", async () => {
    h = await renderUi(80, 24, { memory: fakeMemory(false).source, now: () => NOW });
    h.keys("/memory\r");
    const frame = await h.frame();
    expect(frame).toContain("memory is off (--no-memory)");
    fits(frame, 80, 24);
    h.keys("n");
    expect(h.store.getState().ui.dialog?.kind).toBe("memory");
    h.keys(keys.esc);
    expect(h.store.getState().ui.dialog).toBeNull();
  });
});

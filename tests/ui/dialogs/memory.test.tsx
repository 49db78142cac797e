// The /memory dialog on its own: entries newest first with their kind, ↓ selects (the selected
// entry shows in full below), / filters (the field then has the keys; ↓ gives them back), k cycles
// the kind, d asks before deleting (the question returns to the list), Esc closes.
import { afterEach, describe, expect, it } from "vitest";
import type { MemoryRow, MemorySource } from "../../../src/ui/state/data-sources.js";
import { keys } from "../../helpers/pty.js";
import { mountDialog, type MountedDialog, widths } from "./mount-dialog.js";

let m: MountedDialog | undefined;
afterEach(() => {
  m?.app.unmount();
  m = undefined;
});

const NOW = Date.now();
const ago = (h: number) => new Date(NOW - h * 3_600_000).toISOString();

function fakeMemory() {
  const entries: MemoryRow[] = [
    { id: "m2", kind: "lesson", text: "Run the integration tests in band", createdAt: ago(3), updatedAt: ago(3) },
    { id: "m1", kind: "preference", text: "Use pnpm over npm", createdAt: ago(50), updatedAt: ago(50) },
  ];
  const updates: [string, unknown][] = [];
  const source: MemorySource = {
    enabled: true,
    kinds: ["lesson", "preference", "correction", "fact"],
    list: async () => entries.slice(),
    search: async (q) => entries.filter((e) => e.text.toLowerCase().includes(q.toLowerCase())),
    update: async (id, change) => {
      updates.push([id, change]);
      return entries.find((e) => e.id === id) ?? null;
    },
    remove: async () => true,
    save: async () => entries[0]!,
  };
  return { source, updates };
}

describe.each(widths)("the memory dialog at %i columns", (columns) => {
  it("lists, selects, cycles a kind and asks before deleting", async () => {
    const { source, updates } = fakeMemory();
    m = mountDialog(columns, 16, { memory: source, now: () => NOW });
    m.type("/memory\r");
    let frame = await m.until((f) => f.includes("2 memories"));
    const rows = frame.split("\n");
    expect(rows[0]).toMatch(/^Long-term memory/);
    expect(rows.find((r) => r.includes("Run the integration"))).toMatch(/^ › lesson {5}Run the/);
    expect(rows.find((r) => r.includes("Use pnpm"))).toMatch(/^ {3}preference Use pnpm/);
    m.type(keys.down);
    frame = await m.frame();
    expect(frame.split("\n").find((r) => r.includes("Use pnpm") && r.includes("preference "))).toMatch(/^ › /);
    expect(frame).toContain("preference · saved 2d ago");
    m.type("k");
    await m.until(() => updates.length > 0);
    expect(updates).toEqual([["m1", { kind: "correction" }]]);
    m.type("d");
    frame = await m.frame();
    expect(m.dialog()).toMatchObject({ kind: "confirm", action: "forgetMemory", target: "m1" });
    expect(frame).toContain("Delete this preference");
    m.type("n");
    await m.frame();
    expect(m.dialog()?.kind).toBe("memory");
    m.type(keys.esc);
    await m.frame();
    expect(m.dialog()).toBeNull();
  });

  it("/ filters: typing goes to the field, ↓ gives the keys back to the list", async () => {
    const { source } = fakeMemory();
    m = mountDialog(columns, 16, { memory: source, now: () => NOW });
    m.type("/memory\r");
    await m.until((f) => f.includes("2 memories"));
    m.type("/");
    m.type("pnpm");
    let frame = await m.until((f) => f.includes('1 match for "pnpm"'));
    expect(frame).toContain("› pnpm▏");
    expect(frame).not.toContain("Run the integration");
    // The selection keeps its row but not its mark while the field has the keys.
    expect(frame.split("\n").find((r) => r.includes("Use pnpm") && r.includes("preference "))).toMatch(/^ {3}/);
    m.type(keys.down);
    frame = await m.frame();
    expect(m.dialog()).toMatchObject({ kind: "memory", filtering: false });
    expect(frame.split("\n").find((r) => r.includes("Use pnpm") && r.includes("preference "))).toMatch(/^ › /);
  });
});

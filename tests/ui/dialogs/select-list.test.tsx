// The shared selectable list: "›" on the selected item (it is the mark that shows without colour),
// a window that keeps the selected item whole, multi-row items; and the list keys' arithmetic.
import { afterEach, describe, expect, it } from "vitest";
import { SelectList } from "../../../src/ui/components/SelectList.js";
import type { Key } from "../../../src/ui/input/keys.js";
import { listStep, moveIndex, type ListStep } from "../../../src/ui/input/list-nav.js";
import { visibleWidth } from "../../../src/ui/render/wrap.js";
import { mountPane } from "../components/mount.js";
import { widths } from "./mount-dialog.js";

let mounted: ReturnType<typeof mountPane> | undefined;
afterEach(() => {
  mounted?.app.unmount();
  mounted = undefined;
});

const items = Array.from({ length: 30 }, (_, i) => `item ${i + 1}`);

describe.each(widths)("SelectList at %i columns", (columns) => {
  it("marks the selected row and scrolls to keep it in view", async () => {
    mounted = mountPane(<SelectList items={items} selected={20} height={5} width={columns} />, columns, 10);
    const rows = (await mounted.frame()).split("\n");
    expect(rows).toHaveLength(5);
    expect(rows.filter((r) => r.startsWith("› "))).toEqual([expect.stringMatching(/^› item 21 *$/)]);
    expect(rows.map((r) => r.trim().replace("› ", ""))).toEqual([
      "item 19",
      "item 20",
      "item 21",
      "item 22",
      "item 23",
    ]);
    for (const r of rows) expect(visibleWidth(r)).toBeLessThanOrEqual(columns);
  });

  it("shows a multi-row item whole at the end of the list, its mark on its first row", async () => {
    const two = items.slice(0, 6).map((t) => [t, `  detail of ${t}`]);
    mounted = mountPane(<SelectList items={two} selected={5} height={4} width={columns} />, columns, 10);
    const rows = (await mounted.frame()).split("\n");
    expect(rows.at(-2)).toMatch(/^› item 6/);
    expect(rows.at(-1)).toMatch(/^ {4}detail of item 6/);
    expect(rows).toHaveLength(4);
  });

  it("without focus keeps the row but not the mark; empty, it says so", async () => {
    mounted = mountPane(
      <SelectList items={items.slice(0, 3)} selected={1} height={5} width={columns} focused={false} />,
      columns,
      10,
    );
    expect(await mounted.frame()).not.toContain("›");
    mounted.app.unmount();
    mounted = mountPane(
      <SelectList items={[]} selected={0} height={5} width={columns} empty="nothing here" />,
      columns,
      10,
    );
    expect((await mounted.frame()).trim()).toBe("nothing here");
  });
});

describe("list keys", () => {
  const key = (name: string, over: Partial<Key> = {}): Key => ({
    name,
    ctrl: false,
    alt: false,
    shift: false,
    sequence: "",
    ...over,
  });

  it("names the steps, and leaves Home/End to a text field beside the list", () => {
    expect(["up", "down", "pageup", "pagedown", "home", "end"].map((n) => listStep(key(n)))).toEqual([
      "up",
      "down",
      "pageUp",
      "pageDown",
      "home",
      "end",
    ]);
    expect(listStep(key("home"), { field: true })).toBeNull();
    expect(listStep(key("down"), { field: true })).toBe("down");
    expect(listStep(key("up", { shift: true }))).toBeNull();
    expect(listStep(key("a"))).toBeNull();
  });

  it.each<[number, number, ListStep, number, boolean?]>([
    [0, 5, "up", 0],
    [0, 5, "up", 4, true],
    [4, 5, "down", 4],
    [4, 5, "down", 0, true],
    [2, 30, "pageDown", 10],
    [25, 30, "pageDown", 29],
    [3, 30, "pageUp", 0],
    [12, 30, "home", 0],
    [12, 30, "end", 29],
    [50, 5, "up", 3],
    [0, 0, "down", 0],
  ])("from %i of %i, %s goes to %i (wrap: %s)", (index, count, step, to, wrap) => {
    expect(moveIndex(index, count, step, { wrap })).toBe(to);
  });
});

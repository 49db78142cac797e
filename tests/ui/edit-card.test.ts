// An edit's card keeps its change in the transcript: edit_file as a diff at the line the tool
// reported, apply_patch coloured per file, a few lines when collapsed with how many more there
// are, all of it when expanded. Failed edits show no diff. At 40, 80 and 120 columns.
import { describe, expect, it } from "vitest";
import { builtinTheme } from "../../src/ui/theme/load.js";
import { makePalette } from "../../src/ui/theme/palette.js";
import type { Block } from "../../src/ui/state/transcript.js";
import { toolLines } from "../../src/ui/view/cards.js";
import { visibleWidth } from "../../src/ui/render/wrap.js";

const plain = makePalette(builtinTheme("dark"), 0);
const color = makePalette(builtinTheme("dark"), 4);
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");
type Tool = Extract<Block, { kind: "tool" }>;
const card = (over: Partial<Tool>): Tool => ({
  kind: "tool",
  id: "t1",
  callId: "c1",
  name: "edit_file",
  toolKind: "edit",
  summary: "src/a.ts",
  args: {},
  status: "ok",
  output: "",
  display: "",
  forModel: "",
  startedAt: 0,
  durationMs: 120,
  expanded: false,
  ...over,
});
const ctx = (width: number, p = plain) => ({ p, width, now: 0, focused: false, ascii: false });

const edit = card({
  args: {
    path: "src/a.ts",
    old_string: "function total(a, b) {\n  return a + b;\n}",
    new_string: "function total(a, b) {\n  return Math.round(a + b);\n}",
  },
  display: "src/a.ts: 1 replacement at line 9",
});

describe.each([40, 80, 120])("an edit card at %i columns", (width) => {
  it("shows the change under the collapsed card, numbered at the edit's line", () => {
    const lines = toolLines(edit, ctx(width)).map(strip);
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(width);
    const text = lines.join("\n");
    expect(text).toMatch(/-\s+return a \+ b;/);
    expect(text).not.toContain("No newline");
    expect(text).toMatch(/\+\s+return Math\.round/);
    // Numbered from the line the tool reported (9), not from 1.
    if (width >= 80) expect(text).toMatch(/^\s+10\s+-\s+return a \+ b;/m);
  });

  it("colours added and removed lines", () => {
    const lines = toolLines(edit, ctx(width, color));
    expect(lines.some((l) => l.includes(color.diffAdd("+ ").slice(0, 5)) && strip(l).includes("Math.round"))).toBe(
      true,
    );
  });
});

describe("collapsed and expanded", () => {
  const many = card({
    args: {
      path: "b.txt",
      old_string: Array.from({ length: 12 }, (_, i) => `old ${i}`).join("\n"),
      new_string: Array.from({ length: 12 }, (_, i) => `new ${i}`).join("\n"),
    },
    display: "b.txt: 1 replacement at line 1",
  });

  it("keeps a collapsed card short and says how much more there is", () => {
    const lines = toolLines(many, ctx(80)).map(strip);
    expect(lines.length).toBeLessThanOrEqual(2 + 6 + 1);
    expect(lines.at(-1)).toMatch(/… \d+ more lines \(Enter in browse mode expands\)/);
  });

  it("shows the whole change when expanded, not the raw arguments", () => {
    const lines = toolLines({ ...many, expanded: true }, ctx(80))
      .map(strip)
      .join("\n");
    expect(lines).toContain("new 11");
    expect(lines).not.toContain('"old_string"');
  });

  it("shows no diff for a failed or denied edit", () => {
    for (const status of ["error", "denied"] as const) {
      const lines = toolLines({ ...edit, status, display: "old_string was not found" }, ctx(80))
        .map(strip)
        .join("\n");
      expect(lines).not.toContain("Math.round");
    }
  });
});

describe("an apply_patch card", () => {
  const patch =
    "*** Begin Patch\n*** Update File: src/a.ts\n@@ function total\n-  return a + b;\n+  return a - b;\n*** Add File: src/new.ts\n+export const x = 1;\n*** End Patch";
  const block = card({ name: "apply_patch", summary: "2 files", args: { patch }, display: "2 files changed" });

  it.each([40, 80, 120])("shows each file and its coloured lines at %i columns, not the patch envelope", (width) => {
    const raw = toolLines(block, ctx(width, color));
    const lines = raw.map(strip);
    const text = lines.join("\n");
    expect(text).not.toContain("*** Begin Patch");
    expect(text).toContain("update src/a.ts");
    expect(text).toContain("add src/new.ts");
    expect(raw.find((l) => strip(l).includes("+  return a - b;"))).toContain(color.diffAdd("+  return a - b;"));
    expect(raw.find((l) => strip(l).includes("-  return a + b;"))).toContain(color.diffDel("-  return a + b;"));
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(width);
  });

  it("keeps the colours in its full view", () => {
    const raw = toolLines({ ...block, expanded: true }, ctx(80, color));
    expect(raw.some((l) => l.includes(color.diffAdd("+export const x = 1;")))).toBe(true);
  });
});

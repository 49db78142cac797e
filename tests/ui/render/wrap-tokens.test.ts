// Wrapping at word and token boundaries: prose breaks between words, code and diffs also after
// punctuation, and neither cuts a keyword such as `return` unless it alone is wider than the line.
import { describe, expect, it } from "vitest";
import { diffFile, plainDiffStyles, renderDiff } from "../../../src/ui/render/diff.js";
import { visibleWidth, wrapLine } from "../../../src/ui/render/wrap.js";

const words = (lines: string[]) => lines.join(" ").split(/\s+/).filter(Boolean);

describe("wrapLine with tokens", () => {
  const code = "    return computeTotal(items.filter((item) => item.active), taxRate);";

  it.each([12, 16, 20, 27, 33])("never splits an identifier at %i columns and keeps every character", (width) => {
    const lines = wrapLine(code, width, { tokens: true });
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(width);
    for (const id of ["return", "computeTotal", "filter", "item", "active", "taxRate"]) {
      expect(lines.some((l) => l.includes(id))).toBe(true);
    }
    // Nothing is lost but the spaces a break fell on.
    expect(lines.join("").replace(/\s+/g, "")).toBe(code.replace(/\s+/g, ""));
  });

  it("breaks after punctuation when a run has no spaces", () => {
    expect(wrapLine("alpha.beta.gamma.delta", 12, { tokens: true })).toEqual(["alpha.beta.", "gamma.delta"]);
  });

  it("still cuts a single token wider than the line", () => {
    const lines = wrapLine("x".repeat(30), 10, { tokens: true });
    expect(lines).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(10)]);
  });

  it("keeps styles across a token break", () => {
    const lines = wrapLine("\x1b[32mfoo.bar.baz.qux\x1b[39m", 8, { tokens: true });
    expect(lines[0]?.startsWith("\x1b[32m")).toBe(true);
    expect(lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""))).toEqual(["foo.bar.", "baz.qux"]);
  });
});

describe("a diff in a narrow pane", () => {
  it.each([24, 30, 40])("wraps changed code at token boundaries at %i columns", (width) => {
    const before = "function total(a, b) {\n  return a + b;\n}\n";
    const after = "function total(a, b) {\n  return Math.round((a + b) * 100) / 100; // cents precision kept\n}\n";
    const { lines } = renderDiff(diffFile(before, after), { width, styles: plainDiffStyles, path: "src/a.ts" });
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(width);
    const text = lines.join("\n");
    expect(text).not.toMatch(/ret\n|\nurn/);
    expect(words(lines)).toContain("precision");
  });
});

// Rendering before loadMarkdown(): the cheap renderer draws finished blocks and the open tail,
// and a message streamed across the load re-renders its early blocks exactly once afterwards.
// Loading is process-wide, and the files of the fast suite share their worker's modules: this
// file takes fresh copies of the renderer's (vi.resetModules) before any other file loaded it.
import { describe, expect, it, vi } from "vitest";
import { SAMPLE, longDocument, tagStyles } from "./fixtures.js";

vi.resetModules();
const { IncrementalMarkdown } = await import("../../../src/ui/render/incremental.js");
const { isMarkdownLoaded, loadMarkdown, plainStyles, renderBlock, renderMarkdown, renderOpenTail, rendererGeneration } =
  await import("../../../src/ui/render/markdown.js");
const { splitAll } = await import("../../../src/ui/render/markdown-split.js");
const { visibleWidth } = await import("../../../src/ui/render/wrap.js");

const plain = (width: number) => ({ width, styles: plainStyles, highlight: true });

describe("cheap rendering before loadMarkdown()", () => {
  it("is what renderBlock uses until the full renderer loads", () => {
    expect(isMarkdownLoaded()).toBe(false);
    expect(rendererGeneration()).toBe(0);
  });

  it("draws headings with the heading style", () => {
    expect(renderBlock("## Title `x`", { width: 80, styles: tagStyles, highlight: true })).toEqual([
      "<h>Title <c>x</c></h>",
    ]);
    expect(renderBlock("## Title", { width: 80, styles: plainStyles, highlight: true })).toEqual(["## Title"]);
  });

  it("draws list bullets, numbers and tasks", () => {
    expect(renderBlock("- a\n  * b\n3. c\n- [ ] d", plain(80))).toEqual(["• a", "  • b", "3. c", "[ ] d"]);
    expect(renderBlock("- a", { width: 80, styles: tagStyles, highlight: true })).toEqual(["<li>•</li> a"]);
  });

  it("draws inline code, strong, emphasis and links as text plus URL", () => {
    const [line] = renderBlock("use `x_y` with **b** and *i* see [docs](http://d.io) and snake_case_name", {
      width: 200,
      styles: tagStyles,
      highlight: true,
    });
    expect(line).toBe("use <c>x_y</c> with <b>b</b> and <i>i</i> see docs (<u>http://d.io</u>) and snake_case_name");
  });

  it("indents and dims fenced code without highlighting and hides the fences", () => {
    expect(renderBlock("```ts\nconst a = 1;\n```", { width: 80, styles: tagStyles, highlight: true })).toEqual([
      "  <d>const a = 1;</d>",
    ]);
  });

  it("draws quotes with a bar and rules across the width", () => {
    expect(renderBlock("> said\n> > inner", plain(80))).toEqual(["│ said", "│ │ inner"]);
    expect(renderBlock("---", plain(12))).toEqual(["─".repeat(12)]);
  });

  it("cuts long code lines anywhere and keeps their indent", () => {
    expect(renderBlock("```\nabcdefghij klm\n```", plain(8))).toEqual(["  abcdef", "  ghij k", "  lm"]);
  });

  for (const width of [20, 40, 80, 120]) {
    it(`never exceeds ${width} columns`, () => {
      const lines = renderMarkdown(SAMPLE, plain(width));
      expect(lines.length).toBeGreaterThan(10);
      for (const line of lines) expect(visibleWidth(line), line).toBeLessThanOrEqual(width);
    });
  }
});

describe("renderOpenTail", () => {
  it("draws an open fence as plain dim lines, never highlighted", () => {
    const lines = renderOpenTail("\n\n```ts\nconst a = 1;\nlet b", { width: 80, styles: tagStyles, highlight: true });
    expect(lines).toEqual(["  <d>const a = 1;</d>", "  <d>let b</d>"]);
  });

  it("draws paragraph text line by line and wraps it", () => {
    expect(renderOpenTail("Some words being written", plain(10))).toEqual(["Some words", "being", "written"]);
  });

  it("does not draw a fresh empty line or leading blank lines", () => {
    expect(renderOpenTail("\n\nabc\n", plain(80))).toEqual(["abc"]);
    expect(renderOpenTail("\n\n", plain(80))).toEqual([]);
  });

  it("keeps blank lines inside an open fence", () => {
    expect(renderOpenTail("```\na\n\nb", plain(80))).toEqual(["  a", "  ", "  b"]);
  });
});

describe("IncrementalMarkdown across loadMarkdown()", () => {
  it("re-renders the blocks drawn before loading exactly once, then matches a one-shot render", async () => {
    const doc = longDocument(300);
    const md = new IncrementalMarkdown(plainStyles);
    const half = doc.length >> 1;
    for (let n = 5; n < half; n += 5) md.update(doc.slice(0, n), 80);
    const early = md.blocksRendered;
    expect(early).toBeGreaterThan(20);
    const cheapLines = md.update(doc.slice(0, half), 80);

    await loadMarkdown();
    const upgraded = md.update(doc.slice(0, half), 80);
    expect(md.blocksRendered).toBe(early * 2);
    expect(upgraded).not.toEqual(cheapLines); // tables are now drawn as tables

    for (let n = half; n < doc.length; n += 5) md.update(doc.slice(0, n), 80);
    const final = md.update(doc, 80, true);
    expect(md.blocksRendered).toBe(splitAll(doc).length + early);
    expect(final).toEqual(renderMarkdown(doc, plain(80)));
    md.update(doc, 80, true);
    expect(md.blocksRendered).toBe(splitAll(doc).length + early);
  });
});

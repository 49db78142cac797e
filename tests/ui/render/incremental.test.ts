// IncrementalMarkdown: streamed deltas render each finished block once, the tail is redrawn
// from its cached complete lines, a resize only re-wraps, and the result always equals a render
// from scratch.
import { beforeAll, describe, expect, it } from "vitest";
import { IncrementalMarkdown } from "../../../src/ui/render/incremental.js";
import {
  loadMarkdown,
  plainStyles,
  renderBlock,
  renderMarkdown,
  renderOpenTail,
  type RenderOptions,
} from "../../../src/ui/render/markdown.js";
import { splitAll, splitStable } from "../../../src/ui/render/markdown-split.js";
import { visibleWidth } from "../../../src/ui/render/wrap.js";
import { longDocument, SAMPLE } from "./fixtures.js";

const opts = (width: number): RenderOptions => ({ width, styles: plainStyles, highlight: true });

/** What the message should look like for `text` so far, computed from scratch. */
function reference(text: string, width: number): string[] {
  const { stable, tail } = splitStable(text);
  const out: string[] = [];
  for (const block of stable) {
    const lines = renderBlock(block, opts(width));
    if (out.length > 0 && lines.length > 0) out.push("");
    out.push(...lines);
  }
  const tailLines = renderOpenTail(tail, opts(width));
  if (out.length > 0 && tailLines.length > 0) out.push("");
  return [...out, ...tailLines];
}

beforeAll(async () => {
  await loadMarkdown();
});

describe("IncrementalMarkdown streaming", () => {
  it("renders each block of a 2,000-line document exactly once in 5-character deltas", () => {
    const doc = longDocument(2000);
    expect(doc.split("\n").length).toBe(2000);
    const md = new IncrementalMarkdown(plainStyles);
    let updates = 0;
    for (let n = 5; n < doc.length; n += 5) {
      md.update(doc.slice(0, n), 80);
      updates++;
    }
    const lines = md.update(doc, 80, true);
    const blocks = splitAll(doc).length;
    expect(blocks).toBeGreaterThan(400);
    expect(md.blocksRendered).toBe(blocks);
    expect(md.tailRenders).toBeLessThanOrEqual(updates);
    expect(lines).toEqual(renderMarkdown(doc, opts(80)));
    expect(md.lineCount).toBe(lines.length);
  });

  it("equals a render from scratch after every delta, whatever the delta sizes", () => {
    const doc = `${SAMPLE}\n\n${longDocument(120)}`;
    const md = new IncrementalMarkdown(plainStyles);
    let n = 0;
    for (let k = 0; n < doc.length; k++) {
      n = Math.min(doc.length, n + 1 + ((k * 7) % 13));
      expect(md.update(doc.slice(0, n), 50), `at ${n}`).toEqual(reference(doc.slice(0, n), 50));
    }
  });

  it("redraws only the line being written of a long open fence", () => {
    const code = Array.from({ length: 300 }, (_, i) => `line ${i} of the code`).join("\n");
    const doc = `Intro.\n\n\`\`\`ts\n${code}`;
    const md = new IncrementalMarkdown(plainStyles);
    let updates = 0;
    for (let n = 4; n < doc.length; n += 4, updates++) md.update(doc.slice(0, n), 80);
    const lines = md.update(doc, 80);
    expect(lines).toEqual(reference(doc, 80));
    // Each update renders the partial line plus the lines completed since the last one.
    expect(md.tailLinesRendered).toBeLessThan(updates * 2 + 310);
    expect(lines.length).toBe(302);
  });

  it("returns the same array when nothing changed", () => {
    const md = new IncrementalMarkdown(plainStyles);
    const a = md.update("Hello\n\nworld", 40);
    expect(md.update("Hello\n\nworld", 40)).toBe(a);
    expect(md.update("Hello\n\nworld!", 40)).not.toBe(a);
  });

  it("does not mutate an array it returned earlier", () => {
    const md = new IncrementalMarkdown(plainStyles);
    const first = md.update("A\n\nB", 40);
    const copy = first.slice();
    md.update("A\n\nB\n\nC\n\nD", 40);
    expect(first).toEqual(copy);
  });

  it("starts over when the text is replaced rather than extended", () => {
    const md = new IncrementalMarkdown(plainStyles);
    md.update("First answer.\n\nMore", 40);
    const lines = md.update("Second answer.\n\nOther", 40);
    expect(lines).toEqual(["Second answer.", "", "Other"]);
  });

  it("renders the tail of a finished message in full, once", () => {
    const md = new IncrementalMarkdown(plainStyles);
    md.update("| a |\n|---|\n| 1 |", 40);
    expect(md.lineCount).toBe(3); // the open tail: raw table lines
    const done = md.update("| a |\n|---|\n| 1 |", 40, true);
    expect(done[0]).toBe("┌───┐");
    const rendered = md.blocksRendered;
    md.update("| a |\n|---|\n| 1 |", 60, true);
    expect(md.blocksRendered).toBe(rendered);
  });
});

describe("IncrementalMarkdown resize", () => {
  it("re-wraps cached blocks without rendering them again", () => {
    const doc = longDocument(400);
    const md = new IncrementalMarkdown(plainStyles);
    for (let n = 0; n < doc.length; n += 50) md.update(doc.slice(0, n), 100);
    md.update(doc, 100, true);
    const rendered = md.blocksRendered;
    for (const width of [30, 57, 120]) {
      const lines = md.update(doc, width, true);
      expect(md.blocksRendered).toBe(rendered);
      expect(lines).toEqual(renderMarkdown(doc, opts(width)));
      for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
    }
    expect(md.blocksRewrapped).toBeGreaterThanOrEqual(3 * (rendered - 1));
  });

  it("keeps streaming correctly after a resize mid-message", () => {
    const doc = longDocument(80);
    const md = new IncrementalMarkdown(plainStyles);
    const mid = doc.length >> 1;
    for (let n = 0; n < mid; n += 9) md.update(doc.slice(0, n), 70);
    expect(md.update(doc.slice(0, mid), 35)).toEqual(reference(doc.slice(0, mid), 35));
    expect(md.update(doc, 35, true)).toEqual(renderMarkdown(doc, opts(35)));
  });
});

describe("IncrementalMarkdown highlight flag", () => {
  it("re-renders finished blocks once when highlighting is switched", () => {
    const md = new IncrementalMarkdown(plainStyles, { highlight: false });
    md.update("A\n\n```ts\nx\n```\n\nB", 40);
    const before = md.blocksRendered;
    md.highlight = true;
    md.update("A\n\n```ts\nx\n```\n\nB", 40);
    expect(md.blocksRendered).toBe(before * 2);
    md.update("A\n\n```ts\nx\n```\n\nBC", 40);
    expect(md.blocksRendered).toBe(before * 2);
  });
});

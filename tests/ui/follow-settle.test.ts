// Follow mode: while output is live the end jumps to half-way down (few repaints per streamed
// line); once nothing is live the last line sits at the bottom of the pane, with no empty half
// page under a finished answer. Paging and the user's own scroll position are left alone.
import { describe, expect, it } from "vitest";
import { computeViewport, followScroll } from "../../src/ui/view/transcript-view.js";

const blocks = (sizes: number[]) => sizes.map((n, b) => Array.from({ length: n }, (_, i) => `b${b} line ${i}`));
const lastFilled = (lines: string[]) => lines.reduce((at, l, i) => (l !== "" ? i : at), -1);

describe("computeViewport in follow mode", () => {
  const bs = blocks([10, 12, 9]);
  const linesOf = (i: number) => bs[i]!;

  it.each([8, 15, 24])("settles with the last line at the bottom of a %i-row pane once nothing is live", (height) => {
    const vp = computeViewport(bs.length, linesOf, height, followScroll(), false);
    expect(vp.lines).toHaveLength(height);
    expect(vp.lines[height - 1]).toBe("b2 line 8");
    expect(vp.atEnd).toBe(true);
  });

  it("jumps half a page while live, then settles when the stream ends", () => {
    const height = 20;
    const live = computeViewport(bs.length, linesOf, height, followScroll(), true);
    expect(lastFilled(live.lines)).toBe(Math.ceil(height / 2) - 1);
    // The same remembered position once the answer is finished: no rows left empty below.
    const done = computeViewport(bs.length, linesOf, height, live.scroll, false);
    expect(lastFilled(done.lines)).toBe(height - 1);
    expect(done.lines[height - 1]).toBe("b2 line 8");
  });

  it("keeps a short transcript at the top, and leaves a scrolled-up view where the user put it", () => {
    const short = blocks([3]);
    const vp = computeViewport(1, (i) => short[i]!, 10, followScroll(), false);
    expect(vp.lines.slice(0, 3)).toEqual(short[0]);
    const up = computeViewport(bs.length, linesOf, 10, { follow: false, top: { block: 0, line: 2 } }, false);
    expect(up.lines[0]).toBe("b0 line 2");
  });
});

// Follow mode: the newest line sits at the bottom of the pane while output is live and after (a
// half-page jump left blank rows under it; the terminal writer's bytes per token stay far inside
// the budget). Paging and the user's own scroll position are left alone.
import { describe, expect, it } from "vitest";
import { computeViewport } from "../../src/ui/view/transcript-view.js";
import { followScroll } from "../../src/ui/state/scroll.js";

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

  it("keeps the newest line at the bottom while live and after (issue 28, item 9)", () => {
    const height = 20;
    const live = computeViewport(bs.length, linesOf, height, followScroll(), true);
    // No blank rows under the newest line while it streams (a half-page jump left 10).
    expect(lastFilled(live.lines)).toBe(height - 1);
    expect(live.lines[height - 1]).toBe("b2 line 8");
    const done = computeViewport(bs.length, linesOf, height, live.scroll, false);
    expect(done.lines).toEqual(live.lines);
    // One more line while live: the view moves by one, the new line at the bottom.
    const grown = bs.map((b, i) => (i === bs.length - 1 ? [...b, "b2 line 9"] : b));
    const next = computeViewport(grown.length, (i) => grown[i]!, height, live.scroll, true);
    expect(next.lines[height - 1]).toBe("b2 line 9");
    expect(next.lines[height - 2]).toBe("b2 line 8");
  });

  it("keeps a short transcript at the top, and leaves a scrolled-up view where the user put it", () => {
    const short = blocks([3]);
    const vp = computeViewport(1, (i) => short[i]!, 10, followScroll(), false);
    expect(vp.lines.slice(0, 3)).toEqual(short[0]);
    const up = computeViewport(bs.length, linesOf, 10, { follow: false, top: { block: 0, line: 2 } }, false);
    expect(up.lines[0]).toBe("b0 line 2");
  });
});

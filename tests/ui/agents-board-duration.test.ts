// Finished children show how long they ran (issue 28, polish): the board floored every running
// time to whole seconds, so a child done in 0.5 s read "0s", as if it had never run. Ended rows
// under ten seconds now keep a tenth; a running one ticks in whole seconds; a queued one has none.
import { describe, expect, it } from "vitest";
import { builtinTheme } from "../../src/ui/theme/load.js";
import { makePalette } from "../../src/ui/theme/palette.js";
import { agentElapsedText, boardLines } from "../../src/ui/view/agent-board.js";
import { iso, row, T0 } from "./agents-fixtures.js";

const p = makePalette(builtinTheme("dark"), 0);
const ended = (ms: number) => row("agent-1", { status: "done", durationMs: ms, endedAt: iso(T0 - 1_000) });

describe("the board's running times", () => {
  it.each([
    [480, "0.5s"],
    [2_340, "2.3s"],
    [9_940, "9.9s"],
    [12_400, "12s"],
    [65_000, "1m05s"],
  ])("a child done after %i ms shows %s", (ms, text) => {
    expect(agentElapsedText(ended(ms), T0)).toBe(text);
  });

  it("a running child ticks in whole seconds; a queued one shows none", () => {
    expect(agentElapsedText(row("agent-2", { startedAt: iso(T0 - 3_700) }), T0)).toBe("3s");
    expect(agentElapsedText(row("agent-3", { status: "queued", startedAt: null }), T0)).toBeNull();
  });

  it("the board's row says 0.5s, not 0s, at 40 and 120 columns", () => {
    for (const width of [40, 120]) {
      const view = { rows: [ended(480)], selected: 0, focused: false, now: T0, ascii: false, asks: {} };
      const [, head] = boardLines(p, view, width, 10);
      expect(head).toMatch(/agent-1 worker.* 0\.5s$/);
      expect(head).not.toMatch(/ 0s$/);
    }
  });
});

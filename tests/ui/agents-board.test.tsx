// The Agents tab and the task bar summary at 50, 80 and 120 columns: every state, the tool a
// child runs, tokens, files, silence, rows changing in place and elapsed times ticking.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { visibleWidth } from "../../src/ui/render/wrap.js";
import { builtinTheme } from "../../src/ui/theme/load.js";
import { makePalette } from "../../src/ui/theme/palette.js";
import { agentSummary } from "../../src/ui/view/agent-board.js";
import { board, fanOut, iso, openAgentsTab, row, T0 } from "./agents-fixtures.js";
import { renderUi, snapshot, type Harness } from "./harness.js";

let h: Harness | undefined;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  h?.unmount();
  h = undefined;
  vi.useRealTimers();
});

describe.each([
  [160, 40],
  [120, 40],
  [80, 24],
  [50, 20],
  [40, 16],
])("the Agents tab at %ix%i", (cols, rowsCount) => {
  it("shows each child's state, tool, tokens, files and silence, never wider than the terminal", async () => {
    h = await renderUi(cols, rowsCount);
    fanOut(h);
    const lines = await openAgentsTab(h);
    expect(lines.length).toBeLessThanOrEqual(rowsCount - 1);
    for (const l of lines) expect(visibleWidth(l), l).toBeLessThanOrEqual(cols);
    const frame = lines.join("\n");
    expect(frame).toContain("[Agents 3]");
    // Row 1 is selected: without colour its marker takes two columns, so the details are read
    // from the rows after it.
    expect(frame).toMatch(/1 ● agent-1 worker/);
    expect(frame).toMatch(/2 ! agent-2 worker .*1m05s/);
    expect(frame).toMatch(/run_command sleep 600/);
    // The side pane at 120 columns is 28 wide (the transcript keeps 72): the question and the
    // silence are cut there; from 160 (36) and in the overlays they show in full.
    const narrowSide = cols === 120;
    expect(frame).toMatch(narrowSide ? /asks: write CHANGELOG/ : /asks: write CHANGELOG\.md/);
    expect(frame).toMatch(narrowSide ? /3 ● agent-3 worker/ : /3 ● agent-3 worker .*silent 3m05s/);
    if (rowsCount < 20) {
      // A short pane scrolls with the selection: Down to the last child.
      for (let i = 0; i < 5; i++) h.keys("\x1b[B");
      const last = await h.frame();
      expect(last).toMatch(/6 ✗ agent-6 worker/);
      expect(last).not.toMatch(/1 ● agent-1/);
      return;
    }
    expect(frame).toMatch(/4 ✓ agent-4 worker .*12s/);
    expect(frame).toMatch(/5 ○ agent-5 worker/);
    expect(frame).toMatch(/6 ✗ agent-6 worker/);
    expect(frame).toContain(narrowSide ? "model error: 500" : "model error: 500 internal");
    if (cols === 80) {
      // The overlay pane (56 columns) is wide enough for the words and the numbers; the side
      // panes at 120 and 160 columns (26 and 34 inside) and the 50-column screen (48) drop the
      // words first.
      expect(frame).toMatch(/agent-1 worker running .*3\.2k tok 2 files 1m05s/);
      expect(frame).toContain("2 running, 1 needs approval, 1 queued, 1 done, 1 failed");
    } else if (!narrowSide) {
      expect(frame).toMatch(/agent-1 worker .*3\.2k tok/);
    }
  });
});

describe("the board", () => {
  it("changes a row in place and ticks the elapsed time of running children", async () => {
    h = await renderUi(80, 24);
    fanOut(h);
    let frame = (await openAgentsTab(h)).join("\n");
    const count = (f: string) => (f.match(/agent-\d/g) ?? []).length;
    const before = count(frame);
    h.emit(
      board(
        row("agent-5", { status: "running", startedAt: iso(T0), tool: { name: "read_file", summary: "src/lexer.ts" } }),
      ),
    );
    frame = await h.frame();
    expect(frame).toMatch(/5 ● agent-5 worker running/);
    expect(frame).toContain("read_file src/lexer.ts");
    expect(count(frame)).toBe(before);
    // The store's clock ticks while children run: seven seconds on, with no forced update.
    h.clock.advance(7_000);
    frame = await h.frame();
    expect(frame).toMatch(/agent-5 worker running .*7s/);
    expect(frame).toMatch(/agent-1 worker running .*1m12s/);
    // Ended ones keep their final time.
    expect(frame).toMatch(/agent-4 worker done .*12s/);
  });

  it("flags a running child silent after a minute without activity, and clears it when it speaks", async () => {
    h = await renderUi(80, 24);
    h.emit(board(row("agent-1", { lastActivityAt: iso(T0 - 30_000) })));
    await openAgentsTab(h);
    expect(await h.frame()).not.toContain("silent");
    h.clock.advance(45_000);
    expect(await h.frame()).toMatch(/silent 1m15s/);
    h.emit(board(row("agent-1", { lastActivityAt: iso(T0 + 45_000) })));
    expect(await h.frame()).not.toContain("silent");
  });

  it("summarises the board in the task bar: words when wide, glyphs when narrow", async () => {
    h = await renderUi(120, 40);
    fanOut(h);
    h.emit(board(row("agent-7", { status: "stopped", endedAt: iso(T0), durationMs: 1_000 })));
    const bar = (await h.lines())[1]!;
    expect(bar).toMatch(/agents ●2 !1 ○1 ✓1 ✗1 ■1/);
    h.store.updateUi((ui) => ({ ...ui, taskListOpen: false, resultsOpen: false }));
    expect((await h.lines())[1]).toContain("agents 2 running, 1 needs approval, 1 queued, 1 done, 1 failed, 1 stopped");
    h.unmount();
    h = await renderUi(50, 20);
    h.emit({ type: "task.updated", taskId: "t0", task: snapshot({ title: "fan out", status: "running" }) });
    for (const id of ["agent-1", "agent-2", "agent-3"]) h.emit(board(row(id)));
    h.emit(board(row("agent-4", { status: "queued", startedAt: null })));
    h.emit(board(row("agent-5", { status: "done", endedAt: iso(T0), durationMs: 1 })));
    const narrow = (await h.lines())[1]!;
    expect(narrow).toMatch(/fan out · running · agents ●3 ○1 ✓1/);
    expect(visibleWidth(narrow)).toBeLessThanOrEqual(50);
  });
});

describe("the task bar while a child waits", () => {
  it("shortens its own words before it drops the counts", async () => {
    const waiting = async (cols: number) => {
      h?.unmount();
      h = await renderUi(cols, 20);
      h.emit({
        type: "task.updated",
        taskId: "t0",
        task: snapshot({ title: "fan out to six workers", status: "waiting", pendingApprovals: 2 }),
      });
      h.emit(board(row("agent-1", { status: "waiting" })));
      h.emit(board(row("agent-2", { status: "waiting" })));
      h.emit(board(row("agent-3")));
      h.emit(board(row("agent-4", { status: "queued", startedAt: null })));
      return (await h.lines())[1]!;
    };
    expect(await waiting(50)).toMatch(/^! fan out to six workers · waiting · ●1 !2 ○1/);
    expect(await waiting(79)).toContain("waiting for approval · agents ●1 !2 ○1");
  });
});

describe("the summary", () => {
  it("counts in words with the right number, or by glyph", () => {
    const p = makePalette(builtinTheme("dark"), 0);
    expect(agentSummary(p, [row("a", { status: "waiting" })], false)?.long).toBe("1 needs approval");
    expect(
      agentSummary(
        p,
        [row("a", { status: "waiting" }), row("b", { status: "waiting" }), row("c", { status: "done" })],
        false,
      ),
    ).toEqual({ long: "2 need approval, 1 done", short: "!2 ✓1" });
    expect(agentSummary(p, [row("a"), row("b", { status: "stopped" })], true)?.short).toBe("*1 -1");
    expect(agentSummary(p, [], false)).toBeNull();
  });
});

describe("a captured screen", () => {
  // Read in tmux at 50x20 while six workers ran (same state, fixed clock): guards the layout.
  it("the board and a child's view at 50x20", async () => {
    h = await renderUi(50, 20);
    fanOut(h);
    expect(await openAgentsTab(h)).toEqual([
      "NanoHermes · mock-model · mode default",
      "│  Files  Changes  Reads  Todo  Jobs [Agents 3]",
      "│ ●2 !1 ○1 ✓1 ✗1",
      // Without colour the selected child is marked (issue 18, item 7).
      "│ › 1 ● agent-1 worker running      3.2k tok 1m05s",
      "│ ›     run_command npm test -- --run tests/parser",
      "│ ›     fix the failing parser tests in src/parse…",
      "│ 2 ! agent-2 worker needs approval          1m05s",
      "│     asks: write CHANGELOG.md",
      "│ 3 ● agent-3 worker running silent 3m05s    1m05s",
      "│     run_command sleep 600",
      "│ 4 ✓ agent-4 worker done             1.1k tok 12s",
      "│     fix the failing parser tests in src/parser.…",
      "│ 5 ○ agent-5 worker queued",
      "│     review the lexer",
      "│ 6 ✗ agent-6 worker failed                   3.0s",
      "│     model error: 500 internal",
      "│",
      "│",
      "Enter open · x stop · 1-9 ↑↓ select · Esc back",
    ]);
    h.keys("1");
    h.keys("\r");
    const ev = { taskId: "t0", agentId: "agent-1" };
    h.emit({ type: "turn.started", ...ev, turnId: "c1", prompt: "fix the failing parser tests in src/parser.ts" });
    h.emit({ type: "assistant.delta", ...ev, text: "Running the parser tests first." });
    h.emit({ type: "assistant.completed", ...ev, text: "", toolCalls: 1 });
    h.emit({
      type: "tool.started",
      ...ev,
      callId: "x1",
      name: "run_command",
      kind: "exec",
      args: { command: "npm test -- --run tests/parser" },
      summary: "npm test -- --run tests/parser",
    });
    h.emit({
      type: "tool.output",
      ...ev,
      callId: "x1",
      stream: "stdout",
      chunk: " FAIL tests/parser.test.ts > columns\n",
    });
    expect(await h.lines()).toEqual([
      "NanoHermes · mock-model · mode default",
      "agent-1 worker · ● running · 1m05s · 3.2k tok",
      "",
      "› fix the failing parser tests in src/parser.ts",
      "Running the parser tests first.",
      "▸ ● run_command npm test -- --run tests/parser 0s",
      "     FAIL tests/parser.test.ts > columns",
      ...Array(11).fill(""),
      "Esc close · x stop · ↑↓ PgUp PgDn scroll · End fo…",
    ]);
  });
});

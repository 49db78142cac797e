// What the UI shows of providers and cost: how full the context is on the status line, a fallback
// switch in the transcript, and /cost, at 40, 80 and 120 columns.
import { afterEach, describe, expect, it } from "vitest";
import { renderUi, snapshot, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const ev = { taskId: "t0" };
const widest = (lines: string[]) => Math.max(...lines.map((l) => [...l].length));

describe.each([
  [40, 14],
  [80, 24],
  [120, 40],
])("at %ix%i", (columns, rows) => {
  it("the status line leads with the context gauge once the window is known", async () => {
    h = await renderUi(columns, rows);
    expect((await h.lines()).at(-1)).not.toMatch(/ctx/);
    h.emit({
      type: "task.updated",
      ...ev,
      task: snapshot({ model: "gpt-5", context: { used: 100_000, window: 400_000 } }),
    });
    const lines = await h.lines();
    expect(lines.at(-1)).toMatch(/^ctx 25% · /);
    expect(widest(lines)).toBeLessThanOrEqual(columns);
  });

  it("a fallback switch stays in the transcript", async () => {
    h = await renderUi(columns, rows);
    h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "hi" });
    h.emit({
      type: "model.fallback",
      ...ev,
      from: "gpt-5",
      to: "claude-sonnet-4-5",
      error: "503 overloaded",
      fromProvider: "openai",
      toProvider: "anthropic",
    });
    // Styles stripped; the notice wraps inside its pane.
    const screen = (await h.lines())
      .join(" ")
      .replace(/\x1b\[[0-9;]*m/g, "")
      .replace(/\s+/g, " ");
    expect(screen).toMatch(/! gpt-5 \(openai\) failed \(503/);
    expect(screen).toContain("(anthropic)");
  });

  it("/cost shows tokens and the cost, or says unknown", async () => {
    h = await renderUi(columns, rows);
    h.emit({
      type: "task.updated",
      ...ev,
      task: snapshot({
        model: "gpt-5",
        usage: { prompt: 12_000, completion: 800, cachedPrompt: 8_000, reasoning: 300, costUsd: 0.0141 },
      }),
    });
    h.keys("/cost\r");
    let screen = (await h.lines()).join("\n");
    expect(screen).toContain("Cost");
    expect(screen).toMatch(/input tokens +12,000/);
    expect(screen).toMatch(/cost +\$0\.0141/);
    h.unmount();
    h = await renderUi(columns, rows);
    h.emit({ type: "task.updated", ...ev, task: snapshot({ usage: { prompt: 10, completion: 1, unpriced: true } }) });
    h.keys("/cost\r");
    screen = (await h.lines()).join("\n");
    expect(screen).toMatch(/cost +unknown/);
  });
});

// The bundled model table, config overrides, cost, the compaction window taken from the table,
// and the task snapshot's totals and context gauge that /cost and the status line show.
import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/agent/engine.js";
import { costUsd, knownContextWindow, modelInfo, normaliseModelName } from "../../src/agent/providers/models.js";
import { addUsage, reportedCost, usageEvent } from "../../src/agent/providers/usage.js";
import { TaskManager } from "../../src/agent/tasks.js";
import { CONTEXT_CHAR_BUDGET, contextBudget } from "../../src/agent/compaction.js";
import { Bus } from "../../src/protocol/bus.js";
import type { BusEvent, TaskSnapshot } from "../../src/protocol/events.js";
import { contextLabel, costLines } from "../../src/ui/controller/cost.js";
import type { ModelOutcome } from "../../src/agent/model-client.js";
import { ScriptedClient } from "../helpers/scripted-client.js";
import { testSettings } from "../helpers/settings.js";

describe("the model table", () => {
  it.each([
    ["gpt-5", "gpt-5"],
    ["openai/gpt-5", "gpt-5"],
    ["gpt-4o-2024-11-20", "gpt-4o"],
    ["anthropic/claude-sonnet-4.5", "claude-sonnet-4-5"],
    ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"],
    ["qwen3-coder:30b", "qwen3-coder"],
    ["deepseek-chat", "deepseek-chat"],
    ["models/gemini-2.5-pro", "gemini-2.5-pro"],
  ])("%s is %s", (name, id) => {
    const info = modelInfo(name);
    expect(info).toMatchObject({ id, known: true });
  });

  it("a named variant is not its base model (o3-pro costs more than o3)", () => {
    expect(modelInfo("o3-pro").known).toBe(false);
    expect(normaliseModelName("GPT-5-Latest")).toBe("gpt-5");
  });

  it("an unknown model gets defaults marked unknown, with no price", () => {
    expect(modelInfo("mock-model")).toMatchObject({
      known: false,
      contextWindow: 128_000,
      price: undefined,
      images: false,
    });
  });

  it("config overrides a known model in part and makes an unknown one known", () => {
    const overrides = {
      "gpt-5": { contextWindow: 272_000 },
      "my-local": { contextWindow: 32_000, price: { input: 0, output: 0 }, images: true },
    };
    expect(modelInfo("gpt-5", overrides)).toMatchObject({
      contextWindow: 272_000,
      maxOutput: 128_000,
      price: { input: 1.25, output: 10 },
    });
    expect(modelInfo("my-local", overrides)).toMatchObject({
      known: true,
      contextWindow: 32_000,
      price: { input: 0, output: 0 },
      images: true,
    });
    // A price that names only the output is not enough for an unknown model.
    expect(modelInfo("other", { other: { price: { output: 1 } } }).price).toBeUndefined();
  });
});

describe("cost", () => {
  it("uncached input, cached input, cache writes and output each at their price", () => {
    // gpt-5: 600k fresh * 1.25 + 400k cached * 0.125 + 100k out * 10 = 0.75 + 0.05 + 1.00
    expect(
      costUsd({ prompt: 1_000_000, cachedPrompt: 400_000, completion: 100_000 }, modelInfo("gpt-5").price),
    ).toBeCloseTo(1.8, 10);
    // claude-sonnet-4-5: 100k fresh * 3 + 800k read * 0.3 + 100k written * 3.75 + 10k out * 15
    expect(
      costUsd(
        { prompt: 1_000_000, cachedPrompt: 800_000, cacheWrite: 100_000, completion: 10_000 },
        modelInfo("claude-sonnet-4-5").price,
      ),
    ).toBeCloseTo(0.3 + 0.24 + 0.375 + 0.15, 10);
    expect(costUsd({ prompt: 5, completion: 5 }, undefined)).toBeUndefined();
  });

  it("totals say unknown as soon as one request had no price", () => {
    const total = addUsage(
      { prompt: 0, completion: 0 },
      usageEvent({ prompt: 1_000_000, completion: 0 }, "gpt-5-mini"),
    );
    expect(reportedCost(total)).toBe(0.25);
    addUsage(total, usageEvent({ prompt: 10, completion: 1, reasoning: 1 }, "mock-model"));
    expect(total).toMatchObject({ prompt: 1_000_010, completion: 1, reasoning: 1, unpriced: true });
    expect(reportedCost(total)).toBe("unknown");
  });

  it("the usage event carries the window only for a known model", () => {
    expect(usageEvent({ prompt: 1, completion: 1 }, "claude-haiku-4-5").contextWindow).toBe(200_000);
    expect(usageEvent({ prompt: 1, completion: 1 }, "mock-model").contextWindow).toBeUndefined();
  });
});

describe("compaction uses the table's window when contextWindow is not set", () => {
  const budgetOf = async (over: Parameters<typeof testSettings>[0]) => {
    const agent = await createAgent({
      settings: testSettings(over),
      taskId: "t",
      emit: () => {},
      client: new ScriptedClient([]),
    });
    const budget = (agent as unknown as { opts: { contextBudget: number } }).opts.contextBudget;
    await agent.close();
    return budget;
  };
  it("known, unknown, configured", async () => {
    expect(knownContextWindow("gpt-4o")).toBe(128_000);
    expect(await budgetOf({ model: "gpt-4o" })).toBe(contextBudget(128_000));
    expect(await budgetOf({ model: "mock-model" })).toBe(CONTEXT_CHAR_BUDGET);
    expect(await budgetOf({ model: "mock-model", models: { "mock-model": { contextWindow: 50_000 } } })).toBe(
      contextBudget(50_000),
    );
    expect(await budgetOf({ model: "gpt-4o", contextWindow: 10_000 })).toBe(contextBudget(10_000));
  });
});

describe("a task's totals, context gauge and /cost", () => {
  it("sum every reply's usage with its price and show how full the window is", async () => {
    const withUsage = (usage: {
      prompt: number;
      completion: number;
      cachedPrompt?: number;
      reasoning?: number;
    }): ModelOutcome => ({
      ok: true,
      reply: { content: "ok", reasoning: "", toolCalls: [], finishReason: "stop", usage },
    });
    const client = new ScriptedClient([
      withUsage({ prompt: 100_000, completion: 1_000, cachedPrompt: 60_000, reasoning: 500 }),
      withUsage({ prompt: 300_000, completion: 2_000, cachedPrompt: 100_000 }),
    ]);
    const bus = new Bus();
    const events: BusEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const manager = new TaskManager({
      settings: testSettings({ model: "gpt-5" }),
      bus,
      interactive: true,
      approval: "never",
      client,
    });
    bus.send({ type: "task.create", taskId: "a" });
    for (const text of ["one", "two"]) {
      const before = events.filter((e) => e.type === "turn.completed").length;
      bus.send({ type: "user.submit", taskId: "a", text });
      await vi_waitUntil(() => events.filter((e) => e.type === "turn.completed").length > before);
    }
    const snapshots = events.filter((e): e is Extract<BusEvent, { type: "task.updated" }> => e.type === "task.updated");
    const snapshot: TaskSnapshot = snapshots.at(-1)!.task;
    expect(snapshot.usage).toMatchObject({ prompt: 400_000, completion: 3_000, cachedPrompt: 160_000, reasoning: 500 });
    // (240k fresh * 1.25 + 160k cached * 0.125 + 3k out * 10) / 1M
    expect(snapshot.usage.costUsd).toBeCloseTo(0.3 + 0.02 + 0.03, 10);
    expect(snapshot.context).toEqual({ used: 300_000, window: 400_000 });
    expect(contextLabel(snapshot)).toBe("ctx 75%");
    const lines = costLines(snapshot).join("\n");
    expect(lines).toMatch(/input tokens +400,000/);
    expect(lines).toMatch(/cached +160,000/);
    expect(lines).toMatch(/reasoning +500/);
    expect(lines).toMatch(/cost +\$0\.3500/);
    await manager.shutdown();
  });

  it("an unpriced model's cost is unknown and there is no gauge", () => {
    const snapshot = { model: "mock-model", usage: { prompt: 5, completion: 1, unpriced: true } } as TaskSnapshot;
    expect(contextLabel(snapshot)).toBeNull();
    expect(costLines(snapshot).join("\n")).toMatch(/cost +unknown/);
  });
});

async function vi_waitUntil(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}

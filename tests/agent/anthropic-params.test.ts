// max_tokens and thinking per model and level (pure).
import { describe, expect, it } from "vitest";
import { defaultMaxTokens, thinkingParams } from "../../src/agent/providers/anthropic-params.js";

describe("anthropic request numbers", () => {
  it.each([
    ["claude-sonnet-4-5", 32_000],
    ["claude-opus-4-1-20250805", 32_000],
    ["claude-3-5-haiku-latest", 8_192],
    ["claude-3-opus-20240229", 4_096],
    ["some-proxy-model", 32_000],
  ])("%s gets max_tokens %i by default", (model, max) => {
    expect(defaultMaxTokens(model)).toBe(max);
    expect(thinkingParams(model, "off")).toEqual({ max_tokens: max });
  });

  it.each(["low", "medium", "high"] as const)(
    "thinking %s: a budget of at least 1,024 below max_tokens, growing as the level does",
    (level) => {
      const p = thinkingParams("claude-sonnet-4-5", level);
      if (p.thinking?.type !== "enabled") throw new Error("expected enabled thinking");
      expect(p.thinking.budget_tokens).toBeGreaterThanOrEqual(1_024);
      expect(p.thinking.budget_tokens).toBeLessThan(p.max_tokens);
      expect(p).not.toHaveProperty("temperature");
    },
  );

  it("orders the budgets low < medium < high", () => {
    const budget = (l: "low" | "medium" | "high") => {
      const t = thinkingParams("claude-sonnet-4-5", l).thinking;
      return t?.type === "enabled" ? t.budget_tokens : 0;
    };
    expect(budget("low")).toBeLessThan(budget("medium"));
    expect(budget("medium")).toBeLessThan(budget("high"));
  });

  it("raises a small max_tokens so the budget still fits below it", () => {
    const p = thinkingParams("claude-3-5-sonnet", "high");
    if (p.thinking?.type !== "enabled") throw new Error("expected enabled thinking");
    expect(p.thinking.budget_tokens).toBeLessThan(p.max_tokens);
    expect(p.max_tokens).toBeGreaterThanOrEqual(8_192);
  });

  it("uses adaptive thinking with an effort where manual budgets are deprecated", () => {
    expect(thinkingParams("claude-opus-4-6", "medium")).toEqual({
      max_tokens: 32_000,
      thinking: { type: "adaptive" },
      output_config: { effort: "medium" },
    });
  });
});

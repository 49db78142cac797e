// Token usage with its price: the body of a usage.updated event for one reply, and running totals
// (a task's, a turn's, a one-shot run's) that add such events up.
import type { ModelOverride } from "../../config/schema.js";
import type { ReplyUsage } from "../model-client.js";
import { costUsd, modelInfo } from "./models.js";

/** Sums of usage.updated events; the shape of the protocol's `usage` object. */
export interface UsageTotals {
  prompt: number;
  completion: number;
  cachedPrompt?: number;
  cacheWrite?: number;
  reasoning?: number;
  /** USD of the requests whose price is known. */
  costUsd?: number;
  /** Some request had no known price. */
  unpriced?: boolean;
}

export interface UsageDelta extends UsageTotals {
  model: string;
  contextWindow?: number;
}

/** The usage.updated body for one reply of `model` (config overrides applied to the table). */
export function usageEvent(usage: ReplyUsage, model: string, overrides?: Record<string, ModelOverride>): UsageDelta {
  const info = modelInfo(model, overrides);
  const cost = costUsd(usage, info.price);
  return {
    prompt: usage.prompt,
    completion: usage.completion,
    ...(usage.cachedPrompt !== undefined ? { cachedPrompt: usage.cachedPrompt } : {}),
    ...(usage.cacheWrite !== undefined ? { cacheWrite: usage.cacheWrite } : {}),
    ...(usage.reasoning !== undefined ? { reasoning: usage.reasoning } : {}),
    ...(cost !== undefined ? { costUsd: cost } : { unpriced: true }),
    model,
    ...(info.known ? { contextWindow: info.contextWindow } : {}),
  };
}

/** Adds one event's (or another total's) counts to `total`, in place; returns it. */
export function addUsage(total: UsageTotals, delta: UsageTotals): UsageTotals {
  total.prompt += delta.prompt;
  total.completion += delta.completion;
  if (delta.cachedPrompt) total.cachedPrompt = (total.cachedPrompt ?? 0) + delta.cachedPrompt;
  if (delta.cacheWrite) total.cacheWrite = (total.cacheWrite ?? 0) + delta.cacheWrite;
  if (delta.reasoning) total.reasoning = (total.reasoning ?? 0) + delta.reasoning;
  if (delta.costUsd !== undefined) total.costUsd = (total.costUsd ?? 0) + delta.costUsd;
  if (delta.unpriced) total.unpriced = true;
  return total;
}

/** The cost as a report says it: USD when every request had a price, else "unknown". */
export function reportedCost(total: UsageTotals): number | "unknown" {
  if (total.unpriced) return "unknown";
  return Math.round((total.costUsd ?? 0) * 1e6) / 1e6;
}

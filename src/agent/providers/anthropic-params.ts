// The per-model numbers of an Anthropic request: max_tokens (required by the API) and the
// thinking configuration for a thinking level. Pure; a model-metadata table may feed it later.
import type { MessageCreateParamsBase, OutputConfig, ThinkingConfigParam } from "@anthropic-ai/sdk/resources/messages";
import type { ThinkingLevel } from "../../config/schema.js";

/**
 * max_tokens when nothing else says: Claude 3 models cap output at 4,096 (3.5: 8,192); every
 * later model allows at least 32,000 (Claude Opus 4's limit), which a coding agent's long
 * write_file calls need.
 */
export function defaultMaxTokens(model: string): number {
  if (/claude-3-5-/.test(model)) return 8_192;
  if (/claude-3-(opus|sonnet|haiku)/.test(model)) return 4_096;
  return 32_000;
}

/** Thinking budget per level; the API wants at least 1,024 and less than max_tokens. */
export const THINKING_BUDGETS: Record<Exclude<ThinkingLevel, "off">, number> = {
  low: 4_000,
  medium: 12_000,
  high: 24_000,
};

/** Room kept for the answer and tool calls beyond the thinking budget. */
const ANSWER_ROOM = 4_096;

/**
 * Models on which manual thinking budgets are deprecated in favour of adaptive thinking with an
 * effort level (the SDK warns on stderr for `type: "enabled"` there, which would tear the TUI).
 */
const ADAPTIVE_ONLY = /^claude-(opus-4-6|mythos-preview)/;

export type ThinkingParams = Pick<MessageCreateParamsBase, "max_tokens"> & {
  thinking?: ThinkingConfigParam;
  output_config?: OutputConfig;
};

/**
 * Contract: `max_tokens` is always set; with thinking on, `budget_tokens` is at least 1,024 and
 * below `max_tokens` (max_tokens grows to fit when a small default would not). No temperature is
 * ever sent, so nothing conflicts with thinking (the API refuses temperature with it).
 */
export function thinkingParams(
  model: string,
  level: ThinkingLevel,
  maxTokens = defaultMaxTokens(model),
): ThinkingParams {
  if (level === "off") return { max_tokens: maxTokens };
  if (ADAPTIVE_ONLY.test(model))
    return { max_tokens: maxTokens, thinking: { type: "adaptive" }, output_config: { effort: level } };
  const budget = Math.max(1_024, Math.min(THINKING_BUDGETS[level], maxTokens - ANSWER_ROOM));
  return {
    max_tokens: Math.max(maxTokens, budget + ANSWER_ROOM),
    thinking: { type: "enabled", budget_tokens: budget },
  };
}

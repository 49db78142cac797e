// What NanoHermes knows about common models: context window, output limit, prices per million
// tokens, image and reasoning support. A bundled table (list prices as published by each provider
// in late 2025), overridden by config's "models"; an unknown model gets defaults marked unknown.
import type { ModelOverride } from "../../config/schema.js";

export interface ModelPrice {
  /** USD per million uncached input tokens. */
  input: number;
  /** Per million input tokens read from the prompt cache (default: input). */
  cached?: number;
  /** Per million input tokens written to the prompt cache (Anthropic; default: input). */
  cacheWrite?: number;
  output: number;
}

export interface ModelInfo {
  /** The table entry the name matched, or the name itself when unknown. */
  id: string;
  contextWindow: number;
  maxOutput: number;
  price: ModelPrice | undefined;
  images: boolean;
  reasoning: boolean;
  /** False: not in the table nor in config; the numbers are guesses. */
  known: boolean;
}

type Row = [
  contextWindow: number,
  maxOutput: number,
  price: ModelPrice | undefined,
  images: boolean,
  reasoning: boolean,
];

const p = (input: number, cached: number | undefined, output: number, cacheWrite?: number): ModelPrice => ({
  input,
  output,
  ...(cached !== undefined ? { cached } : {}),
  ...(cacheWrite !== undefined ? { cacheWrite } : {}),
});

/** Keys are lower-case names without a provider prefix or date suffix. */
export const MODEL_TABLE: Readonly<Record<string, Row>> = {
  // OpenAI
  "gpt-5": [400_000, 128_000, p(1.25, 0.125, 10), true, true],
  "gpt-5.1": [400_000, 128_000, p(1.25, 0.125, 10), true, true],
  "gpt-5-codex": [400_000, 128_000, p(1.25, 0.125, 10), true, true],
  "gpt-5.1-codex": [400_000, 128_000, p(1.25, 0.125, 10), true, true],
  "gpt-5.1-codex-mini": [400_000, 128_000, p(0.25, 0.025, 2), true, true],
  "gpt-5-mini": [400_000, 128_000, p(0.25, 0.025, 2), true, true],
  "gpt-5-nano": [400_000, 128_000, p(0.05, 0.005, 0.4), true, true],
  "gpt-4.1": [1_047_576, 32_768, p(2, 0.5, 8), true, false],
  "gpt-4.1-mini": [1_047_576, 32_768, p(0.4, 0.1, 1.6), true, false],
  "gpt-4.1-nano": [1_047_576, 32_768, p(0.1, 0.025, 0.4), true, false],
  "gpt-4o": [128_000, 16_384, p(2.5, 1.25, 10), true, false],
  "gpt-4o-mini": [128_000, 16_384, p(0.15, 0.075, 0.6), true, false],
  o1: [200_000, 100_000, p(15, 7.5, 60), true, true],
  o3: [200_000, 100_000, p(2, 0.5, 8), true, true],
  "o3-mini": [200_000, 100_000, p(1.1, 0.55, 4.4), false, true],
  "o4-mini": [200_000, 100_000, p(1.1, 0.275, 4.4), true, true],
  "gpt-oss-120b": [131_072, 131_072, p(0.15, undefined, 0.75), false, true],
  "gpt-oss-20b": [131_072, 131_072, p(0.1, undefined, 0.5), false, true],
  // Anthropic: cache reads 0.1x input, 5-minute cache writes 1.25x
  "claude-opus-4-5": [200_000, 64_000, p(5, 0.5, 25, 6.25), true, true],
  "claude-opus-4-1": [200_000, 32_000, p(15, 1.5, 75, 18.75), true, true],
  "claude-opus-4": [200_000, 32_000, p(15, 1.5, 75, 18.75), true, true],
  "claude-sonnet-4-5": [200_000, 64_000, p(3, 0.3, 15, 3.75), true, true],
  "claude-sonnet-4": [200_000, 64_000, p(3, 0.3, 15, 3.75), true, true],
  "claude-3-7-sonnet": [200_000, 64_000, p(3, 0.3, 15, 3.75), true, true],
  "claude-haiku-4-5": [200_000, 64_000, p(1, 0.1, 5, 1.25), true, true],
  "claude-3-5-haiku": [200_000, 8_192, p(0.8, 0.08, 4, 1), true, false],
  // Google (prompts up to 200k tokens)
  "gemini-3-pro-preview": [1_048_576, 65_536, p(2, 0.2, 12), true, true],
  "gemini-2.5-pro": [1_048_576, 65_536, p(1.25, 0.125, 10), true, true],
  "gemini-2.5-flash": [1_048_576, 65_536, p(0.3, 0.03, 2.5), true, true],
  "gemini-2.5-flash-lite": [1_048_576, 65_536, p(0.1, 0.01, 0.4), true, true],
  // DeepSeek (its own API; V3.2 prices for both names)
  "deepseek-chat": [128_000, 8_192, p(0.28, 0.028, 0.42), false, false],
  "deepseek-reasoner": [128_000, 64_000, p(0.28, 0.028, 0.42), false, true],
  "deepseek-v3": [128_000, 8_192, p(0.27, 0.07, 1.1), false, false],
  "deepseek-r1": [128_000, 64_000, p(0.55, 0.14, 2.19), false, true],
  // xAI, Mistral
  "grok-4": [256_000, 64_000, p(3, 0.75, 15), true, true],
  "grok-code-fast-1": [256_000, 10_000, p(0.2, 0.02, 1.5), false, true],
  "mistral-large": [131_072, 32_768, p(2, undefined, 6), false, false],
  "devstral-medium": [131_072, 32_768, p(0.4, undefined, 2), false, false],
  codestral: [256_000, 32_768, p(0.3, undefined, 0.9), false, false],
  // Open weights: Groq's prices; the same names run locally (Ollama, vLLM, LM Studio) for free
  "llama-3.3-70b-versatile": [131_072, 32_768, p(0.59, undefined, 0.79), false, false],
  "llama-3.1-8b-instant": [131_072, 131_072, p(0.05, undefined, 0.08), false, false],
  "llama3.3": [131_072, 32_768, undefined, false, false],
  "llama3.1": [131_072, 32_768, undefined, false, false],
  "qwen3-32b": [131_072, 40_960, p(0.29, undefined, 0.59), false, true],
  "qwen3-coder": [262_144, 65_536, undefined, false, false],
  "qwen3-coder-30b-a3b-instruct": [262_144, 65_536, undefined, false, false],
  "qwen3-coder-30b": [262_144, 65_536, undefined, false, false],
  "qwen2.5-coder": [32_768, 8_192, undefined, false, false],
};

/** Defaults for a model the table does not know. */
export const UNKNOWN_MODEL = { contextWindow: 128_000, maxOutput: 8_192, images: false, reasoning: false } as const;

/**
 * The table key for a name as providers spell it: lower case, no "vendor/" prefix (OpenRouter,
 * vLLM), no ":tag" (Ollama), no date or "-latest" suffix, and Claude's "4.5" as "4-5".
 */
export function normaliseModelName(name: string): string {
  let n = name.trim().toLowerCase();
  n = n.slice(n.lastIndexOf("/") + 1);
  n = n.replace(/:[^:]*$/, "");
  n = n.replace(/-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, "");
  if (n.startsWith("claude")) n = n.replace(/(\d)\.(\d)/g, "$1-$2");
  return n;
}

/**
 * The table key for `name`: exact, else the longest key it starts with followed by "-" and a digit
 * (a version or snapshot: gpt-4o-2024-11-20). A named variant (o3-pro, gpt-5-chat) is not its
 * base model: its price differs, so it is unknown rather than wrong.
 */
function tableKey(name: string): string | undefined {
  const n = normaliseModelName(name);
  if (MODEL_TABLE[n]) return n;
  let best: string | undefined;
  for (const key of Object.keys(MODEL_TABLE))
    if (n.startsWith(`${key}-`) && /^\d/.test(n.slice(key.length + 1)) && (!best || key.length > best.length))
      best = key;
  return best;
}

/** What is known about `name`: config's override (by exact name, then by table key) over the table, over defaults. */
export function modelInfo(name: string, overrides: Record<string, ModelOverride> = {}): ModelInfo {
  const key = tableKey(name);
  const row = key ? MODEL_TABLE[key] : undefined;
  const over = overrides[name] ?? (key ? overrides[key] : undefined);
  const base: ModelInfo = row
    ? {
        id: key!,
        contextWindow: row[0],
        maxOutput: row[1],
        price: row[2],
        images: row[3],
        reasoning: row[4],
        known: true,
      }
    : { id: name, ...UNKNOWN_MODEL, price: undefined, known: false };
  if (!over) return base;
  // A partial price refines the table's; it stands alone only when it names input and output.
  const merged: Partial<ModelPrice> = { ...base.price, ...over.price };
  const price = merged.input !== undefined && merged.output !== undefined ? (merged as ModelPrice) : undefined;
  return {
    id: base.id,
    contextWindow: over.contextWindow ?? base.contextWindow,
    maxOutput: over.maxOutput ?? base.maxOutput,
    price,
    images: over.images ?? base.images,
    reasoning: over.reasoning ?? base.reasoning,
    known: base.known || over.contextWindow !== undefined,
  };
}

/** Token counts of one request or a sum of them (the shape of ReplyUsage and usage.updated). */
export interface TokenCounts {
  /** Input tokens in all, cached ones included. */
  prompt: number;
  completion: number;
  cachedPrompt?: number | undefined;
  cacheWrite?: number | undefined;
}

/** USD for `usage` at `price`; undefined when the price is not known. */
export function costUsd(usage: TokenCounts, price: ModelPrice | undefined): number | undefined {
  if (!price) return undefined;
  const cached = usage.cachedPrompt ?? 0;
  const written = usage.cacheWrite ?? 0;
  const fresh = Math.max(0, usage.prompt - cached - written);
  const total =
    fresh * price.input +
    cached * (price.cached ?? price.input) +
    written * (price.cacheWrite ?? price.input) +
    usage.completion * price.output;
  return total / 1_000_000;
}

/** The window compaction may rely on: config's or the table's, never the unknown-model guess. */
export function knownContextWindow(name: string, overrides?: Record<string, ModelOverride>): number | undefined {
  const info = modelInfo(name, overrides);
  return info.known ? info.contextWindow : undefined;
}

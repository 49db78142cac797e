// A provider's model names: its /models list (OpenAI-compatible, Ollama's, Anthropic's), or
// offline the bundled table's models of that provider. Shared by `nanohermes models` and the UI's
// /model picker.
import type { Settings } from "../../config/schema.js";
import { MODEL_TABLE } from "./models.js";

/** Which bundled models a provider serves, when its list cannot be had. */
const FAMILIES: Record<string, RegExp> = {
  openai: /^(gpt-|o\d)/,
  azure: /^(gpt-|o\d)/,
  anthropic: /^claude/,
  google: /^gemini/,
  deepseek: /^deepseek-(chat|reasoner)$/,
  xai: /^grok/,
  mistral: /^(mistral|devstral|codestral)/,
  groq: /^(llama-3|qwen3-32b|gpt-oss)/,
  ollama: /^(llama3|qwen)/,
  vllm: /^(qwen|llama)/,
  lmstudio: /^(qwen|llama)/,
};

const LIST_TIMEOUT_MS = 10_000;
export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** GET the provider's model list: ids in the order given. Anthropic's is {base}/v1/models with its own headers. */
export async function fetchModelIds(
  settings: Pick<Settings, "baseUrl" | "apiKey" | "api" | "azure">,
): Promise<string[]> {
  const base = (settings.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  const anthropic = settings.api === "anthropic";
  const url = anthropic ? `${base}${base.endsWith("/v1") ? "" : "/v1"}/models?limit=1000` : `${base}/models`;
  const headers: Record<string, string> = anthropic
    ? { "anthropic-version": "2023-06-01", ...(settings.apiKey ? { "x-api-key": settings.apiKey } : {}) }
    : settings.apiKey
      ? { authorization: `Bearer ${settings.apiKey}` }
      : {};
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`${res.status} ${res.statusText}`.trim());
  const body = (await res.json()) as { data?: unknown; models?: unknown };
  // OpenAI-compatible: {data: [{id}]}; Ollama's native list: {models: [{name}]}.
  const rows = Array.isArray(body.data) ? body.data : Array.isArray(body.models) ? body.models : null;
  if (!rows) throw new Error("the reply has no model list");
  return rows
    .map((r) =>
      r && typeof r === "object"
        ? ((r as { id?: unknown; name?: unknown }).id ?? (r as { name?: unknown }).name)
        : undefined,
    )
    .filter((id): id is string => typeof id === "string");
}

/** The bundled models for a provider (all of them when it has no family). */
export function bundledModels(provider: string | undefined): string[] {
  const family = provider ? FAMILIES[provider] : undefined;
  return Object.keys(MODEL_TABLE).filter((id) => !family || family.test(id));
}

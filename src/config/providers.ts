// Provider presets as plain data (base URL, key variable, API mode, default model) and the seed's
// order for choosing the API mode. Config-level and free of zod, so `--help` and the agent both use it.
import type { ApiMode } from "./levels.js";

export interface ProviderPreset {
  /** What `--provider` and "provider" take. */
  name: string;
  /** Shown in `nanohermes models` and the README. */
  label: string;
  /** Endpoint root (for OpenAI-compatible ones, ending in /v1); "" when it comes from an environment variable. */
  baseUrl: string;
  /** For Azure: the variable that holds the resource endpoint (https://NAME.openai.azure.com). */
  baseUrlEnv?: string;
  /** The variable holding the API key. */
  apiKeyEnv: string;
  /** Local servers run without a key (one is sent when the variable is set, e.g. vLLM --api-key). */
  keyOptional?: boolean;
  api: ApiMode;
  model: string;
  /** GET {baseUrl}/models lists the models (Azure lists deployments elsewhere). */
  listsModels: boolean;
  /** Tool schemas need the strict subset Google's endpoint accepts (see tool-schemas.ts). */
  schemaDialect?: "gemini";
}

export const providerPresets: readonly ProviderPreset[] = [
  {
    name: "openai",
    label: "OpenAI",
    baseUrl: "https://api.openai.com/v1",
    apiKeyEnv: "OPENAI_API_KEY",
    api: "responses",
    model: "gpt-5",
    listsModels: true,
  },
  {
    name: "anthropic",
    label: "Anthropic",
    baseUrl: "https://api.anthropic.com",
    apiKeyEnv: "ANTHROPIC_API_KEY",
    api: "anthropic",
    model: "claude-sonnet-4-5",
    listsModels: true,
  },
  {
    name: "openrouter",
    label: "OpenRouter",
    baseUrl: "https://openrouter.ai/api/v1",
    apiKeyEnv: "OPENROUTER_API_KEY",
    api: "chat",
    model: "openai/gpt-5",
    listsModels: true,
  },
  {
    name: "deepseek",
    label: "DeepSeek",
    baseUrl: "https://api.deepseek.com/v1",
    apiKeyEnv: "DEEPSEEK_API_KEY",
    api: "chat",
    model: "deepseek-chat",
    listsModels: true,
  },
  {
    name: "groq",
    label: "Groq",
    baseUrl: "https://api.groq.com/openai/v1",
    apiKeyEnv: "GROQ_API_KEY",
    api: "chat",
    model: "llama-3.3-70b-versatile",
    listsModels: true,
  },
  {
    name: "mistral",
    label: "Mistral",
    baseUrl: "https://api.mistral.ai/v1",
    apiKeyEnv: "MISTRAL_API_KEY",
    api: "chat",
    model: "mistral-large-latest",
    listsModels: true,
  },
  {
    name: "xai",
    label: "xAI",
    baseUrl: "https://api.x.ai/v1",
    apiKeyEnv: "XAI_API_KEY",
    api: "chat",
    model: "grok-4",
    listsModels: true,
  },
  {
    name: "google",
    label: "Google (OpenAI-compatible)",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
    apiKeyEnv: "GEMINI_API_KEY",
    api: "chat",
    model: "gemini-2.5-pro",
    listsModels: true,
    schemaDialect: "gemini",
  },
  // The base URL is built from AZURE_OPENAI_ENDPOINT and the deployment (see resolveProvider).
  {
    name: "azure",
    label: "Azure OpenAI",
    baseUrl: "",
    baseUrlEnv: "AZURE_OPENAI_ENDPOINT",
    apiKeyEnv: "AZURE_OPENAI_API_KEY",
    api: "chat",
    model: "gpt-5",
    listsModels: false,
  },
  {
    name: "ollama",
    label: "Ollama (local)",
    baseUrl: "http://127.0.0.1:11434/v1",
    apiKeyEnv: "OLLAMA_API_KEY",
    keyOptional: true,
    api: "chat",
    model: "qwen3-coder",
    listsModels: true,
  },
  {
    name: "vllm",
    label: "vLLM (local)",
    baseUrl: "http://127.0.0.1:8000/v1",
    apiKeyEnv: "VLLM_API_KEY",
    keyOptional: true,
    api: "chat",
    model: "Qwen/Qwen3-Coder-30B-A3B-Instruct",
    listsModels: true,
  },
  {
    name: "lmstudio",
    label: "LM Studio (local)",
    baseUrl: "http://127.0.0.1:1234/v1",
    apiKeyEnv: "LMSTUDIO_API_KEY",
    keyOptional: true,
    api: "chat",
    model: "qwen/qwen3-coder-30b",
    listsModels: true,
  },
];

export const providerNames: readonly string[] = providerPresets.map((p) => p.name);

export function findProvider(name: string): ProviderPreset | undefined {
  return providerPresets.find((p) => p.name === name.toLowerCase());
}

/** Azure's default api-version when config does not name one (GA, supports tools and streaming usage). */
export const AZURE_DEFAULT_API_VERSION = "2024-10-21";

/**
 * The seed's order (Hermes): an explicit mode, then the provider's, then a base-URL heuristic
 * (api.anthropic.com or a path ending in /anthropic: Anthropic Messages; api.openai.com: the
 * Responses API), then chat completions.
 */
export function resolveApiMode(
  explicit: ApiMode | undefined,
  provider: ProviderPreset | undefined,
  baseUrl: string | undefined,
): ApiMode {
  if (explicit) return explicit;
  if (provider) return provider.api;
  if (baseUrl) {
    const url = baseUrl.replace(/\/+$/, "").toLowerCase();
    if (url.includes("api.anthropic.com") || url.endsWith("/anthropic")) return "anthropic";
    if (url.includes("api.openai.com")) return "responses";
  }
  return "chat";
}

/** Azure's per-deployment endpoint: {endpoint}/openai/deployments/{deployment}; the wire adds ?api-version and the api-key header. */
export function azureBaseUrl(endpoint: string, deployment: string): string {
  return `${endpoint.replace(/\/+$/, "")}/openai/deployments/${encodeURIComponent(deployment)}`;
}

/**
 * Why a one-shot run cannot start for want of a key, or null. No provider: a key or a base URL
 * (a local server) is needed, as before presets. A provider: its key variable, unless it is a
 * local one or the base URL was changed (a proxy may hold the key).
 */
export function missingKeyMessage(s: {
  apiKey: string | undefined;
  apiKeyEnv: string;
  baseUrl: string | undefined;
  provider?: string | undefined;
}): string | null {
  if (s.apiKey) return null;
  const preset = s.provider ? findProvider(s.provider) : undefined;
  if (!preset)
    return s.baseUrl
      ? null
      : "no API key: set OPENAI_API_KEY (or name another variable with apiKeyEnv in config.json), or use --base-url for a local server";
  if (preset.keyOptional || (preset.baseUrl !== "" && s.baseUrl !== preset.baseUrl)) return null;
  return `no API key for provider ${preset.name}: set ${s.apiKeyEnv}`;
}

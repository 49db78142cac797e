// What a provider needs on every request besides the base URL and the bearer key.
import type { Settings } from "../../config/schema.js";

/**
 * What a wire must add to its requests besides the base URL and the bearer key, for the openai
 * SDK's `defaultQuery` / `defaultHeaders`: Azure wants `?api-version=` and the key as `api-key`;
 * OpenRouter ranks apps by `X-Title`.
 */
export function endpointExtras(settings: Pick<Settings, "provider" | "azure" | "apiKey">): {
  defaultQuery?: Record<string, string>;
  defaultHeaders?: Record<string, string>;
} {
  if (settings.provider === "azure" && settings.azure) {
    return {
      defaultQuery: { "api-version": settings.azure.apiVersion },
      ...(settings.apiKey ? { defaultHeaders: { "api-key": settings.apiKey } } : {}),
    };
  }
  if (settings.provider === "openrouter") return { defaultHeaders: { "X-Title": "NanoHermes" } };
  return {};
}

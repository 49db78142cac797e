// Whether a model endpoint is set up at all, and what to tell someone who has not set one up: the
// default endpoint needs a key, so with neither a key nor an endpoint nothing is sent anywhere.
import type { Settings } from "./schema.js";

/** No key and no endpoint: a request could only fail (the default endpoint needs a key). */
export function missingCredentials(settings: Pick<Settings, "apiKey" | "baseUrl">): boolean {
  return settings.apiKey === undefined && settings.baseUrl === undefined;
}

/** The first-start hint, in lines of at most 50 columns (it must read well in a narrow pane). */
export function setupHint(settings: Pick<Settings, "apiKeyEnv">): string[] {
  return [
    "No model is set up yet, so nothing is sent.",
    `Set a key:      ${settings.apiKeyEnv}=sk-...`,
    "or an endpoint: OPENAI_BASE_URL=URL or --base-url",
    "or both in ~/.nanohermes/config.json:",
    '  {"baseUrl": "...", "model": "..."}',
    "A local model with Ollama, no key needed:",
    "  ollama serve",
    "  nh --base-url http://127.0.0.1:11434/v1 \\",
    "     -m qwen2.5-coder",
  ];
}

// Whether a model endpoint is set up at all, and what to tell someone who has not set one up:
// with no key where one is needed, nothing is sent anywhere (the endpoint could only refuse it).
import { missingKeyMessage } from "./providers.js";
import type { Settings } from "./schema.js";

type Credentials = Pick<Settings, "apiKey" | "apiKeyEnv" | "baseUrl"> & { provider?: string | undefined };

/** No key where the endpoint needs one (see missingKeyMessage for the provider rules). */
export function missingCredentials(settings: Credentials): boolean {
  return missingKeyMessage(settings) !== null;
}

/** The first-start hint, in lines of at most 50 columns (it must read well in a narrow pane). */
export function setupHint(settings: Credentials): string[] {
  const lead = settings.provider
    ? [
        `No API key for ${settings.provider}, so nothing is sent.`,
        `Set ${settings.apiKeyEnv}=...`,
        "or pick another provider with --provider NAME.",
      ]
    : [
        "No model is set up yet, so nothing is sent.",
        `Set a key:      ${settings.apiKeyEnv}=sk-...`,
        "or a provider:  --provider anthropic|openrouter|…",
        "or an endpoint: OPENAI_BASE_URL=URL or --base-url",
        "or put them in ~/.nanohermes/config.json:",
        '  {"provider": "...", "model": "..."}',
      ];
  return [
    ...lead,
    "A local model with Ollama, no key needed:",
    "  ollama serve",
    "  nh --provider ollama -m qwen2.5-coder",
    "`nh models` lists what a provider offers.",
  ];
}

/** The hint in one line, for the status line and /status: what is missing and what to set. */
export function setupLine(settings: Credentials): string {
  return settings.provider
    ? `no API key for ${settings.provider}: set ${settings.apiKeyEnv}=... (or --provider NAME)`
    : `no model is set up: set ${settings.apiKeyEnv}=sk-..., or OPENAI_BASE_URL=URL, or --provider NAME (see the welcome note)`;
}

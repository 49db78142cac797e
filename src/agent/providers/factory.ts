// The model client for the resolved settings: which wire (API mode) speaks to the endpoint.
// Everything outside src/agent's provider layer sees only the ModelClient interface.
import type { Settings } from "../../config/schema.js";
import { endpointExtras } from "./endpoint-extras.js";
import { type ClientOptions, type ModelClient, type ModelOutcome, modelFailure } from "../model-client.js";
import { OpenAIChatClient } from "./openai-chat.js";

export function clientOptions(settings: Settings): ClientOptions {
  const extras = endpointExtras(settings);
  return {
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    timeoutMs: settings.requestTimeoutMs,
    deadlineMs: settings.requestDeadlineMs,
    waitNoticeMs: settings.waitNoticeMs,
    ...(extras.defaultHeaders ? { headers: extras.defaultHeaders } : {}),
    ...(extras.defaultQuery ? { query: extras.defaultQuery } : {}),
  };
}

/** Contract: one client per agent; it never throws from `complete` (see model-client.ts). */
export function createModelClient(settings: Settings): ModelClient {
  const options = clientOptions(settings);
  switch (settings.api) {
    case "anthropic":
      return loadedOnUse(
        "Anthropic Messages",
        async () => new (await import("./anthropic.js")).AnthropicModelClient(options),
      );
    case "responses":
      return loadedOnUse(
        "Responses",
        async () => new (await import("./openai-responses.js")).OpenAIResponsesClient(options),
      );
    default:
      return new OpenAIChatClient(options);
  }
}

/**
 * A client whose module loads with its first request, so a run in one API mode does not compile
 * the other modes' code before it starts (chat completions, the default, is imported as it is).
 */
function loadedOnUse(mode: string, load: () => Promise<ModelClient>): ModelClient {
  let client: Promise<ModelClient> | undefined;
  return {
    async complete(request, handlers): Promise<ModelOutcome> {
      let loaded: ModelClient;
      try {
        loaded = await (client ??= load());
      } catch (error) {
        client = undefined;
        const message = error instanceof Error ? error.message : String(error);
        return modelFailure(`could not load the ${mode} client: ${message}`, { final: true });
      }
      return loaded.complete(request, handlers);
    },
  };
}

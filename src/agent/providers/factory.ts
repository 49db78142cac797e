// The model client for the resolved settings: which wire (API mode) speaks to the endpoint.
// Everything outside src/agent's provider layer sees only the ModelClient interface.
import type { Settings } from "../../config/schema.js";
import { AnthropicModelClient } from "./anthropic.js";
import { endpointExtras } from "./endpoint-extras.js";
import type { ClientOptions, ModelClient } from "../model-client.js";
import { OpenAIChatClient } from "./openai-chat.js";
import { OpenAIResponsesClient } from "./openai-responses.js";

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
      return new AnthropicModelClient(options);
    case "responses":
      return new OpenAIResponsesClient(options);
    default:
      return new OpenAIChatClient(options);
  }
}

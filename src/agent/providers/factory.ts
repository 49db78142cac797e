// The model client for the resolved settings: which wire (API mode) speaks to the endpoint.
// Everything outside src/agent's provider layer sees only the ModelClient interface.
import type { Settings } from "../../config/schema.js";
import { AnthropicModelClient } from "./anthropic.js";
import { OpenAIModelClient, type ClientOptions, type ModelClient } from "../model-client.js";

export function clientOptions(settings: Settings): ClientOptions {
  return { baseUrl: settings.baseUrl, apiKey: settings.apiKey, timeoutMs: settings.requestTimeoutMs, deadlineMs: settings.requestDeadlineMs, waitNoticeMs: settings.waitNoticeMs };
}

/** Contract: one client per agent; it never throws from `complete` (see model-client.ts). */
export function createModelClient(settings: Settings): ModelClient {
  const options = clientOptions(settings);
  switch (settings.api) {
    case "anthropic":
      return new AnthropicModelClient(options);
    case "chat":
    case "responses":
    default:
      // The Responses API is not spoken yet (issue 19): chat completions stand in for it.
      return new OpenAIModelClient(options);
  }
}

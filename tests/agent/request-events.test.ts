// Model requests as observers see them (issue 32): each attempt — the first, each retry, each
// fallback — is one model.requested / model.responded pair sharing the step's request id, with
// the attempt counted from 1, the failure's error.type, and the reply's usage and finish reason.
import { expect, it } from "vitest";
import type { EventBody } from "../../src/agent/agent-core.js";
import type { ModelClient, ModelOutcome } from "../../src/agent/model-client.js";
import { attemptEvents, errorType, newRequestId } from "../../src/agent/request-events.js";
import { completeWithRetry } from "../../src/agent/retry.js";

const failure = (status: number | undefined, message = "boom"): ModelOutcome => ({
  ok: false,
  error: { status, message, aborted: false, retryAfterMs: undefined },
});
const success: ModelOutcome = {
  ok: true,
  reply: {
    content: "hi",
    reasoning: "",
    toolCalls: [],
    finishReason: "stop",
    usage: { prompt: 12, completion: 3, cachedPrompt: 4 },
  },
};

function scripted(outcomes: ModelOutcome[]): ModelClient & { models: string[] } {
  const models: string[] = [];
  return {
    models,
    complete: async (req) => {
      models.push(req.model);
      return outcomes.shift()!;
    },
  };
}

const request = (model: string) => ({
  model,
  messages: [],
  tools: [],
  stream: true,
  thinking: "off" as const,
  signal: new AbortController().signal,
});

it("two retries and a fallback are four attempts of one request, each opened and closed", async () => {
  const main = scripted([failure(503), failure(503), failure(503)]);
  const backup = scripted([success]);
  const events: EventBody[] = [];
  const requestId = newRequestId();
  const { outcome, model } = await completeWithRetry(
    main,
    request("big"),
    {
      maxRetries: 2,
      baseMs: 0,
      fallbackModel: undefined,
      fallbacks: [{ model: "small", client: backup, provider: "other" }],
      provider: "first",
      onAttempt: attemptEvents((e) => events.push(e), { requestId, api: "chat", purpose: "step" }),
      onRetry: () => {},
      onFallback: () => {},
    },
    { onText: () => {}, onReasoning: () => {} },
  );
  expect(outcome.ok).toBe(true);
  expect(model).toBe("small");
  expect(main.models).toEqual(["big", "big", "big"]);
  expect(
    events.map((e) => [
      e.type,
      "attempt" in e ? e.attempt : 0,
      "model" in e ? e.model : "",
      "errorType" in e ? e.errorType : undefined,
    ]),
  ).toEqual([
    ["model.requested", 1, "big", undefined],
    ["model.responded", 1, "big", "503"],
    ["model.requested", 2, "big", undefined],
    ["model.responded", 2, "big", "503"],
    ["model.requested", 3, "big", undefined],
    ["model.responded", 3, "big", "503"],
    ["model.requested", 4, "small", undefined],
    ["model.responded", 4, "small", undefined],
  ]);
  expect(events.every((e) => "requestId" in e && e.requestId === requestId)).toBe(true);
  expect(events[0]).toMatchObject({ provider: "first", api: "chat", purpose: "step" });
  expect(events[6]).toMatchObject({ provider: "other" });
  expect(events[7]).toMatchObject({ finishReason: "stop", usage: { prompt: 12, completion: 3, cachedPrompt: 4 } });
  expect(events[7]).not.toHaveProperty("error");
  expect(events[1]).toMatchObject({ error: "503 boom" });
});

it("names a failure the way OpenTelemetry's error.type does", () => {
  expect(errorType({ status: 429, message: "x", aborted: false, retryAfterMs: undefined })).toBe("429");
  expect(
    errorType({ status: undefined, message: "no content for 120 s", aborted: false, retryAfterMs: undefined }),
  ).toBe("timeout");
  expect(errorType({ status: undefined, message: "ECONNREFUSED", aborted: false, retryAfterMs: undefined })).toBe(
    "network",
  );
  expect(errorType({ status: 500, message: "stopped", aborted: true, retryAfterMs: undefined })).toBe("aborted");
  expect(newRequestId()).not.toBe(newRequestId());
});

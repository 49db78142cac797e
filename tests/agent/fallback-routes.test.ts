// The fallback list in the retry loop: routes tried in order and once each, 401/403 without
// retries, hard errors and stops not falling back, and other providers' clients made lazily.
import { describe, expect, it } from "vitest";
import { completeWithRetry, type RetryPolicy } from "../../src/agent/retry.js";
import { fallbackRoutes } from "../../src/agent/providers/client.js";
import type { ModelRequest, StreamHandlers } from "../../src/agent/model-client.js";
import { fail, reply, ScriptedClient } from "../helpers/scripted-client.js";
import { testSettings } from "../helpers/settings.js";

const handlers: StreamHandlers = { onText: () => {}, onReasoning: () => {} };
const request = (signal = new AbortController().signal): ModelRequest => ({
  model: "main",
  messages: [{ role: "user", content: "hi" }],
  tools: [],
  stream: true,
  thinking: "off",
  signal,
});

function policy(over: Partial<RetryPolicy>, log: string[]): RetryPolicy {
  return {
    maxRetries: 2,
    baseMs: 0,
    fallbackModel: undefined,
    provider: "openai",
    onRetry: ({ model }) => log.push(`retry ${model}`),
    onFallback: ({ from, to, fromProvider, toProvider }) =>
      log.push(`fallback ${from}@${fromProvider ?? "-"} -> ${to}@${toProvider ?? "same"}`),
    ...over,
  };
}

describe("fallback routes", () => {
  it("after retries run out, each route once and in order; the last one answers", async () => {
    const main = new ScriptedClient([fail(503), fail(503), fail(503), reply("from main's second model")]);
    const other = new ScriptedClient([fail(500)]);
    const log: string[] = [];
    const { outcome, model } = await completeWithRetry(
      main,
      request(),
      policy({ fallbacks: [{ model: "b", client: other, provider: "anthropic" }, { model: "c" }] }, log),
      handlers,
    );
    expect(outcome.ok && outcome.reply.content).toBe("from main's second model");
    expect(model).toBe("c");
    expect(main.requests.map((r) => r.model)).toEqual(["main", "main", "main", "c"]);
    expect(other.requests.map((r) => r.model)).toEqual(["b"]);
    expect(log).toEqual([
      "retry main",
      "retry main",
      "fallback main@openai -> b@anthropic",
      "fallback b@anthropic -> c@openai",
    ]);
  });

  it("401 and 403 skip the retries and go to the next route at once", async () => {
    for (const status of [401, 403]) {
      const main = new ScriptedClient([fail(status)]);
      const other = new ScriptedClient([reply("ok")]);
      const log: string[] = [];
      const { outcome } = await completeWithRetry(
        main,
        request(),
        policy({ maxRetries: 5, fallbacks: [{ model: "b", client: other, provider: "groq" }] }, log),
        handlers,
      );
      expect(outcome.ok).toBe(true);
      expect(main.requests).toHaveLength(1);
      expect(log).toEqual(["fallback main@openai -> b@groq"]);
    }
  });

  it("a hard 400 and a stopped request do not fall back", async () => {
    const other = new ScriptedClient([reply("never")]);
    const hard = await completeWithRetry(
      new ScriptedClient([fail(400)]),
      request(),
      policy({ fallbacks: [{ model: "b", client: other }] }, []),
      handlers,
    );
    expect(hard.outcome.ok).toBe(false);
    const stop = new AbortController();
    stop.abort();
    const stopped = await completeWithRetry(
      new ScriptedClient([fail(503)]),
      request(stop.signal),
      policy({ maxRetries: 0, fallbacks: [{ model: "b", client: other }] }, []),
      handlers,
    );
    expect(stopped.outcome.ok).toBe(false);
    expect(other.requests).toHaveLength(0);
  });

  it("the same model on the same client is skipped; fallbackModel alone still works", async () => {
    const main = new ScriptedClient([fail(502), reply("fb")]);
    const log: string[] = [];
    const { model } = await completeWithRetry(
      main,
      request(),
      policy({ maxRetries: 0, fallbacks: [{ model: "main" }, { model: "fb" }] }, log),
      handlers,
    );
    expect(model).toBe("fb");
    expect(log).toEqual(["fallback main@openai -> fb@same"]);
    const legacy = new ScriptedClient([fail(502), reply("fb")]);
    expect(
      (
        await completeWithRetry(
          legacy,
          request(),
          policy({ maxRetries: 0, fallbackModel: "fb", provider: undefined }, []),
          handlers,
        )
      ).model,
    ).toBe("fb");
  });

  it("another provider's client is made on first use only, with its own endpoint and key", async () => {
    const made: {
      provider: string | undefined;
      baseUrl: string | undefined;
      apiKey: string | undefined;
      model: string;
    }[] = [];
    const settings = testSettings({
      provider: "openai",
      fallback: [
        {
          provider: "openai",
          model: "gpt-5-mini",
          baseUrl: undefined,
          api: "responses",
          apiKey: "o",
          apiKeyEnv: "OPENAI_API_KEY",
          sameEndpoint: true,
        },
        {
          provider: "anthropic",
          model: "claude-haiku-4-5",
          baseUrl: "https://api.anthropic.com",
          api: "anthropic",
          apiKey: "a",
          apiKeyEnv: "ANTHROPIC_API_KEY",
          sameEndpoint: false,
        },
      ],
    });
    const routes = fallbackRoutes(settings, (s) => {
      made.push({ provider: s.provider, baseUrl: s.baseUrl, apiKey: s.apiKey, model: s.model });
      return new ScriptedClient([reply("from anthropic")]);
    });
    expect(routes.map((r) => [r.model, r.provider, Boolean(r.client)])).toEqual([
      ["gpt-5-mini", undefined, false],
      ["claude-haiku-4-5", "anthropic", true],
    ]);
    expect(made).toEqual([]);
    const outcome = await routes[1]!.client!.complete(request(), handlers);
    expect(outcome.ok).toBe(true);
    expect(made).toEqual([
      { provider: "anthropic", baseUrl: "https://api.anthropic.com", apiKey: "a", model: "claude-haiku-4-5" },
    ]);
  });
});

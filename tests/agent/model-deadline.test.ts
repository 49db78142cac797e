// Model requests have deadlines: an idle limit that only content resets (keep-alive comments do
// not), an overall deadline per attempt, "still waiting" reports, and a stop that stays a stop.
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest, StreamHandlers } from "../../src/agent/model-client.js";
import { OpenAIChatClient as OpenAIModelClient } from "../../src/agent/providers/openai-chat.js";
import { completeWithRetry, isRetryable } from "../../src/agent/retry.js";
import type { WaitInfo } from "../../src/agent/watchdog.js";
import { startMockServer, textReply, type MockServer } from "../helpers/mock-openai.js";
import { waitFor } from "../helpers/wait.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function request(signal = new AbortController().signal, stream = true): ModelRequest {
  return { model: "m", messages: [{ role: "user", content: "hi" }], tools: [], stream, thinking: "off", signal };
}

function handlers(waits: WaitInfo[] = [], text: string[] = []): StreamHandlers {
  return { onText: (t) => text.push(t), onReasoning: () => {}, onWaiting: (info) => waits.push(info) };
}

describe("model request deadlines", () => {
  it("ends an attempt whose server only trickles keep-alive comments, and reports the wait meanwhile", async () => {
    server = await startMockServer([textReply("partial answer", { trickleAfterChunks: 2, keepAliveMs: 10 })]);
    const client = new OpenAIModelClient({
      baseUrl: server.url,
      apiKey: "k",
      timeoutMs: 400,
      deadlineMs: 60_000,
      waitNoticeMs: 50,
    });
    const waits: WaitInfo[] = [];
    const outcome = await client.complete(request(), handlers(waits));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.message).toBe("the model sent no content for 400 ms (requestTimeoutMs)");
    expect(outcome.error.aborted).toBe(false);
    // An idle attempt may succeed when sent again.
    expect(isRetryable(outcome.error)).toBe(true);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]).toMatchObject({ idleLimitMs: 400, deadlineMs: 60_000 });
    expect(waits.every((w) => w.idleMs >= 50 && w.idleMs <= w.elapsedMs)).toBe(true);
    // The connection was closed by the client, not left open.
    await waitFor(() => server!.aborted === 1, { what: "server.aborted is 1" });
  });

  it("ends an attempt whose server accepted the request and then hangs (before and after headers)", async () => {
    server = await startMockServer([
      textReply("never", { hangAfterChunks: 0 }),
      { status: 200, delayMs: 60_000, raw: "" },
    ]);
    const client = new OpenAIModelClient({
      baseUrl: server.url,
      apiKey: "k",
      timeoutMs: 300,
      deadlineMs: 60_000,
      waitNoticeMs: 50,
    });
    for (const _ of [1, 2]) {
      const outcome = await client.complete(request(), handlers());
      expect(outcome).toMatchObject({
        ok: false,
        error: { message: "the model sent no content for 300 ms (requestTimeoutMs)", aborted: false },
      });
    }
  });

  it("retries an idle attempt and takes the answer of the next one", async () => {
    server = await startMockServer([textReply("lost", { hangAfterChunks: 1 }), textReply("second try")]);
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "k", timeoutMs: 300, deadlineMs: 60_000 });
    const retries: string[] = [];
    const { outcome } = await completeWithRetry(
      client,
      request(),
      {
        maxRetries: 1,
        baseMs: 0,
        fallbackModel: undefined,
        onRetry: (r) => retries.push(r.error.message),
        onFallback: () => {},
      },
      handlers(),
    );
    expect(outcome).toMatchObject({ ok: true, reply: { content: "second try" } });
    expect(retries).toEqual(["the model sent no content for 300 ms (requestTimeoutMs)"]);
  });

  it("ends an attempt at its overall deadline even while content keeps coming, and does not retry it", async () => {
    server = await startMockServer([textReply("x".repeat(5000), { chunkSize: 1, chunkDelayMs: 5 })]);
    // Long enough for the first content to arrive on a loaded machine; the reply takes 25 s.
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "k", timeoutMs: 10_000, deadlineMs: 1_500 });
    const text: string[] = [];
    const { outcome } = await completeWithRetry(
      client,
      request(),
      { maxRetries: 2, baseMs: 0, fallbackModel: "other", onRetry: () => {}, onFallback: () => {} },
      handlers([], text),
    );
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        message: "the model did not finish its reply within 2 s (requestDeadlineMs)",
        aborted: false,
        final: true,
      },
    });
    expect(text.length).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
  });

  it("counts the body of a whole (non-streamed) reply as content", async () => {
    server = await startMockServer([textReply("whole answer")]);
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "k", timeoutMs: 300, deadlineMs: 60_000 });
    expect(await client.complete(request(undefined, false), handlers())).toMatchObject({
      ok: true,
      reply: { content: "whole answer" },
    });
  });

  it("keeps a stop a stop: aborted, not a timeout, and no wait reported after it", async () => {
    server = await startMockServer([textReply("x", { trickleAfterChunks: 0, keepAliveMs: 10 })]);
    const client = new OpenAIModelClient({
      baseUrl: server.url,
      apiKey: "k",
      timeoutMs: 5_000,
      deadlineMs: 60_000,
      waitNoticeMs: 50,
    });
    const stop = new AbortController();
    const waits: WaitInfo[] = [];
    const outcome = await client.complete(request(stop.signal), {
      ...handlers(),
      onWaiting: (info) => {
        waits.push(info);
        stop.abort();
      },
    });
    expect(outcome).toMatchObject({ ok: false, error: { aborted: true } });
    expect(waits).toHaveLength(1);
  });
});

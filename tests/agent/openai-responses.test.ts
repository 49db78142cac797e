// The Responses API client: our history as input items (table), and replies from the mock's
// Responses wire assembled into ModelReply (text, calls, reasoning items, usage, finish reasons,
// failures as values, abort, keep-alive).
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../../src/agent/model-client.js";
import { OpenAIResponsesClient, responsesBody } from "../../src/agent/providers/openai-responses.js";
import { responsesInput } from "../../src/agent/providers/responses-input.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { startMockServer, textReply, toolReply, type MockServer } from "../helpers/mock-openai.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function request(
  messages: ChatMessage[] = [{ role: "user", content: "hi" }],
  extra: Partial<ModelRequest> = {},
): ModelRequest {
  return {
    model: "m",
    messages,
    tools: [],
    stream: true,
    thinking: "off",
    signal: new AbortController().signal,
    ...extra,
  };
}

function client(url: string, caps = {}) {
  return new OpenAIResponsesClient({ baseUrl: url, apiKey: "k", timeoutMs: 5_000, caps });
}

const quiet = { onText: () => {}, onReasoning: () => {} };

describe("history as Responses input", () => {
  it("maps each message kind to its item, in order", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "be brief" },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAA" } },
        ],
      },
      {
        role: "assistant",
        content: "checking",
        reasoning_content: "kept for the transcript only",
        reasoning_items: [
          { type: "openai.reasoning", id: "rs_1", encrypted_content: "ENC", summary: ["s1"] },
          { type: "anthropic.thinking", thinking: "t", signature: "sig" },
        ],
        tool_calls: [{ id: "call_1", type: "function", function: { name: "ls", arguments: '{"dir":"."}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "a.txt" },
      { role: "system", content: "[compacted]" },
      { role: "assistant", content: "done" },
    ];
    expect(responsesInput(messages)).toEqual({
      instructions: "be brief",
      input: [
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "look" },
            { type: "input_image", image_url: "data:image/png;base64,AAA", detail: "auto" },
          ],
        },
        { type: "reasoning", id: "rs_1", encrypted_content: "ENC", summary: [{ type: "summary_text", text: "s1" }] },
        {
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "checking", annotations: [] }],
        },
        { type: "function_call", call_id: "call_1", name: "ls", arguments: '{"dir":"."}' },
        { type: "function_call_output", call_id: "call_1", output: "a.txt" },
        { type: "message", role: "developer", content: [{ type: "input_text", text: "[compacted]" }] },
        {
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "done", annotations: [] }],
        },
      ],
    });
  });

  it("asks for no stored state, the encrypted reasoning back, and the effort of the thinking level", () => {
    const tools = [
      { type: "function" as const, function: { name: "ls", description: "list", parameters: { type: "object" } } },
    ];
    expect(responsesBody(request(undefined, { tools, thinking: "high" }))).toMatchObject({
      store: false,
      include: ["reasoning.encrypted_content"],
      reasoning: { effort: "high", summary: "auto" },
      tools: [{ type: "function", name: "ls", description: "list", parameters: { type: "object" }, strict: false }],
    });
    expect(responsesBody(request())).not.toHaveProperty("reasoning");
  });
});

describe("the Responses client against the mock", () => {
  it("streams text and reasoning summaries, and returns calls, reasoning items and usage", async () => {
    server = await startMockServer([
      toolReply(
        [
          { id: "call_a", name: "ls", args: { dir: "." } },
          { id: "call_b", name: "read_file", args: { path: "x" } },
        ],
        {
          content: "Looking.",
          reasoning: "plan it",
          encryptedReasoning: "ENC-1",
          usage: { prompt: 50, completion: 20, cached: 40, reasoning: 12 },
        },
      ),
    ]);
    const text: string[] = [];
    const thoughts: string[] = [];
    const outcome = await client(server.url).complete(request(), {
      onText: (t) => text.push(t),
      onReasoning: (t) => thoughts.push(t),
    });
    expect(outcome).toEqual({
      ok: true,
      reply: {
        content: "Looking.",
        reasoning: "plan it",
        toolCalls: [
          { id: "call_a", name: "ls", arguments: '{"dir":"."}' },
          { id: "call_b", name: "read_file", arguments: '{"path":"x"}' },
        ],
        finishReason: "tool_calls",
        usage: { prompt: 50, completion: 20, cachedPrompt: 40, reasoning: 12 },
        reasoningItems: [
          { type: "openai.reasoning", id: "rs_mock_1", encrypted_content: "ENC-1", summary: ["plan it"] },
        ],
      },
    });
    expect(text.join("")).toBe("Looking.");
    expect(thoughts.join("")).toBe("plan it");
    expect(server.requests[0]).toMatchObject({ wire: "responses", body: { store: false, stream: true } });
  });

  it("reads a whole (non-streamed) response the same way", async () => {
    server = await startMockServer([
      toolReply([{ id: "call_w", name: "ls", args: {} }], { reasoning: "r", encryptedReasoning: "ENC-W" }),
    ]);
    const outcome = await client(server.url).complete(request(undefined, { stream: false }), quiet);
    expect(outcome).toMatchObject({
      ok: true,
      reply: {
        toolCalls: [{ id: "call_w", name: "ls", arguments: "{}" }],
        finishReason: "tool_calls",
        reasoningItems: [{ encrypted_content: "ENC-W" }],
      },
    });
    expect(server.requests[0]?.stream).toBe(false);
  });

  it("maps an incomplete response to the length finish", async () => {
    server = await startMockServer([textReply("half", { finishReason: "length" })]);
    expect(await client(server.url).complete(request(), quiet)).toMatchObject({
      ok: true,
      reply: { content: "half", finishReason: "length" },
    });
  });

  it("returns a dropped stream as a retryable failure, and an HTTP error with its status and Retry-After", async () => {
    server = await startMockServer([
      textReply("x".repeat(100), { dropAfterChunks: 5 }),
      { status: 429, headers: { "retry-after": "3" } },
    ]);
    const c = client(server.url);
    const dropped = await c.complete(request(), quiet);
    expect(dropped).toMatchObject({ ok: false, error: { status: undefined, aborted: false } });
    expect(await c.complete(request(), quiet)).toEqual({
      ok: false,
      error: { status: 429, message: "429 mock error 429", aborted: false, retryAfterMs: 3000 },
    });
  });

  it("returns a failed response or an error event as a failure value", async () => {
    const failed = `event: response.failed\ndata: ${JSON.stringify({ type: "response.failed", sequence_number: 0, response: { status: "failed", error: { code: "server_error", message: "boom" }, output: [] } })}\n\n`;
    const errorEvent = `event: error\ndata: ${JSON.stringify({ type: "error", sequence_number: 0, code: "bad", message: "nope" })}\n\n`;
    server = await startMockServer([{ raw: failed }, { raw: errorEvent }]);
    const c = client(server.url);
    expect(await c.complete(request(), quiet)).toMatchObject({
      ok: false,
      error: { message: "the model failed: boom", aborted: false },
    });
    expect(await c.complete(request(), quiet)).toMatchObject({
      ok: false,
      error: { message: "the endpoint sent an error mid-stream: nope" },
    });
  });

  it("ends a request at once on a stop, and cuts an endless answer at the cap", async () => {
    server = await startMockServer([
      textReply("x".repeat(400), { chunkSize: 1, chunkDelayMs: 5 }),
      textReply("start ", { endless: "content", chunkSize: 1000 }),
    ]);
    const stop = new AbortController();
    let seen = 0;
    const aborted = await client(server.url).complete(request(undefined, { signal: stop.signal }), {
      onText: () => ++seen === 3 && stop.abort(),
      onReasoning: () => {},
    });
    expect(aborted).toMatchObject({ ok: false, error: { aborted: true } });
    expect(seen).toBeLessThan(400);
    const cut = await client(server.url, { answerChars: 20_000 }).complete(request(), quiet);
    expect(cut).toMatchObject({ ok: true, reply: { finishReason: "length", cut: { what: "answer", limit: 20_000 } } });
  });

  it("keeps one connection for consecutive requests", async () => {
    server = await startMockServer(() => textReply("again"));
    const c = client(server.url);
    for (let i = 0; i < 4; i++)
      expect(await c.complete(request(), quiet)).toMatchObject({ ok: true, reply: { content: "again" } });
    expect(server.connections).toBe(1);
  });
});

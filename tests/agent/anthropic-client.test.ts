// The Anthropic Messages client against the mock over real HTTP: streamed and whole replies,
// signed thinking, cache usage, error mapping for the retry loop, aborts, limits and keep-alive.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ClientOptions, ModelRequest, StreamHandlers } from "../../src/agent/model-client.js";
import { AnthropicModelClient, sdkBaseUrl } from "../../src/agent/providers/anthropic.js";
import { isRetryable } from "../../src/agent/retry.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import {
  type AnthropicMock,
  type AnthropicResponder,
  startAnthropicMock,
  textReply,
  toolReply,
} from "../helpers/mock-anthropic.js";

let mock: AnthropicMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function setup(script: AnthropicResponder[], over: Partial<ClientOptions> = {}) {
  mock = await startAnthropicMock(script);
  const client = new AnthropicModelClient({ baseUrl: mock.url, apiKey: "sk-ant-test", timeoutMs: 5_000, ...over });
  return { mock, client };
}

const messages: ChatMessage[] = [
  { role: "system", content: "be brief" },
  { role: "user", content: "hi" },
];
const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  model: "claude-test",
  messages,
  tools: [],
  stream: true,
  thinking: "off",
  signal: new AbortController().signal,
  ...over,
});

function recorder(): StreamHandlers & { text: string[]; reasoning: string[] } {
  const text: string[] = [];
  const reasoning: string[] = [];
  return { text, reasoning, onText: (t) => text.push(t), onReasoning: (t) => reasoning.push(t) };
}

describe("AnthropicModelClient", () => {
  it("streams text, signed thinking and parallel tool calls into one reply", async () => {
    const { client } = await setup([
      {
        ...toolReply([
          { id: "toolu_a", name: "read_file", args: { path: "a.txt" } },
          { id: "toolu_b", name: "ls", args: { dir: "." } },
        ]),
        content: "Looking.",
        thinking: [{ text: "plan the reads", signature: "SIG==" }],
        redacted: ["secret"],
      },
    ]);
    const h = recorder();
    const out = await client.complete(request(), h);
    if (!out.ok) throw new Error(out.error.message);
    expect(out.reply.content).toBe("Looking.");
    expect(h.text.join("")).toBe("Looking.");
    expect(out.reply.reasoning).toBe("plan the reads");
    expect(h.reasoning.join("")).toBe("plan the reads");
    expect(out.reply.toolCalls).toEqual([
      { id: "toolu_a", name: "read_file", arguments: '{"path":"a.txt"}' },
      { id: "toolu_b", name: "ls", arguments: '{"dir":"."}' },
    ]);
    expect(out.reply.finishReason).toBe("tool_calls");
    expect(out.reply.reasoningItems).toEqual([
      { type: "anthropic.thinking", thinking: "plan the reads", signature: "SIG==" },
      { type: "anthropic.redacted_thinking", data: "secret" },
    ]);
  });

  it("sends the key as x-api-key only, with anthropic-version, max_tokens and the converted history", async () => {
    const { mock, client } = await setup([textReply("ok")]);
    await client.complete(request(), recorder());
    const req = mock.requests[0]!;
    expect(req.headers["x-api-key"]).toBe("sk-ant-test");
    expect(req.headers.authorization).toBeUndefined();
    expect(req.headers["anthropic-version"]).toBeTruthy();
    expect(req.body.max_tokens).toBe(32_000);
    expect(req.body).not.toHaveProperty("temperature");
    expect(req.body).not.toHaveProperty("thinking");
    expect(req.system).toEqual([{ type: "text", text: "be brief", cache_control: { type: "ephemeral" } }]);
  });

  it("reports usage with cache reads and writes as part of the prompt", async () => {
    const { client } = await setup([
      { ...textReply("x"), usage: { prompt: 10, completion: 5, cacheRead: 900, cacheWrite: 90 } },
    ]);
    const out = await client.complete(request(), recorder());
    if (!out.ok) throw new Error(out.error.message);
    expect(out.reply.usage).toEqual({ prompt: 1_000, completion: 5, cachedPrompt: 900, cacheWrite: 90 });
  });

  it("reads a whole reply when streaming is off", async () => {
    const { mock, client } = await setup([
      { ...toolReply([{ name: "ls", args: { dir: "src" } }]), thinking: [{ text: "t", signature: "s1" }] },
    ]);
    const out = await client.complete(request({ stream: false }), recorder());
    if (!out.ok) throw new Error(out.error.message);
    expect(mock.requests[0]!.stream).toBe(false);
    expect(out.reply.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([["ls", { dir: "src" }]]);
    expect(out.reply.reasoningItems).toEqual([{ type: "anthropic.thinking", thinking: "t", signature: "s1" }]);
    expect(out.reply.finishReason).toBe("tool_calls");
  });

  it("sends thinking with a budget below max_tokens when a level is set", async () => {
    const { mock, client } = await setup([textReply("ok")]);
    await client.complete(request({ thinking: "high" }), recorder());
    const thinking = mock.requests[0]!.body.thinking as { type: string; budget_tokens: number };
    expect(thinking.type).toBe("enabled");
    expect(thinking.budget_tokens).toBeLessThan(mock.requests[0]!.body.max_tokens as number);
  });

  it("sends a tool-loop step whose thinking was lost without thinking, which the API would refuse", async () => {
    const { mock, client } = await setup([textReply("ok")]);
    const loop: ChatMessage[] = [
      ...messages,
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "t1", type: "function", function: { name: "ls", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "t1", content: "a b" },
    ];
    expect((await client.complete(request({ messages: loop, thinking: "high" }), recorder())).ok).toBe(true);
    expect(mock.requests[0]!.body).not.toHaveProperty("thinking");
  });

  it.each([
    ["max_tokens", "length"],
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["refusal", "content_filter"],
    ["pause_turn", "stop"],
  ])("maps stop_reason %s to %s", async (stopReason, finish) => {
    const { client } = await setup([{ ...textReply("x"), stopReason }]);
    const out = await client.complete(request(), recorder());
    expect(out.ok && out.reply.finishReason).toBe(finish);
  });

  it("maps errors for the retry loop: 429 with Retry-After, 529, 401, and an overloaded event mid-stream", async () => {
    const { client } = await setup([
      { status: 429, headers: { "retry-after": "3" } },
      { status: 529 },
      { status: 401 },
      { ...textReply("partial text"), errorAfterEvents: { after: 3, type: "overloaded_error" } },
    ]);
    const results = [];
    for (let i = 0; i < 4; i++) {
      const out = await client.complete(request(), recorder());
      if (out.ok) throw new Error("expected a failure");
      results.push(out.error);
    }
    expect(results.map((e) => [e.status, isRetryable(e)])).toEqual([
      [429, true],
      [529, true],
      [401, false],
      [529, true],
    ]);
    expect(results[0]!.retryAfterMs).toBe(3_000);
    expect(results[1]!.message).toMatch(/overloaded_error/);
    expect(results[2]!.message).toMatch(/^authentication_error: /);
  });

  it("reports malformed replies as failures, whole or streamed", async () => {
    const { client } = await setup([
      { raw: "this is not json" },
      { raw: "event: message_start\ndata: {not json\n\n" },
      { raw: '{"type":"message","content":"oops"}' },
    ]);
    const messages = [];
    for (const stream of [false, true, false]) {
      const out = await client.complete(request({ stream }), recorder());
      if (out.ok) throw new Error("expected a failure");
      messages.push(out.error.message);
    }
    expect(messages[0]).toMatch(/^the reply was not valid JSON/);
    expect(messages[1]).toMatch(/^the reply was not valid JSON/);
    expect(messages[2]).toBe("the reply was not a Messages API message (no content list)");
  });

  it("names the network error of an unreachable endpoint, retryably", async () => {
    // A port that was free a moment ago (fetch refuses well-known ones like 9 before connecting).
    const closed = await startAnthropicMock([]);
    await closed.close();
    const client = new AnthropicModelClient({ baseUrl: closed.url, apiKey: "k", timeoutMs: 5_000 });
    const out = await client.complete(request(), recorder());
    if (out.ok) throw new Error("expected a failure");
    expect(out.error.message).toMatch(/^connection error: connect ECONNREFUSED/);
    expect(isRetryable(out.error)).toBe(true);
  });

  it("fails (retryably) on a stream that drops before message_stop", async () => {
    const { client } = await setup([{ ...textReply("this will be cut off"), chunkSize: 3, dropAfterEvents: 4 }]);
    const out = await client.complete(request(), recorder());
    if (out.ok) throw new Error("expected a failure");
    expect(out.error.aborted).toBe(false);
    expect(isRetryable(out.error)).toBe(true);
  });

  it("ends at once on an abort mid-stream, and the server sees the disconnect", async () => {
    const { mock, client } = await setup([
      { ...textReply("a slow answer that streams for a long time"), chunkSize: 2, chunkDelayMs: 200 },
    ]);
    const stop = new AbortController();
    const h = recorder();
    const pending = client.complete(request({ signal: stop.signal }), {
      ...h,
      onText: (t) => (h.onText(t), stop.abort()),
    });
    const out = await pending;
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.aborted).toBe(true);
    await expect.poll(() => mock.aborted).toBe(1);
  });

  it("ends an attempt that sends nothing for the idle limit, as a retryable failure", async () => {
    const { client } = await setup([{ ...textReply("never"), hangAfterEvents: 2 }], { timeoutMs: 300 });
    const out = await client.complete(request(), recorder());
    if (out.ok) throw new Error("expected a failure");
    expect(out.error.message).toMatch(/sent no content/);
    expect(out.error.aborted).toBe(false);
    expect(isRetryable(out.error)).toBe(true);
  });

  it("ends an attempt at the deadline even while content streams, and marks it not worth retrying", async () => {
    const { client } = await setup([{ ...textReply("slow but steady ".repeat(50)), chunkSize: 2, chunkDelayMs: 20 }], {
      deadlineMs: 300,
    });
    const h = recorder();
    const out = await client.complete(request(), h);
    if (out.ok) throw new Error("expected a failure");
    expect(h.text.length).toBeGreaterThan(0);
    expect(out.error.message).toMatch(/did not finish its reply within/);
    expect(out.error.final).toBe(true);
    expect(isRetryable(out.error)).toBe(false);
  });

  it("cuts a reply at the answer cap", async () => {
    const { client } = await setup([textReply("x".repeat(200))], { caps: { answerChars: 50 } });
    const out = await client.complete(request(), recorder());
    if (!out.ok) throw new Error(out.error.message);
    expect(out.reply.cut).toEqual({ what: "answer", limit: 50 });
    expect(out.reply.content).toHaveLength(50);
    expect(out.reply.finishReason).toBe("length");
  });

  it("keeps the whole signed thinking of a reply cut at the arguments cap", async () => {
    const { client } = await setup(
      [
        {
          ...toolReply([{ name: "write_file", args: { path: "x", content: "y".repeat(500) } }]),
          thinking: [{ text: "write it", signature: "S1" }],
        },
      ],
      { caps: { argumentsChars: 100 } },
    );
    const out = await client.complete(request(), recorder());
    if (!out.ok) throw new Error(out.error.message);
    expect(out.reply.cut).toEqual({ what: "arguments", limit: 100 });
    expect(out.reply.reasoningItems).toEqual([{ type: "anthropic.thinking", thinking: "write it", signature: "S1" }]);
  });

  it("writes nothing to the console, even for models the SDK warns about", async () => {
    const warn = vi.spyOn(console, "warn");
    const error = vi.spyOn(console, "error");
    try {
      const { client } = await setup([textReply("ok"), textReply("ok")]);
      expect((await client.complete(request({ model: "claude-opus-4-5" }), recorder())).ok).toBe(true);
      expect((await client.complete(request({ model: "claude-opus-4-6", thinking: "low" }), recorder())).ok).toBe(true);
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it("reuses its keep-alive connections for consecutive requests", async () => {
    const { mock, client } = await setup([
      textReply("1"),
      textReply("2"),
      textReply("3"),
      textReply("4"),
      textReply("5"),
    ]);
    for (let i = 0; i < 5; i++) expect((await client.complete(request(), recorder())).ok).toBe(true);
    // fetch may open a second socket while the first is being handed back to its pool; never more.
    expect(mock.connections).toBeLessThanOrEqual(2);
  });

  it.each([
    [undefined, "https://api.anthropic.com"],
    ["https://api.anthropic.com/", "https://api.anthropic.com"],
    ["https://proxy.example/anthropic/v1", "https://proxy.example/anthropic"],
  ])("base URL %s is sent as %s", (given, sent) => {
    expect(sdkBaseUrl(given)).toBe(sent);
  });
});

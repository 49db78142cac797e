// Checks the mock model server against the real `openai` SDK and raw bytes, so the e2e
// tests and the benchmark can trust that it speaks the same wire format as the real API.

import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { type MockServer, type Responder, sseParse, startMockServer, textReply, toolReply } from "./mock-openai.js";
import { waitFor } from "./wait.js";

let server: MockServer | undefined;

async function start(script: Parameters<typeof startMockServer>[0]): Promise<{ mock: MockServer; client: OpenAI }> {
  const mock = await startMockServer(script);
  server = mock;
  // logLevel off: the malformed-output test makes the SDK log the unparsable chunk.
  const client = new OpenAI({ apiKey: "x", baseURL: mock.url, maxRetries: 0, logLevel: "off" });
  return { mock, client };
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = [{ role: "user" as const, content: "hi" }];

describe("mock-openai server", () => {
  it("streams text that the SDK reassembles", async () => {
    const { mock, client } = await start([textReply("Hello from the mock model!", { chunkSize: 5 })]);
    const stream = await client.chat.completions.create({ model: "m1", messages: user, stream: true });
    let text = "";
    const finishes: (string | null)[] = [];
    let chunks = 0;
    for await (const chunk of stream) {
      chunks += 1;
      text += chunk.choices[0]?.delta.content ?? "";
      finishes.push(chunk.choices[0]?.finish_reason ?? null);
    }
    expect(text).toBe("Hello from the mock model!");
    expect(chunks).toBe(1 + 6 + 1); // role, ceil(26 / 5) content pieces, finish
    expect(finishes.at(-1)).toBe("stop");
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]?.model).toBe("m1");
    expect(mock.requests[0]?.stream).toBe(true);
    expect(mock.requests[0]?.messages).toEqual(user);
  });

  it("splits tool-call arguments across chunks that reassemble to valid JSON", async () => {
    const args = { path: "src/index.ts", offset: 10, note: "a longer string so it spans chunks" };
    const { mock, client } = await start([
      toolReply(
        [
          { name: "read_file", args },
          { name: "ls", args: { dir: "." } },
        ],
        { reasoning: "think first" },
      ),
    ]);
    const stream = await client.chat.completions.create({
      model: "m",
      messages: user,
      stream: true,
      tools: [{ type: "function", function: { name: "read_file", parameters: { type: "object" } } }],
    });
    const calls: { id: string; name: string; args: string; pieces: number }[] = [];
    let reasoning = "";
    let finish: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      const delta = choice?.delta as { reasoning_content?: string } & OpenAI.Chat.ChatCompletionChunk.Choice.Delta;
      reasoning += delta.reasoning_content ?? "";
      for (const tc of delta.tool_calls ?? []) {
        const call = (calls[tc.index] ??= { id: "", name: "", args: "", pieces: 0 });
        if (tc.id) call.id = tc.id;
        if (tc.function?.name) call.name = tc.function.name;
        if (tc.function?.arguments) {
          call.args += tc.function.arguments;
          call.pieces += 1;
        }
      }
      finish = choice?.finish_reason ?? finish;
    }
    expect(reasoning).toBe("think first");
    expect(finish).toBe("tool_calls");
    expect(calls.map((c) => c.name)).toEqual(["read_file", "ls"]);
    expect(JSON.parse(calls[0]?.args ?? "")).toEqual(args);
    expect(JSON.parse(calls[1]?.args ?? "")).toEqual({ dir: "." });
    expect(calls.every((c) => c.pieces >= 2 && /^call_\d+$/.test(c.id))).toBe(true);
    expect(mock.requests[0]?.tools).toHaveLength(1);
  });

  it("sends a usage chunk only when include_usage is requested", async () => {
    const { client } = await start([
      textReply("abcdefgh"),
      textReply("abcdefgh", { usage: { prompt: 7, completion: 3 } }),
    ]);
    const usages: unknown[] = [];
    for await (const chunk of await client.chat.completions.create({ model: "m", messages: user, stream: true })) {
      if (chunk.usage) usages.push(chunk.usage);
    }
    expect(usages).toEqual([]);

    const stream = await client.chat.completions.create({
      model: "m",
      messages: user,
      stream: true,
      stream_options: { include_usage: true },
    });
    let last: OpenAI.Chat.ChatCompletionChunk | undefined;
    for await (const chunk of stream) last = chunk;
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  });

  it("returns tool_calls with null content when not streaming", async () => {
    const { client } = await start([toolReply([{ id: "call_fixed", name: "grep", args: { pattern: "x" } }])]);
    const res = await client.chat.completions.create({ model: "m", messages: user });
    const message = res.choices[0]?.message;
    expect(res.object).toBe("chat.completion");
    expect(res.choices[0]?.finish_reason).toBe("tool_calls");
    expect(message?.content).toBeNull();
    expect(message?.tool_calls).toEqual([
      { id: "call_fixed", type: "function", function: { name: "grep", arguments: '{"pattern":"x"}' } },
    ]);
    expect(res.usage?.total_tokens).toBeGreaterThan(1);
  });

  it("surfaces an error status as an APIError with that status and headers", async () => {
    const { client } = await start([{ status: 429, headers: { "retry-after": "3" } }]);
    const err: unknown = await client.chat.completions.create({ model: "m", messages: user }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    const apiErr = err as InstanceType<typeof OpenAI.APIError>;
    expect(apiErr.status).toBe(429);
    expect(apiErr.headers?.get("retry-after")).toBe("3");
    expect(apiErr.message).toContain("mock error 429");
  });

  it("sends raw malformed output verbatim", async () => {
    const { client } = await start([
      { raw: "data: {not json\n\n" },
      { raw: "<html>oops</html>", contentType: "text/html" },
    ]);
    const stream = await client.chat.completions.create({ model: "m", messages: user, stream: true });
    await expect(
      (async () => {
        for await (const _ of stream) void _;
      })(),
    ).rejects.toThrow(SyntaxError);
    // A non-JSON body is handed back as text by the SDK instead of a completion object.
    const res: unknown = await client.chat.completions.create({ model: "m", messages: user });
    expect(res).toBe("<html>oops</html>");
  });

  it("answers 500 'mock script exhausted' when the script runs out, and push() refills it", async () => {
    const { mock, client } = await start([textReply("one")]);
    await client.chat.completions.create({ model: "m", messages: user });
    const err: unknown = await client.chat.completions.create({ model: "m", messages: user }).catch((e: unknown) => e);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(500);
    expect(String(err)).toContain("mock script exhausted");
    mock.push(textReply("three"));
    const res = await client.chat.completions.create({ model: "m", messages: user });
    expect(res.choices[0]?.message.content).toBe("three");
    expect(mock.requests).toHaveLength(3);
  });

  it("calls a function script with the recorded request and its index", async () => {
    const seen: number[] = [];
    const script: Responder = (req, index) => {
      seen.push(index);
      return textReply(`echo ${req.messages.length} #${index}`);
    };
    const { client } = await start(script);
    await client.chat.completions.create({ model: "m", messages: user });
    const res = await client.chat.completions.create({ model: "m", messages: [...user, ...user] });
    expect(res.choices[0]?.message.content).toBe("echo 2 #1");
    expect(seen).toEqual([0, 1]);
  });

  it("tracks inFlight and maxInFlight across concurrent delayed requests", async () => {
    const { mock, client } = await start([textReply("a", { delayMs: 300 }), textReply("b", { delayMs: 300 })]);
    const both = Promise.all([
      client.chat.completions.create({ model: "m", messages: user }),
      client.chat.completions.create({ model: "m", messages: user }),
    ]);
    await waitFor(() => mock.inFlight === 2, { what: "mock.inFlight is 2" });
    const replies = await both;
    expect(replies.map((r) => r.choices[0]?.message.content).sort()).toEqual(["a", "b"]);
    await waitFor(() => mock.inFlight === 0, { what: "mock.inFlight is 0" });
    expect(mock.maxInFlight).toBe(2);
    expect(mock.aborted).toBe(0);
  });

  it("counts a client abort of a paced stream and stops writing", async () => {
    const { mock, client } = await start([textReply("x".repeat(400), { chunkSize: 4, chunkDelayMs: 20 })]);
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: "m", messages: user, stream: true },
      { signal: controller.signal },
    );
    let received = 0;
    try {
      for await (const _ of stream) {
        received += 1;
        if (received === 3) controller.abort();
      }
    } catch (err) {
      expect(err).toBeInstanceOf(Error);
    }
    await waitFor(() => mock.aborted === 1, { what: "mock.aborted is 1" });
    expect(mock.inFlight).toBe(0);
    expect(received).toBeLessThan(10);
    // The handler stopped writing at the abort: nothing is in flight the moment the abort counted
    // (100 chunks at 20 ms would keep it in flight for 2 s).
    await mock.close();
  });

  it("cancels a pending delay when the client disconnects before the headers", async () => {
    const { mock, client } = await start([textReply("late", { delayMs: 10_000 })]);
    const controller = new AbortController();
    const pending = client.chat.completions.create({ model: "m", messages: user }, { signal: controller.signal });
    await waitFor(() => mock.requests.length === 1, { what: "mock.requests has 1" });
    controller.abort();
    await expect(pending).rejects.toThrow(OpenAI.APIUserAbortError);
    await waitFor(() => mock.aborted === 1, { what: "mock.aborted is 1" });
    expect(mock.inFlight).toBe(0);
  });

  it("drops the connection mid-stream without [DONE] when asked, not counted as an abort", async () => {
    const { mock, client } = await start([textReply("abcdefghijklmnop", { chunkSize: 4, dropAfterChunks: 3 })]);
    const stream = await client.chat.completions.create({ model: "m", messages: user, stream: true });
    let text = "";
    const consume = async (): Promise<void> => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    };
    await expect(consume()).rejects.toThrow();
    expect(text).toBe("abcdefgh");
    await waitFor(() => mock.inFlight === 0, { what: "mock.inFlight is 0" });
    expect(mock.aborted).toBe(0);
  });

  it("writes SSE bytes exactly like the real API", async () => {
    const { mock } = await start([textReply("hey", { usage: { prompt: 2, completion: 1 } })]);
    const res = await fetch(`${mock.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-x", messages: user, stream: true, stream_options: { include_usage: true } }),
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const body = await res.text();
    expect(body).toMatch(/^(data: \{[^\n]*\}\n\n)+data: \[DONE\]\n\n$/);

    const chunks = sseParse(body);
    const created = (chunks[0] as { created: number }).created;
    const base = { id: "chatcmpl-mock-1", object: "chat.completion.chunk", created, model: "gpt-x" };
    const choice = (delta: object, finish: string | null = null): object => ({
      ...base,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    expect(chunks).toEqual([
      choice({ role: "assistant", content: "" }),
      choice({ content: "hey" }),
      choice({}, "stop"),
      { ...base, choices: [], usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 } },
    ]);
    // Key order matters to byte-level consumers, so check one line verbatim.
    expect(body.split("\n\n")[0]).toBe(
      `data: {"id":"chatcmpl-mock-1","object":"chat.completion.chunk","created":${created},"model":"gpt-x",` +
        `"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
    );
  });

  it("serves /v1/models and 404s unknown routes", async () => {
    const { mock } = await start([]);
    const models = (await (await fetch(`${mock.url}/models`)).json()) as { data: { id: string }[] };
    expect(models.data[0]?.id).toBe("mock-model");
    const missing = await fetch(`${mock.url}/embeddings`, { method: "POST", body: "{}" });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain("no route");
    expect(mock.requests).toHaveLength(0);
  });
});

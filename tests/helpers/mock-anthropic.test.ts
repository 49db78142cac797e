// Checks the Anthropic mock against the real @anthropic-ai/sdk client and raw bytes, so the e2e
// tests can trust that it speaks the Messages wire format the real API speaks.
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AnthropicMock,
  type AnthropicResponder,
  startAnthropicMock,
  textReply,
  toolReply,
} from "./mock-anthropic.js";

let server: AnthropicMock | undefined;

async function start(script: AnthropicResponder[]): Promise<{ mock: AnthropicMock; client: Anthropic }> {
  server = await startAnthropicMock(script);
  return { mock: server, client: new Anthropic({ apiKey: "k", baseURL: server.url, maxRetries: 0, logLevel: "off" }) };
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = [{ role: "user" as const, content: "hi" }];

describe("mock-anthropic server", () => {
  it("streams text that the SDK's own accumulator reassembles", async () => {
    const { mock, client } = await start([textReply("Hello from the mock Claude!", { chunkSize: 5 })]);
    const stream = client.messages.stream({ model: "claude-x", max_tokens: 100, messages: user });
    const deltas: string[] = [];
    stream.on("text", (t) => deltas.push(t));
    const message = await stream.finalMessage();
    expect(message.content).toMatchObject([{ type: "text", text: "Hello from the mock Claude!" }]);
    expect(deltas).toHaveLength(6);
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage.output_tokens).toBeGreaterThan(1);
    expect(mock.requests[0]?.stream).toBe(true);
    expect(mock.requests[0]?.headers["anthropic-version"]).toMatch(/^\d{4}-\d\d-\d\d$/);
  });

  it("splits tool_use input across input_json_delta events and keeps thinking signatures", async () => {
    const args = { path: "src/index.ts", note: "a longer string so it spans several chunks" };
    const { client } = await start([
      {
        ...toolReply([
          { name: "read_file", args },
          { name: "ls", args: { dir: "." } },
        ]),
        thinking: [{ text: "let me look", signature: "SIG+/=" }],
        redacted: ["opaque"],
      },
    ]);
    const stream = client.messages.stream({ model: "m", max_tokens: 100, messages: user });
    const jsonPieces: string[] = [];
    stream.on("inputJson", (piece) => jsonPieces.push(piece));
    const message = await stream.finalMessage();
    expect(message.stop_reason).toBe("tool_use");
    expect(message.content.map((b) => b.type)).toEqual(["thinking", "redacted_thinking", "tool_use", "tool_use"]);
    expect(message.content[0]).toMatchObject({ type: "thinking", thinking: "let me look", signature: "SIG+/=" });
    expect(message.content[1]).toMatchObject({ data: "opaque" });
    expect(message.content[2]).toMatchObject({ name: "read_file", input: args });
    expect(message.content[3]).toMatchObject({ name: "ls", input: { dir: "." } });
    expect(jsonPieces.filter((p) => p !== "").length).toBeGreaterThanOrEqual(4);
  });

  it("sends event: lines in the API's order, with a ping", async () => {
    const { mock } = await start([textReply("hey")]);
    const res = await fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({ model: "m", max_tokens: 10, stream: true, messages: user }),
    });
    const text = await res.text();
    const names = [...text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((m) => {
      expect((JSON.parse(m[2]!) as { type: string }).type).toBe(m[1]);
      return m[1];
    });
    expect(names).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
  });

  it("answers a non-streamed request with a whole message", async () => {
    const { client } = await start([{ ...textReply("whole"), thinking: [{ text: "t", signature: "s" }] }]);
    const message = await client.messages.create({ model: "m", max_tokens: 100, messages: user });
    expect(message.content.map((b) => b.type)).toEqual(["thinking", "text"]);
    expect(message.stop_reason).toBe("end_turn");
  });

  it("sends errors in the API's shape: 429 with retry-after, 529 overloaded, and an error event mid-stream", async () => {
    const { client } = await start([
      { status: 429, headers: { "retry-after": "3" } },
      { status: 529 },
      { ...textReply("never seen in full"), errorAfterEvents: { after: 2, type: "overloaded_error" } },
    ]);
    const e1 = await client.messages.create({ model: "m", max_tokens: 10, messages: user }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(Anthropic.RateLimitError);
    expect((e1 as InstanceType<typeof Anthropic.APIError>).headers?.get("retry-after")).toBe("3");
    expect((e1 as InstanceType<typeof Anthropic.APIError>).type).toBe("rate_limit_error");
    const e2 = await client.messages.create({ model: "m", max_tokens: 10, messages: user }).catch((e: unknown) => e);
    expect(e2).toMatchObject({ status: 529, type: "overloaded_error" });
    const stream = await client.messages.create({ model: "m", max_tokens: 10, messages: user, stream: true });
    const seen: string[] = [];
    const e3 = await (async () => {
      for await (const ev of stream) seen.push(ev.type);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["message_start", "content_block_start"]);
    expect(e3).toBeInstanceOf(Anthropic.APIError);
    expect(e3).toMatchObject({ status: undefined, type: "overloaded_error" });
  });

  it("refuses what the real API refuses: roles that do not alternate, and a fifth cache breakpoint", async () => {
    const { client } = await start([textReply("unused"), textReply("unused")]);
    const twice = [user[0]!, user[0]!];
    await expect(client.messages.create({ model: "m", max_tokens: 10, messages: twice })).rejects.toMatchObject({
      status: 400,
      type: "invalid_request_error",
    });
    const marked = { type: "text" as const, text: "x", cache_control: { type: "ephemeral" as const } };
    const five = {
      model: "m",
      max_tokens: 10,
      system: [marked, marked],
      messages: [{ role: "user" as const, content: [marked, marked, marked] }],
    };
    await expect(client.messages.create(five)).rejects.toMatchObject({ status: 400 });
  });

  it("refuses, with thinking on, a tool loop whose assistant step does not start with its thinking", async () => {
    const { client } = await start([textReply("unused")]);
    const loop = [
      user[0]!,
      { role: "assistant" as const, content: [{ type: "tool_use" as const, id: "t1", name: "ls", input: {} }] },
      { role: "user" as const, content: [{ type: "tool_result" as const, tool_use_id: "t1", content: "x" }] },
    ];
    const err = await client.messages
      .create({ model: "m", max_tokens: 5000, thinking: { type: "enabled", budget_tokens: 2000 }, messages: loop })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, type: "invalid_request_error" });
    expect(String((err as Error).message)).toMatch(/must start with a thinking block/);
  });
});

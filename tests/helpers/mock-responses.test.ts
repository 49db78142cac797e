// Checks the mock server's Responses API wire against the real `openai` SDK (its stream helper
// rebuilds the response from the events and refuses an event out of place), so the tests of the
// Responses client can trust that the mock speaks what the real API sends.
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer, textReply, toolReply } from "./mock-openai.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: Parameters<typeof startMockServer>[0]): Promise<{ mock: MockServer; client: OpenAI }> {
  const mock = await startMockServer(script);
  server = mock;
  return { mock, client: new OpenAI({ apiKey: "x", baseURL: mock.url, maxRetries: 0, logLevel: "off" }) };
}

const input = [{ role: "user" as const, content: "hi" }];

describe("mock-openai server, Responses API", () => {
  it("streams the real event sequence for a text answer, with usage at the end", async () => {
    const { mock, client } = await start([
      textReply("Hello from the mock model!", {
        chunkSize: 5,
        usage: { prompt: 40, completion: 9, cached: 32, reasoning: 3 },
      }),
    ]);
    const types: string[] = [];
    let text = "";
    const seqs: number[] = [];
    for await (const event of await client.responses.create({ model: "m1", input, stream: true, store: false })) {
      types.push(event.type);
      seqs.push(event.sequence_number);
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") {
        expect(event.response.status).toBe("completed");
        expect(event.response.output_text).toBeUndefined(); // a convenience the SDK adds only to whole responses
        expect(event.response.usage).toMatchObject({
          input_tokens: 40,
          output_tokens: 9,
          input_tokens_details: { cached_tokens: 32 },
          output_tokens_details: { reasoning_tokens: 3 },
        });
      }
    }
    expect(text).toBe("Hello from the mock model!");
    expect(types).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      ...Array(6).fill("response.output_text.delta"),
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(seqs).toEqual(types.map((_, i) => i));
    expect(mock.requests[0]).toMatchObject({ wire: "responses", model: "m1", stream: true, messages: input });
  });

  it("builds a final response the SDK's stream helper accepts: reasoning with encrypted content, then calls with split arguments", async () => {
    const args = { path: "src/index.ts", note: "a longer string so it spans chunks" };
    const { client } = await start([
      toolReply(
        [
          { id: "call_a", name: "read_file", args },
          { id: "call_b", name: "ls", args: { dir: "." } },
        ],
        { reasoning: "think first", encryptedReasoning: "ENC-1" },
      ),
    ]);
    const stream = client.responses.stream({
      model: "m",
      input,
      store: false,
      include: ["reasoning.encrypted_content"],
      tools: [{ type: "function", name: "read_file", parameters: { type: "object" }, strict: false }],
    });
    const pieces = new Map<number, number>();
    let summary = "";
    stream.on("response.function_call_arguments.delta", (e) =>
      pieces.set(e.output_index, (pieces.get(e.output_index) ?? 0) + 1),
    );
    stream.on("response.reasoning_summary_text.delta", (e) => (summary += e.delta));
    const final = await stream.finalResponse();
    expect(summary).toBe("think first");
    expect(final.output.map((o) => o.type)).toEqual(["reasoning", "function_call", "function_call"]);
    const [reasoning, a, b] = final.output;
    expect(reasoning).toMatchObject({
      type: "reasoning",
      encrypted_content: "ENC-1",
      summary: [{ type: "summary_text", text: "think first" }],
    });
    expect(a).toMatchObject({ type: "function_call", call_id: "call_a", name: "read_file" });
    expect(b).toMatchObject({ type: "function_call", call_id: "call_b", name: "ls", arguments: '{"dir":"."}' });
    expect(JSON.parse(a?.type === "function_call" ? a.arguments : "")).toEqual(args);
    expect([...pieces.values()].every((n) => n >= 2)).toBe(true);
  });

  it("answers a non-streamed request with one response object", async () => {
    const { client } = await start([textReply("whole answer")]);
    const res = await client.responses.create({ model: "m", input, store: false });
    expect(res.object).toBe("response");
    expect(res.status).toBe("completed");
    expect(res.output_text).toBe("whole answer");
    expect(res.usage?.total_tokens).toBeGreaterThan(1);
  });

  it("ends a reply cut by the token limit as incomplete", async () => {
    const { client } = await start([textReply("cut sho", { finishReason: "length" })]);
    const res = await client.responses.create({ model: "m", input, store: false });
    expect(res.status).toBe("incomplete");
    expect(res.incomplete_details).toEqual({ reason: "max_output_tokens" });
  });

  it("serves the same script on both wires, in arrival order", async () => {
    const { mock, client } = await start([textReply("on chat"), textReply("on responses")]);
    const chat = await client.chat.completions.create({ model: "m", messages: input });
    const res = await client.responses.create({ model: "m", input: "plain", store: false });
    expect([chat.choices[0]?.message.content, res.output_text]).toEqual(["on chat", "on responses"]);
    expect(mock.requests.map((r) => [r.wire, r.messages])).toEqual([
      ["chat", input],
      ["responses", ["plain"]],
    ]);
  });
});

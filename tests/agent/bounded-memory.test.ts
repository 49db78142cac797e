// Bounded memory in the engine: an endless answer or tool-call arguments are cut at a cap with an
// error the model sees, the history keeps capped arguments, a session too big to save trims its
// archive or refuses, tool calls of one step run at most TOOL_CONCURRENCY at once, and repeated
// call ids get unique ones.
import { afterEach, describe, expect, it } from "vitest";
import { Agent, TOOL_CONCURRENCY } from "../../src/agent/agent.js";
import type { ModelClient } from "../../src/agent/model-client.js";
import { OpenAIChatClient as OpenAIModelClient } from "../../src/agent/providers/openai-chat.js";
import { capStoredArguments, uniqueCallIds } from "../../src/agent/history-caps.js";
import { boundSessionSize } from "../../src/session/size-bound.js";
import type { BusEvent } from "../../src/protocol/events.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import * as z from "../../src/protocol/zod.js";
import { defineTool } from "../../src/tools/define.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { newSession } from "../../src/session/store.js";
import { startMockServer, textReply, toolReply, type MockServer } from "../helpers/mock-openai.js";
import { ScriptedClient } from "../helpers/scripted-client.js";
import { testGate } from "../helpers/gate.js";
import { waitFor } from "../helpers/wait.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

let running = 0;
let peak = 0;
const tools = new ToolRegistry([
  defineTool({
    name: "note",
    kind: "read",
    description: "takes a text",
    params: z.object({ text: z.string() }),
    summarize: () => "",
    async run(a) {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return `got ${a.text.length}`;
    },
  }),
]);

function makeAgent(client: ModelClient) {
  const events: BusEvent[] = [];
  const agent = new Agent({
    taskId: "t1",
    settings: {
      workspace: "/tmp",
      model: "m",
      fallbackModel: undefined,
      maxRetries: 0,
      retryBaseMs: 0,
      maxIterations: 5,
      thinking: "off",
      stream: true,
    },
    client,
    tools,
    emit: (e) => events.push(e),
    session: newSession("/tmp", "m"),
    sessionFile: null,
    systemPrompt: "SYSTEM",
    gate: testGate(),
  });
  return { agent, events };
}

function assertValid(messages: ChatMessage[]) {
  const ids = new Set<string>();
  messages.forEach((m, i) => {
    if (m.role !== "assistant" || !m.tool_calls) return;
    const next = messages.slice(i + 1, i + 1 + m.tool_calls.length);
    expect(next.map((r) => (r.role === "tool" ? r.tool_call_id : r.role))).toEqual(m.tool_calls.map((c) => c.id));
    for (const c of m.tool_calls) {
      expect(ids.has(c.id)).toBe(false);
      ids.add(c.id);
    }
  });
}

describe("an endless model stream", () => {
  it("cuts an endless answer at the cap: the stream is closed, the turn ends with an error, the history says so", async () => {
    server = await startMockServer([textReply("start ", { endless: "content", chunkSize: 1000 })]);
    const client = new OpenAIModelClient({
      baseUrl: server.url,
      apiKey: "k",
      timeoutMs: 5_000,
      caps: { answerChars: 50_000 },
    });
    const { agent } = makeAgent(client);
    const result = await agent.run("write forever");
    expect(result.reason).toBe("error");
    expect(result.error).toBe(
      "the model's reply was cut: the answer passed the cap of 50,000 characters and the reply was cut there",
    );
    const last = agent.messages.at(-1)!;
    expect(last.role).toBe("assistant");
    expect(typeof last.content === "string" && last.content.length).toBeLessThan(50_200);
    expect(last.content).toMatch(/\[cut: the answer passed the cap of 50,000 characters/);
    // The client hung up rather than reading on.
    await waitFor(() => server!.aborted === 1, { what: "server.aborted is 1" });
  });

  it("does not run a call whose arguments passed the cap, tells the model, and the turn goes on", async () => {
    server = await startMockServer([
      toolReply([{ name: "note", args: { text: "a" } }], { endless: "arguments", chunkSize: 1000 }),
      textReply("I will write it in parts"),
    ]);
    const client = new OpenAIModelClient({
      baseUrl: server.url,
      apiKey: "k",
      timeoutMs: 5_000,
      caps: { argumentsChars: 20_000 },
    });
    const { agent, events } = makeAgent(client);
    const result = await agent.run("go");
    expect(result).toMatchObject({ reason: "completed", response: "I will write it in parts" });
    const toolMsg = agent.messages.find((m) => m.role === "tool")!;
    expect(toolMsg.content).toMatch(/^error: not run: a tool call's arguments passed the cap of 20,000 characters/);
    expect(events.some((e) => e.type === "tool.completed" && e.status === "error")).toBe(true);
    // The second request carried the error to the model.
    expect(JSON.stringify(server.requests[1]!.messages)).toContain("not run: a tool call");
    assertValid(agent.messages);
  });
});

describe("a whole (non-streamed) reply", () => {
  it("is held to the same caps: an oversized call is not run and the model is told", async () => {
    server = await startMockServer([
      toolReply([{ name: "note", args: { text: "z".repeat(30_000) } }]),
      textReply("smaller then"),
    ]);
    const client = new OpenAIModelClient({
      baseUrl: server.url,
      apiKey: "k",
      timeoutMs: 5_000,
      caps: { argumentsChars: 20_000 },
    });
    const events: BusEvent[] = [];
    const agent = new Agent({
      taskId: "t1",
      settings: {
        workspace: "/tmp",
        model: "m",
        fallbackModel: undefined,
        maxRetries: 0,
        retryBaseMs: 0,
        maxIterations: 5,
        thinking: "off",
        stream: false,
      },
      client,
      tools,
      emit: (e) => events.push(e),
      session: newSession("/tmp", "m"),
      sessionFile: null,
      systemPrompt: "SYSTEM",
      gate: testGate(),
    });
    expect(await agent.run("go")).toMatchObject({ reason: "completed", response: "smaller then" });
    expect(agent.messages.find((m) => m.role === "tool")!.content).toMatch(
      /^error: not run: a tool call's arguments passed the cap of 20,000 characters/,
    );
  });
});

describe("history bounds", () => {
  it("keeps a call's full arguments for the tool but at most the cap in the history", async () => {
    const big = "y".repeat(200_000);
    const client = new ScriptedClient([
      {
        ok: true,
        reply: {
          content: "",
          reasoning: "",
          toolCalls: [{ id: "c1", name: "note", arguments: JSON.stringify({ text: big }) }],
          finishReason: "tool_calls",
          usage: undefined,
        },
      },
      { ok: true, reply: { content: "done", reasoning: "", toolCalls: [], finishReason: "stop", usage: undefined } },
    ]);
    const { agent } = makeAgent(client);
    await agent.run("go");
    expect(agent.messages.find((m) => m.role === "tool")!.content).toBe("got 200000");
    const stored = agent.messages.find((m) => m.role === "assistant" && m.tool_calls)!;
    const args = stored.role === "assistant" ? stored.tool_calls![0]!.function.arguments : "";
    expect(args.length).toBeLessThan(5_000);
    expect((JSON.parse(args) as { text: string }).text).toMatch(
      /^y{1000}…\[199,000 more characters cut from the history\]$/,
    );
  });

  it("capStoredArguments: unchanged when small, a note when not JSON", () => {
    expect(capStoredArguments('{"a":1}', 100)).toBe('{"a":1}');
    expect(JSON.parse(capStoredArguments("x".repeat(500), 100))).toEqual({
      _cut: "arguments of 500 characters were not kept in the history",
    });
  });

  it("trims the oldest archived messages when a session outgrows the save cap, and refuses a live history that alone does not fit", () => {
    const session = newSession("/tmp", "m");
    session.messages = [{ role: "user", content: "x".repeat(1_000) }];
    session.archive = Array.from(
      { length: 10 },
      (_, i): ChatMessage => ({ role: "user", content: `${i}`.repeat(1_000) }),
    );
    expect(boundSessionSize(session, 6_000)).toEqual({ ok: true, droppedArchived: 6, droppedHistory: 0 });
    expect(session.archive[0]).toMatchObject({
      role: "system",
      content: expect.stringMatching(/^\[6 older archived messages were dropped: the session file passed/),
    });
    expect(session.archive.slice(1).map((m) => (m.content as string)[0])).toEqual(["6", "7", "8", "9"]);
    session.messages.push({ role: "user", content: "z".repeat(10_000) });
    const verdict = boundSessionSize(session, 6_000);
    expect(verdict.ok).toBe(false);
  });
});

describe("tool calls of one step", () => {
  it(`run at most ${TOOL_CONCURRENCY} at once, all of them, results in call order`, async () => {
    running = 0;
    peak = 0;
    const calls = Array.from({ length: 40 }, (_, i) => ({
      id: `c${i}`,
      name: "note",
      arguments: JSON.stringify({ text: "x".repeat(i) }),
    }));
    const client = new ScriptedClient([
      {
        ok: true,
        reply: { content: "", reasoning: "", toolCalls: calls, finishReason: "tool_calls", usage: undefined },
      },
      { ok: true, reply: { content: "done", reasoning: "", toolCalls: [], finishReason: "stop", usage: undefined } },
    ]);
    const { agent } = makeAgent(client);
    await agent.run("go");
    expect(peak).toBe(TOOL_CONCURRENCY);
    expect(agent.messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual(
      calls.map((_, i) => `got ${i}`),
    );
  });

  it("get unique ids when the model repeats one, so no result is orphaned", async () => {
    const dup = [
      { id: "same", name: "note", arguments: '{"text":"a"}' },
      { id: "same", name: "note", arguments: '{"text":"bb"}' },
      { id: "", name: "note", arguments: '{"text":"ccc"}' },
    ];
    const client = new ScriptedClient([
      { ok: true, reply: { content: "", reasoning: "", toolCalls: dup, finishReason: "tool_calls", usage: undefined } },
      { ok: true, reply: { content: "done", reasoning: "", toolCalls: [], finishReason: "stop", usage: undefined } },
    ]);
    const { agent } = makeAgent(client);
    await agent.run("go");
    assertValid(agent.messages);
    expect(agent.messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual(["got 1", "got 2", "got 3"]);
    expect(uniqueCallIds([{ id: "a" }, { id: "a" }, { id: "a_1" }], (i) => `a_${i}`).map((c) => c.id)).toEqual([
      "a",
      "a_1",
      "a_2",
    ]);
  });
});

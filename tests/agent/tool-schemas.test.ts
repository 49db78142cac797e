// Tool declarations fitted to the provider: Google's schema subset, and names within 64 characters
// of [a-zA-Z0-9_-] that the engine never sees (a long MCP tool name goes out short and comes back whole).
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent.js";
import type { ModelOutcome } from "../../src/agent/model-client.js";
import {
  geminiParameters,
  safeToolName,
  sanitizeGeminiSchema,
  ToolNameMap,
  withToolSchemas,
} from "../../src/agent/providers/tool-schemas.js";
import type { BusEvent } from "../../src/protocol/events.js";
import * as z from "../../src/protocol/zod.js";
import { newSession } from "../../src/session/store.js";
import { defineTool } from "../../src/tools/define.js";
import { jsonSchemaOf, ToolRegistry } from "../../src/tools/registry.js";
import { ScriptedClient } from "../helpers/scripted-client.js";
import { testGate } from "../helpers/gate.js";

describe("Google's schema subset", () => {
  it("drops what its Schema object refuses, at every level", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      additionalProperties: false,
      properties: {
        path: { type: "string", description: "a file", minLength: 1, examples: ["a.ts"] },
        mode: { type: "integer", enum: [1, 2, 3], exclusiveMinimum: 0 },
        tags: { type: "array", items: { type: "string", const: "x" }, uniqueItems: true },
        bare: { type: "array" },
        maybe: { type: ["string", "null"] },
        nested: {
          type: "object",
          properties: { a: { type: "boolean", default: false } },
          required: ["a", "ghost"],
          additionalProperties: { type: "string" },
        },
        either: { anyOf: [{ type: "string" }, { type: "number", multipleOf: 2 }], oneOf: [] },
      },
      required: ["path", "missing"],
      definitions: { x: {} },
    };
    expect(sanitizeGeminiSchema(schema)).toEqual({
      type: "object",
      properties: {
        path: { type: "string", description: "a file", minLength: 1 },
        mode: { type: "integer", enum: ["1", "2", "3"] },
        tags: { type: "array", items: { type: "string" } },
        bare: { type: "array", items: {} },
        maybe: { type: "string", nullable: true },
        nested: { type: "object", properties: { a: { type: "boolean", default: false } }, required: ["a"] },
        either: { anyOf: [{ type: "string" }, { type: "number" }] },
      },
      required: ["path"],
    });
  });

  it("every built-in kind of parameter schema comes out without refused keys", () => {
    const params = jsonSchemaOf(
      z.object({ path: z.string(), limit: z.optional(z.int()), opts: z.optional(z.record(z.string(), z.string())) }),
    );
    const text = JSON.stringify(geminiParameters(params));
    expect(text).not.toMatch(/additionalProperties|\$schema|propertyNames/);
    expect(geminiParameters(undefined)).toEqual({ type: "object", properties: {} });
  });
});

describe("tool names", () => {
  const long = "mcp__a_server_with_a_rather_long_name__and_a_tool_whose_name_goes_on_and_on";

  it("keeps valid names and fits the rest, deterministically", () => {
    expect(safeToolName("read_file")).toBe("read_file");
    expect(safeToolName("mcp__fs__read")).toBe("mcp__fs__read");
    expect(safeToolName("mcp__my.server__do it")).toBe("mcp__my_server__do_it");
    expect(safeToolName("9lives")).toBe("_9lives");
    const short = safeToolName(long);
    expect(short).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]*$/);
    expect(short.length).toBeLessThanOrEqual(64);
    expect(short.startsWith("mcp__a_server_with_a_rather_long_name__")).toBe(true);
    expect(safeToolName(long)).toBe(short);
    expect(safeToolName(`${long}_2`)).not.toBe(short);
  });

  it("two names that collapse to one stay apart", () => {
    const map = new ToolNameMap(["mcp__s__a.b", "mcp__s__a_b"]);
    expect(map.safe("mcp__s__a.b")).not.toBe(map.safe("mcp__s__a_b"));
    expect(map.real(map.safe("mcp__s__a.b"))).toBe("mcp__s__a.b");
    expect(map.real(map.safe("mcp__s__a_b"))).toBe("mcp__s__a_b");
  });

  it("a long MCP tool name round-trips: the provider sees the short name, the tool runs, the history keeps the real one", async () => {
    const ran: string[] = [];
    const tools = new ToolRegistry([
      defineTool({
        name: long,
        kind: "read",
        description: "a remote tool",
        params: z.object({ q: z.string() }),
        summarize: (a) => a.q,
        run: async (a) => (ran.push(a.q), `found ${a.q}`),
      }),
    ]);
    const short = safeToolName(long);
    const call = (name: string): ModelOutcome => ({
      ok: true,
      reply: {
        content: "",
        reasoning: "",
        toolCalls: [{ id: "c1", name, arguments: '{"q":"x"}' }],
        finishReason: "tool_calls",
        usage: undefined,
      },
    });
    const done: ModelOutcome = {
      ok: true,
      reply: { content: "done", reasoning: "", toolCalls: [], finishReason: "stop", usage: undefined },
    };
    const inner = new ScriptedClient([call(short), done]);
    const events: BusEvent[] = [];
    const agent = new Agent({
      taskId: "t",
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
      client: withToolSchemas(inner, "gemini"),
      tools,
      emit: (e) => events.push(e),
      session: newSession("/tmp", "m"),
      sessionFile: null,
      systemPrompt: "S",
      gate: testGate(),
    });
    const result = await agent.run("go");
    expect(result.response).toBe("done");
    expect(ran).toEqual(["x"]);
    expect(inner.requests[0]!.tools.map((t) => t.function.name)).toEqual([short]);
    expect(JSON.stringify(inner.requests[0]!.tools)).not.toContain("additionalProperties");
    // The second request carries the earlier call under the name the provider knows.
    const sent = inner.snapshots[1]!.find((m) => m.role === "assistant");
    expect(sent?.role === "assistant" && sent.tool_calls?.[0]?.function.name).toBe(short);
    // The engine's own history and events use the real name.
    const kept = agent.messages.find((m) => m.role === "assistant");
    expect(kept?.role === "assistant" && kept.tool_calls?.[0]?.function.name).toBe(long);
    expect(events.find((e) => e.type === "tool.started")).toMatchObject({ name: long });
  });

  it("valid names and no dialect: the request goes through untouched", async () => {
    const inner = new ScriptedClient([
      { ok: true, reply: { content: "hi", reasoning: "", toolCalls: [], finishReason: "stop", usage: undefined } },
    ]);
    const request = {
      model: "m",
      messages: [],
      tools: [
        {
          type: "function" as const,
          function: { name: "read_file", description: "", parameters: { type: "object", additionalProperties: false } },
        },
      ],
      stream: true,
      thinking: "off" as const,
      signal: new AbortController().signal,
    };
    await withToolSchemas(inner, undefined).complete(request, { onText: () => {}, onReasoning: () => {} });
    expect(inner.requests[0]).toBe(request);
  });
});

describe("endpoint extras for the wire", () => {
  it("Azure gets api-version and api-key; others nothing or a title", async () => {
    const { endpointExtras } = await import("../../src/agent/providers/endpoint-extras.js");
    expect(
      endpointExtras({ provider: "azure", azure: { deployment: "d", apiVersion: "2024-10-21" }, apiKey: "az" }),
    ).toEqual({ defaultQuery: { "api-version": "2024-10-21" }, defaultHeaders: { "api-key": "az" } });
    expect(endpointExtras({ provider: "openrouter", apiKey: "k" })).toEqual({
      defaultHeaders: { "X-Title": "NanoHermes" },
    });
    expect(endpointExtras({ provider: undefined, apiKey: "k" })).toEqual({});
  });
});

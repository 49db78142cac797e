// Our chat history as an Anthropic Messages request (pure): roles, blocks, thinking, images, caching.
import { describe, expect, it } from "vitest";
import {
  CONTINUE_NOTE,
  loopLacksThinking,
  toAnthropic,
  toolInput,
} from "../../src/agent/providers/anthropic-messages.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import type { OpenAITool } from "../../src/tools/registry.js";

const tool = (name: string): OpenAITool => ({
  type: "function",
  function: { name, description: `does ${name}`, parameters: { type: "object", properties: {} } },
});
const call = (id: string, name: string, args: string) => ({
  id,
  type: "function" as const,
  function: { name, arguments: args },
});

const history: ChatMessage[] = [
  { role: "system", content: "You are NanoHermes." },
  { role: "user", content: "look at two files" },
  {
    role: "assistant",
    content: "Reading both.",
    reasoning_content: "kept for the transcript only",
    reasoning_items: [
      { type: "anthropic.thinking", thinking: "I should read a and b", signature: "SIG/a+b==" },
      { type: "anthropic.redacted_thinking", data: "opaque" },
      { type: "openai.reasoning", id: "rs_1", encrypted_content: "other wire" },
    ],
    tool_calls: [call("toolu_1", "read_file", '{"path":"a"}'), call("toolu_2", "read_file", '{"path":"b"}')],
  },
  { role: "tool", tool_call_id: "toolu_1", content: "A" },
  { role: "tool", tool_call_id: "toolu_2", content: "" },
  { role: "user", content: "and hurry" },
];

describe("toAnthropic", () => {
  it("sends the system prompt as blocks and tools with input_schema", () => {
    const p = toAnthropic(history, [tool("read_file"), tool("ls")]);
    expect(p.system).toEqual([{ type: "text", text: "You are NanoHermes.", cache_control: { type: "ephemeral" } }]);
    expect(p.tools.map((t) => [t.name, t.description, t.input_schema.type])).toEqual([
      ["read_file", "does read_file", "object"],
      ["ls", "does ls", "object"],
    ]);
  });

  it("sends signed thinking back first and unchanged, then text and tool_use with parsed input", () => {
    const { messages } = toAnthropic(history, []);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(messages[1]!.content).toEqual([
      { type: "thinking", thinking: "I should read a and b", signature: "SIG/a+b==" },
      { type: "redacted_thinking", data: "opaque" },
      { type: "text", text: "Reading both." },
      { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a" } },
      { type: "tool_use", id: "toolu_2", name: "read_file", input: { path: "b" } },
    ]);
    expect(JSON.stringify(messages)).not.toContain("kept for the transcript only");
    expect(JSON.stringify(messages)).not.toContain("other wire");
  });

  it("merges consecutive tool results and a following user message into one user turn, results first", () => {
    const { messages } = toAnthropic(history, []);
    const blocks = messages[2]!.content as { type: string }[];
    expect(blocks.map((b) => b.type)).toEqual(["tool_result", "tool_result", "text"]);
    expect(blocks[0]).toMatchObject({ tool_use_id: "toolu_1", content: "A" });
    expect(blocks[1]).toMatchObject({ tool_use_id: "toolu_2", content: "(no output)" });
  });

  it("puts tool results before user text even when the text came first", () => {
    const h: ChatMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [call("t1", "ls", "{}")] },
      { role: "user", content: "meanwhile" },
      { role: "tool", tool_call_id: "t1", content: "x" },
    ];
    const blocks = toAnthropic(h, []).messages[2]!.content as { type: string }[];
    expect(blocks.map((b) => b.type)).toEqual(["tool_result", "text"]);
  });

  it("maps call ids from other wires to the characters the API accepts, on both sides of a pair", () => {
    const h: ChatMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [call("fc.1:a", "ls", "{}")] },
      { role: "tool", tool_call_id: "fc.1:a", content: "x" },
    ];
    const { messages } = toAnthropic(h, []);
    expect(messages[1]!.content).toMatchObject([{ type: "tool_use", id: "fc_1_a" }]);
    expect(messages[2]!.content).toMatchObject([{ type: "tool_result", tool_use_id: "fc_1_a" }]);
  });

  it.each([
    ['{"a":1}', { a: 1 }],
    ["{not json", {}],
    ["[1,2]", {}],
    ["null", {}],
    ['"text"', {}],
    ["", {}],
  ])("tool input %j becomes %j", (args, input) => {
    expect(toolInput(args)).toEqual(input);
  });

  it("turns data: URLs into base64 image blocks and other URLs into url sources", () => {
    const h: ChatMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "what is this?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
        ],
      },
    ];
    expect(toAnthropic(h, []).messages[0]!.content).toEqual([
      { type: "text", text: "what is this?" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      {
        type: "image",
        source: { type: "url", url: "https://example.com/cat.jpg" },
        cache_control: { type: "ephemeral" },
      },
    ]);
  });

  it("drops empty turns, merges same-role neighbours and starts with a user turn", () => {
    const h: ChatMessage[] = [
      { role: "system", content: "sys" },
      { role: "system", content: "summary of earlier work" },
      { role: "assistant", content: "I was working." },
      { role: "assistant", content: "   " },
      { role: "assistant", content: "Still am." },
      { role: "user", content: "" },
      { role: "user", content: "ok" },
    ];
    const p = toAnthropic(h, []);
    expect(p.system.map((b) => b.text)).toEqual(["sys", "summary of earlier work"]);
    expect(p.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(p.messages[0]!.content).toMatchObject([{ text: CONTINUE_NOTE }]);
    expect(p.messages[1]!.content).toEqual([
      { type: "text", text: "I was working." },
      { type: "text", text: "Still am." },
    ]);
  });

  it("marks at most four breakpoints: last system block, last tool, last two user turns", () => {
    const long: ChatMessage[] = [
      ...history,
      { role: "assistant", content: "done" },
      { role: "user", content: "more" },
      { role: "assistant", content: "ok" },
      { role: "user", content: "last" },
    ];
    const p = toAnthropic(long, [tool("a"), tool("b")]);
    const marked = JSON.stringify(p).match(/cache_control/g) ?? [];
    expect(marked).toHaveLength(4);
    expect(p.tools[0]!.cache_control).toBeUndefined();
    expect(p.tools[1]!.cache_control).toEqual({ type: "ephemeral" });
    const userTurns = p.messages
      .filter((m) => m.role === "user")
      .map((m) => JSON.stringify(m).includes("cache_control"));
    expect(userTurns).toEqual([false, false, true, true]);
    // Without system and tools, still only the last two user turns.
    const bare = toAnthropic(long.slice(1), []);
    expect(JSON.stringify(bare).match(/cache_control/g)).toHaveLength(2);
  });

  it("leaves the history it was given unchanged", () => {
    const copy = structuredClone(history);
    toAnthropic(history, [tool("x")]);
    expect(history).toEqual(copy);
  });

  it.each([
    [
      "a tool loop whose step has no signed thinking",
      [
        { role: "user", content: "go" },
        { role: "assistant", content: null, tool_calls: [call("t", "ls", "{}")] },
        { role: "tool", tool_call_id: "t", content: "x" },
      ],
      true,
    ],
    ["a tool loop whose step has signed thinking", history.slice(0, 5), false],
    [
      "a step with redacted thinking only",
      [
        {
          role: "assistant",
          content: null,
          reasoning_items: [{ type: "anthropic.redacted_thinking", data: "d" }],
          tool_calls: [call("t", "ls", "{}")],
        },
        { role: "tool", tool_call_id: "t", content: "x" },
      ],
      false,
    ],
    ["a new user turn", history, false],
    ["a first request", [{ role: "user", content: "hi" }], false],
  ] as [string, ChatMessage[], boolean][])("loopLacksThinking: %s -> %s", (_name, h, expected) => {
    expect(loopLacksThinking(h)).toBe(expected);
  });
});

// The distillation prompt (what it asks, what it includes, its caps) and the tolerant reader of
// the model's answer.
import { describe, expect, it } from "vitest";
import {
  DISTILL_TURN_CHARS,
  MAX_DISTILLED,
  distillRequest,
  parseDistilled,
  renderTurn,
} from "../../src/memory/distill.js";
import { MAX_MEMORY_TEXT, type MemoryEntry } from "../../src/memory/store.js";
import { memoryBlock } from "../../src/memory/tools.js";
import type { ChatMessage } from "../../src/protocol/messages.js";

const entry = (text: string, updatedAt = "2025-01-01T00:00:00Z"): MemoryEntry => ({
  id: text.slice(0, 4),
  kind: "preference",
  text,
  createdAt: updatedAt,
  updatedAt,
});

const turn: ChatMessage[] = [
  {
    role: "user",
    content: `No, use pnpm here, never npm.\n\n${memoryBlock([{ entry: entry("RETRIEVED NOTE"), score: 1 }])}`,
  },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      {
        id: "c1",
        type: "function",
        function: { name: "run_command", arguments: JSON.stringify({ command: "pnpm install" }) },
      },
    ],
  },
  { role: "tool", tool_call_id: "c1", content: "added 12 packages" },
  { role: "assistant", content: "Installed with pnpm." },
];

describe("distillRequest", () => {
  it("asks for at most three durable memories as JSON, corrections and preferences first", () => {
    const [system, user] = distillRequest(turn, []);
    expect(system!.role).toBe("system");
    const prompt = system!.content as string;
    expect(prompt).toContain(`at most ${MAX_DISTILLED}`);
    expect(prompt).toMatch(/correction[\s\S]*first/);
    expect(prompt).toMatch(/transient/);
    expect(prompt).toMatch(/secret/);
    expect(prompt).toContain('{"memories": []}');
    expect(prompt).toContain('"kind"');
    expect(user!.role).toBe("user");
  });

  it("includes the turn (user words, tool calls and results) without the retrieved memories", () => {
    const user = distillRequest(turn, [])[1]!.content as string;
    expect(user).toContain("User: No, use pnpm here, never npm.");
    expect(user).toContain('Assistant called run_command({"command":"pnpm install"})');
    expect(user).toContain("Tool result: added 12 packages");
    expect(user).toContain("Assistant: Installed with pnpm.");
    expect(user).not.toContain("RETRIEVED NOTE");
    expect(user).not.toContain("<memories>");
    expect(user).toContain("(none yet)");
  });

  it("lists existing memories, newest first and capped, so they are not repeated", () => {
    const existing = Array.from({ length: 100 }, (_, i) =>
      entry(`existing note ${i}`, `2025-01-01T00:00:${String(i % 60).padStart(2, "0")}Z`),
    );
    const user = distillRequest(turn, [entry("Use pnpm, never npm"), ...existing])[1]!.content as string;
    expect(user).toContain("- [preference] existing note 59");
    const listed = user.split("\n").filter((l) => l.startsWith("- [preference]"));
    expect(listed.length).toBeLessThanOrEqual(40);
    expect(listed.length).toBeGreaterThan(10);
  });

  it("caps a long turn, keeping its start and its end", () => {
    const long: ChatMessage[] = [
      { role: "user", content: `START of the request ${"x".repeat(20_000)}` },
      { role: "assistant", content: `${"y".repeat(20_000)} END of the answer` },
    ];
    const text = renderTurn(long);
    expect(text.length).toBeLessThanOrEqual(DISTILL_TURN_CHARS + 100);
    expect(text.startsWith("User: START of the request")).toBe(true);
    expect(text.endsWith("END of the answer")).toBe(true);
    expect(text).toMatch(/characters of the turn left out/);
    const user = distillRequest(long, [])[1]!.content as string;
    expect(user.length).toBeLessThan(DISTILL_TURN_CHARS + 2_000);
  });

  it("clips one huge tool result so the conversation around it survives", () => {
    const text = renderTurn([
      { role: "user", content: "check the log" },
      { role: "tool", tool_call_id: "c", content: "z".repeat(50_000) },
      { role: "user", content: "Actually, always tail logs instead of reading them whole" },
    ]);
    expect(text.length).toBeLessThan(2_000);
    expect(text).toContain("always tail logs");
  });
});

describe("parseDistilled", () => {
  it.each([
    [
      "plain JSON",
      '{"memories": [{"kind": "correction", "text": "Use pnpm, not npm"}]}',
      [{ kind: "correction", text: "Use pnpm, not npm" }],
    ],
    [
      "in a json fence",
      'Here you go:\n```json\n{"memories": [{"kind": "preference", "text": "Short answers"}]}\n```\nDone.',
      [{ kind: "preference", text: "Short answers" }],
    ],
    [
      "in a bare fence",
      '```\n{"memories":[{"kind":"fact","text":"Uses Postgres 16"}]}\n```',
      [{ kind: "fact", text: "Uses Postgres 16" }],
    ],
    [
      "with prose around it",
      'Sure! {"memories": [{"kind": "lesson", "text": "Braces } in strings { are fine"}]} Hope that helps.',
      [{ kind: "lesson", text: "Braces } in strings { are fine" }],
    ],
    [
      "a bare array",
      '[{"kind": "fact", "text": "Deploys on Fridays are banned"}]',
      [{ kind: "fact", text: "Deploys on Fridays are banned" }],
    ],
    [
      "kinds in another case, texts trimmed",
      '{"memories": [{"kind": " Correction ", "text": "  No emojis in commits  "}]}',
      [{ kind: "correction", text: "No emojis in commits" }],
    ],
    ["nothing to remember", '{"memories": []}', []],
    ["empty output", "", []],
    ["prose only", "Nothing worth remembering this time.", []],
    ["broken JSON", '{"memories": [{"kind": "fact", "text": "cut off', []],
    ["the wrong shape", '{"memories": "none"}', []],
    ["not even an object", "42", []],
  ])("%s", (_name, text, want) => {
    expect(parseDistilled(text)).toEqual(want);
  });

  it("drops invalid kinds, empty texts, non-strings and repeats, and keeps at most three", () => {
    const out = parseDistilled(
      JSON.stringify({
        memories: [
          { kind: "secret", text: "nope" },
          { kind: "fact", text: "   " },
          { kind: "fact", text: 42 },
          null,
          "fact: a string",
          { kind: "fact", text: "One" },
          { kind: "lesson", text: "one." },
          { kind: "lesson", text: "Two" },
          { kind: "preference", text: "Three" },
          { kind: "fact", text: "Four" },
        ],
      }),
    );
    expect(out).toEqual([
      { kind: "fact", text: "One" },
      { kind: "lesson", text: "Two" },
      { kind: "preference", text: "Three" },
    ]);
  });

  it("cuts texts to the memory size limit", () => {
    const [only] = parseDistilled(
      JSON.stringify({ memories: [{ kind: "fact", text: "字".repeat(MAX_MEMORY_TEXT + 50) }] }),
    );
    expect(only!.text).toHaveLength(MAX_MEMORY_TEXT);
  });

  it("prefers the memories object over an earlier stray array", () => {
    expect(parseDistilled('Considered [1, 2] but: {"memories": [{"kind": "fact", "text": "x1"}]}')).toEqual([
      { kind: "fact", text: "x1" },
    ]);
  });
});

import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { registerSecret } from "../../src/config/log.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { exportSessions, toShareGpt, type ShareGptRecord } from "../../src/session/sharegpt.js";
import type { SessionData } from "../../src/session/store.js";

const SECRET = "ghp_SHAREGPT-SECRET-987654";
registerSecret(SECRET);

function session(messages: ChatMessage[], id = "s1"): SessionData {
  return {
    version: 1,
    id,
    createdAt: "2026-11-01T10:00:00.000Z",
    updatedAt: "2026-11-02T11:30:00.000Z",
    workspace: "/w",
    model: "test-model",
    messages,
  };
}

const call = (id: string, name: string, args: string) => ({
  id,
  type: "function" as const,
  function: { name, arguments: args },
});

/** Two turns: the first ends with a final answer, the second stops after a tool result. */
const twoTurns: ChatMessage[] = [
  { role: "system", content: "You are NanoHermes." },
  { role: "system", content: "Summary of earlier work: set up the repo." },
  {
    role: "user",
    content: [
      { type: "text", text: "What is in this screenshot?" },
      { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
    ],
  },
  {
    role: "assistant",
    content: "Let me look.",
    reasoning_content: "Read the file first.",
    tool_calls: [call("c1", "read_file", '{"path":"a.txt"}'), call("c2", "list_dir", "not json")],
  },
  { role: "tool", tool_call_id: "c1", content: `token=${SECRET}` },
  { role: "tool", tool_call_id: "c2", content: "a.txt\nb.txt" },
  { role: "assistant", content: "A login form." },
  { role: "user", content: "Now run the tests" },
  { role: "assistant", content: null, tool_calls: [call("c3", "run_command", '{"command":"npm test"}')] },
  { role: "tool", tool_call_id: "c3", content: "[interrupted]" },
];

describe("toShareGpt", () => {
  it("maps roles, renders tool calls and grouped results, images and reasoning", () => {
    const [record] = toShareGpt(session(twoTurns));
    expect(record).toMatchObject({
      timestamp: "2026-11-02T11:30:00.000Z",
      model: "test-model",
      session: "s1",
      completed: false,
    });
    expect(record!.conversations.map((c) => c.from)).toEqual([
      "system",
      "system",
      "human",
      "gpt",
      "tool",
      "gpt",
      "human",
      "gpt",
      "tool",
    ]);
    const c = record!.conversations;
    expect(c[2]!.value).toBe("What is in this screenshot?\n[image]");
    expect(c[3]!.value).toBe(
      '<think>\nRead the file first.\n</think>\nLet me look.\n<tool_call>\n{"name":"read_file","arguments":{"path":"a.txt"}}\n</tool_call>\n<tool_call>\n{"name":"list_dir","arguments":"not json"}\n</tool_call>',
    );
    const responses = [...c[4]!.value.matchAll(/<tool_response>\n(.*)\n<\/tool_response>/g)].map(
      (m) => JSON.parse(m[1]!) as unknown,
    );
    expect(responses).toEqual([
      { tool_call_id: "c1", name: "read_file", content: "token=[redacted]" },
      { tool_call_id: "c2", name: "list_dir", content: "a.txt\nb.txt" },
    ]);
    expect(c[7]!.value).toBe('<tool_call>\n{"name":"run_command","arguments":{"command":"npm test"}}\n</tool_call>');
  });

  it("is completed when the last turn ends with an answer that calls no tools", () => {
    const done = twoTurns.slice(0, 7);
    expect(toShareGpt(session(done))[0]!.completed).toBe(true);
    expect(toShareGpt(session(done.slice(0, 6)))[0]!.completed).toBe(false);
    expect(toShareGpt(session(done.slice(0, 4)))[0]!.completed).toBe(false);
    expect(toShareGpt(session(done.slice(0, 3)))[0]!.completed).toBe(false);
  });

  it("splits by turn: each record has the leading system messages and one turn", () => {
    const records = toShareGpt(session(twoTurns), { split: "turn" });
    expect(records.map((r) => r.completed)).toEqual([true, false]);
    expect(records.map((r) => r.conversations.map((c) => c.from))).toEqual([
      ["system", "system", "human", "gpt", "tool", "gpt"],
      ["system", "system", "human", "gpt", "tool"],
    ]);
    expect(records[1]!.conversations[2]!.value).toBe("Now run the tests");
  });

  it("drops, per turn, the cut-off tail before the first user message but keeps it per session", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "sys" },
      { role: "tool", tool_call_id: "x", content: "orphan" },
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ];
    expect(toShareGpt(session(messages))[0]!.conversations.map((c) => c.from)).toEqual([
      "system",
      "tool",
      "human",
      "gpt",
    ]);
    expect(toShareGpt(session(messages))[0]!.conversations[1]!.value).toContain('"name":"unknown"');
    expect(toShareGpt(session(messages), { split: "turn" })[0]!.conversations.map((c) => c.from)).toEqual([
      "system",
      "human",
      "gpt",
    ]);
  });

  it("gives no record for a session without a user message", () => {
    expect(toShareGpt(session([{ role: "system", content: "sys" }]))).toEqual([]);
    expect(toShareGpt(session([]), { split: "turn" })).toEqual([]);
  });

  it("redacts secrets everywhere", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: `key ${SECRET}` },
      { role: "user", content: `use ${SECRET}` },
      {
        role: "assistant",
        content: `ok ${SECRET}`,
        tool_calls: [call("c", "run_command", JSON.stringify({ command: `echo ${SECRET}` }))],
      },
      { role: "tool", tool_call_id: "c", content: SECRET },
    ];
    const text = JSON.stringify(toShareGpt(session(messages)));
    expect(text).not.toContain("SHAREGPT-SECRET");
    expect(text.match(/\[redacted\]/g)).toHaveLength(5);
  });
});

describe("exportSessions", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "nh-sharegpt-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function files(): string[] {
    const good = join(dir, "good.json");
    writeFileSync(good, JSON.stringify(session(twoTurns, "good")));
    const legacy = join(dir, "legacy.json");
    writeFileSync(
      legacy,
      JSON.stringify([
        { role: "system", content: "sys" },
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
      ]),
    );
    const corrupt = join(dir, "corrupt.json");
    writeFileSync(corrupt, '{"version": 1, "messages": [');
    const invalid = join(dir, "invalid.json");
    writeFileSync(invalid, JSON.stringify({ version: 2 }));
    return [good, corrupt, legacy, invalid, join(dir, "missing.json")];
  }

  it("writes one JSON line per session to a file and lists the unreadable ones", async () => {
    const list = files();
    const out = join(dir, "out.jsonl");
    const summary = await exportSessions(list, out);
    expect(summary).toEqual({ records: 2, completed: 1, failed: 1, skipped: [list[1], list[3], list[4]] });
    const lines = readFileSync(out, "utf8").trimEnd().split("\n");
    const records = lines.map((l) => JSON.parse(l) as ShareGptRecord);
    expect(records.map((r) => [r.session, r.completed])).toEqual([
      ["good", false],
      ["legacy", true],
    ]);
    expect(readFileSync(out, "utf8")).not.toContain("SHAREGPT-SECRET");
  });

  it("splits by turn into a stream it leaves open", async () => {
    const stream = new PassThrough();
    let text = "";
    stream.on("data", (d: Buffer) => (text += d.toString()));
    const summary = await exportSessions(files(), stream, { split: "turn" });
    expect(summary).toMatchObject({ records: 3, completed: 2, failed: 1 });
    expect(stream.writableEnded).toBe(false);
    expect(text.trimEnd().split("\n")).toHaveLength(3);
  });

  it("rejects an output path it cannot write", async () => {
    await expect(exportSessions(files(), join(dir, "no", "such", "dir.jsonl"))).rejects.toThrow(/ENOENT/);
  });

  it("replaces a link at the output path: the file it points to is never written", async () => {
    const target = join(dir, "precious.txt");
    writeFileSync(target, "keep me\n");
    const out = join(dir, "out.jsonl");
    symlinkSync(target, out);
    const summary = await exportSessions(files(), out);
    expect(summary.records).toBe(2);
    expect(readFileSync(target, "utf8")).toBe("keep me\n");
    expect(lstatSync(out).isSymbolicLink()).toBe(false);
    expect(lstatSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out, "utf8").trimEnd().split("\n")).toHaveLength(2);
    // The temporary file it wrote first is gone.
    expect(readdirSync(dir).filter((n) => n.includes("out.jsonl"))).toEqual(["out.jsonl"]);
  });
});

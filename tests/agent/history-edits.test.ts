// The typed history follows every edit of the conversation: /undo and /rewind drop the same turns
// from both (a steering message is part of the turn it steered, in both), /clear empties both, a call a killed run
// left running reads back as interrupted, and the size bound trims the oldest items with a note.
import { describe, expect, it } from "vitest";
import { Agent, type AgentSettings } from "../../src/agent/agent.js";
import type { BusEvent } from "../../src/protocol/events.js";
import type { HistoryItem } from "../../src/protocol/history.js";
import { wireMessages } from "../../src/agent/providers/openai-chat.js";
import { contentText } from "../../src/protocol/messages.js";
import * as z from "../../src/protocol/zod.js";
import { boundSessionSize } from "../../src/session/size-bound.js";
import { newSession, type SessionData } from "../../src/session/store.js";
import { defineTool } from "../../src/tools/define.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { reply, ScriptedClient } from "../helpers/scripted-client.js";
import { testGate } from "../helpers/gate.js";

const tools = new ToolRegistry([
  defineTool({
    name: "look",
    kind: "read",
    description: "looks",
    params: z.object({ at: z.string() }),
    summarize: (a) => `look at ${a.at}`,
    run: async (a) => `saw ${a.at}`,
  }),
]);
const settings: AgentSettings = {
  workspace: "/tmp",
  model: "m",
  fallbackModel: undefined,
  maxRetries: 0,
  retryBaseMs: 0,
  maxIterations: 10,
  thinking: "off",
  stream: true,
};

function makeAgent(client: ScriptedClient, session: SessionData = newSession("/tmp", "m")) {
  let agent: Agent | undefined;
  const emit = (e: BusEvent) => {
    if (e.type === "tool.started") agent!.steer(`steer after ${e.summary}`);
  };
  agent = new Agent({
    taskId: "t",
    settings,
    client,
    tools,
    emit,
    session,
    sessionFile: null,
    systemPrompt: "S",
    gate: testGate(),
  });
  return agent;
}

/** The prompts and steering messages, as the history has them and as the messages have them. */
const historyPrompts = (items: HistoryItem[]) =>
  items.flatMap((it) => (it.type === "user" || it.type === "steer" ? [it.text] : []));
const messagePrompts = (agent: Agent) =>
  agent.messages.filter((m) => m.role === "user").map((m) => contentText(m.content));

async function threeTurns() {
  const client = new ScriptedClient([
    reply("one done"),
    reply("", [{ name: "look", args: { at: "x" } }]),
    reply("two done"),
    reply("three done"),
  ]);
  const agent = makeAgent(client);
  await agent.run("one");
  await agent.run("two");
  await agent.run("three");
  return agent;
}

describe("the typed history under edits", () => {
  it("records a steering message as its own item, in step with the messages", async () => {
    const agent = await threeTurns();
    expect(historyPrompts(agent.session.transcript!)).toEqual(["one", "two", "steer after look at x", "three"]);
    expect(historyPrompts(agent.session.transcript!)).toEqual(messagePrompts(agent));
  });

  it("a steered turn is one turn: its checkpoints keep its number, /undo 1 drops it whole from both", async () => {
    const agent = await threeTurns();
    expect(agent.turnOrdinal()).toBe(3);
    expect(agent.undo(1)).toBe(1);
    expect(historyPrompts(agent.session.transcript!)).toEqual(["one", "two", "steer after look at x"]);
    expect(agent.undo(1)).toBe(1);
    expect(historyPrompts(agent.session.transcript!)).toEqual(["one"]);
    expect(agent.session.transcript!.map((it) => it.type)).toEqual(["user", "assistant"]);
    expect(historyPrompts(agent.session.transcript!)).toEqual(messagePrompts(agent));
    expect(agent.undo(5)).toBe(1);
    expect(agent.messages.filter((m) => m.role === "user")).toEqual([]);
  });

  it("the steering mark stays in the session and never reaches the wire", async () => {
    const client = new ScriptedClient([reply("", [{ name: "look", args: { at: "x" } }]), reply("done")]);
    const agent = makeAgent(client);
    await agent.run("go");
    expect(agent.messages.filter((m) => m.role === "user")).toEqual([
      { role: "user", content: "go" },
      { role: "user", content: "steer after look at x", steer: true },
    ]);
    const sent = wireMessages(agent.messages).filter((m) => m.role === "user");
    expect(sent.map((m) => Object.keys(m).sort())).toEqual([
      ["content", "role"],
      ["content", "role"],
    ]);
  });

  it("/rewind of the conversation drops from that turn on; /clear empties it", async () => {
    const agent = await threeTurns();
    const outcome = await agent.rewind(2, "conversation");
    // Turn 2 (steered) and turn 3.
    expect(outcome.dropped).toBe(2);
    expect(historyPrompts(agent.session.transcript!)).toEqual(["one"]);
    expect(historyPrompts(agent.session.transcript!)).toEqual(messagePrompts(agent));
    agent.clear();
    expect(agent.session.transcript).toEqual([]);
  });

  it("a call left running by a killed run reads back as interrupted", () => {
    const session = newSession("/tmp", "m");
    session.transcript = [
      { type: "user", text: "go" },
      {
        type: "tool",
        callId: "c1",
        name: "look",
        kind: "read",
        summary: "look at x",
        status: "running",
        display: "",
        durationMs: null,
      },
    ];
    const agent = makeAgent(new ScriptedClient([]), session);
    expect(agent.loadedView().transcript[1]).toMatchObject({
      type: "tool",
      status: "aborted",
      display: "interrupted",
      kind: "read",
      summary: "look at x",
    });
  });

  it("the size bound trims the oldest history items after the archive, with a note", () => {
    const session = newSession("/tmp", "m");
    session.messages = [{ role: "user", content: "x".repeat(1_000) }];
    session.transcript = Array.from(
      { length: 10 },
      (_, i): HistoryItem => ({ type: "assistant", text: `${i}`.repeat(1_000) }),
    );
    expect(boundSessionSize(session, 6_000)).toEqual({ ok: true, droppedArchived: 0, droppedHistory: 6 });
    expect(session.transcript[0]).toEqual({
      type: "note",
      text: expect.stringMatching(/^6 older transcript items were dropped/),
    });
    expect(session.transcript.slice(1).map((it) => (it.type === "assistant" ? it.text[0] : "?"))).toEqual([
      "6",
      "7",
      "8",
      "9",
    ]);
  });
});

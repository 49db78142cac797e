// The engine with a scripted in-process model client: loop, parallel tools, stop, limits, undo.
import { describe, expect, it } from "vitest";
import { Agent, type AgentSettings } from "../../src/agent/agent.js";
import type { ModelClient } from "../../src/agent/model-client.js";
import { fail, reply, ScriptedClient } from "../helpers/scripted-client.js";
import type { BusEvent } from "../../src/protocol/events.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import * as z from "../../src/protocol/zod.js";
import { defineTool, ToolError } from "../../src/tools/define.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { newSession } from "../../src/session/store.js";
import { testGate } from "../helpers/gate.js";

const log: string[] = [];
/** Waiters for a `wait` call's body to begin (the tool running, past the gate and the checkpoint). */
const bodies = new Map<string, () => void>();
const bodyStarted = (label: string) => new Promise<void>((done) => bodies.set(label, done));
const tools = new ToolRegistry([
  defineTool({
    name: "wait",
    kind: "read",
    description: "waits",
    params: z.object({ ms: z.number(), label: z.string() }),
    summarize: (a) => a.label,
    async run(a, ctx) {
      log.push(`start ${a.label}`);
      bodies.get(a.label)?.();
      await new Promise<void>((res) => {
        const t = setTimeout(res, a.ms);
        if (ctx.signal.aborted) res();
        ctx.signal.addEventListener("abort", () => {
          clearTimeout(t);
          res();
        });
      });
      log.push(`end ${a.label}`);
      if (ctx.signal.aborted) throw Object.assign(new Error("aborted"), { name: "AbortError" });
      return `waited ${a.label}`;
    },
  }),
  defineTool({
    name: "boom",
    kind: "read",
    description: "throws",
    params: z.object({ expected: z.boolean() }),
    summarize: () => "",
    async run(a) {
      if (a.expected) throw new ToolError("expected failure");
      throw new TypeError("cannot read properties of undefined");
    },
  }),
]);

const settings: AgentSettings = {
  workspace: "/tmp",
  model: "m",
  fallbackModel: undefined,
  maxRetries: 2,
  retryBaseMs: 0,
  maxIterations: 90,
  thinking: "off",
  stream: true,
};

function makeAgent(client: ModelClient, over: Partial<AgentSettings> = {}) {
  const events: BusEvent[] = [];
  const waiting: { type: BusEvent["type"]; done: () => void }[] = [];
  /** Resolves once an event of `type` was emitted: a test synchronises on it, never on a pause. */
  const seen = (type: BusEvent["type"]): Promise<void> =>
    events.some((e) => e.type === type)
      ? Promise.resolve()
      : new Promise((done) => {
          waiting.push({ type, done });
        });
  const emit = (e: BusEvent) => {
    events.push(e);
    for (const w of waiting.filter((w) => w.type === e.type)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.done();
    }
  };
  const agent = new Agent({
    taskId: "t1",
    settings: { ...settings, ...over },
    client,
    tools,
    emit,
    session: newSession("/tmp", "m"),
    sessionFile: null,
    systemPrompt: "SYSTEM",
    gate: testGate(),
  });
  return { agent, events, seen };
}

function assertValid(messages: ChatMessage[]) {
  messages.forEach((m, i) => {
    if (m.role !== "assistant" || !m.tool_calls) return;
    const next = messages.slice(i + 1, i + 1 + m.tool_calls.length);
    expect(next.map((r) => (r.role === "tool" ? r.tool_call_id : r.role))).toEqual(m.tool_calls.map((c) => c.id));
  });
}

describe("agent loop", () => {
  it("runs parallel tool calls concurrently and appends results in call order", async () => {
    log.length = 0;
    const client = new ScriptedClient([
      reply("", [
        { name: "wait", args: { ms: 60, label: "slow" } },
        { name: "wait", args: { ms: 5, label: "fast" } },
      ]),
      reply("done"),
    ]);
    const { agent } = makeAgent(client);
    const result = await agent.run("go");
    expect(result).toMatchObject({
      reason: "completed",
      response: "done",
      steps: 2,
      usage: { prompt: 20, completion: 4 },
    });
    expect(log).toEqual(["start slow", "start fast", "end fast", "end slow"]);
    const toolMsgs = agent.messages.filter((m) => m.role === "tool");
    expect(toolMsgs.map((m) => m.content)).toEqual(["waited slow", "waited fast"]);
    assertValid(agent.messages);
  });

  it("turns a throwing tool into an error result, expected or not, and goes on", async () => {
    const client = new ScriptedClient([
      reply("", [
        { name: "boom", args: { expected: true } },
        { name: "boom", args: { expected: false } },
      ]),
      reply("ok"),
    ]);
    const { agent, events } = makeAgent(client);
    expect((await agent.run("go")).reason).toBe("completed");
    const [a, b] = agent.messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(a).toBe("expected failure");
    expect(b).toBe("internal error in boom: cannot read properties of undefined");
    expect(
      events.filter((e) => e.type === "tool.completed").map((e) => (e.type === "tool.completed" ? e.status : "")),
    ).toEqual(["error", "error"]);
  });

  it("ends at max_iterations with a reason and a valid history", async () => {
    const client = new ScriptedClient(
      Array.from({ length: 5 }, () => reply("", [{ name: "wait", args: { ms: 0, label: "x" } }])),
    );
    const { agent } = makeAgent(client, { maxIterations: 4 });
    const r = await agent.run("go");
    expect(r.reason).toBe("max_iterations");
    expect(r.error).toMatch(/max_iterations 4/);
    expect(client.requests).toHaveLength(4);
    assertValid(agent.messages);
  });

  it("stop during a model request aborts it and keeps nothing of it", async () => {
    let aborted = false;
    const client = new ScriptedClient([
      (req, h) =>
        new Promise((res) => {
          h.onText("partial");
          req.signal.addEventListener("abort", () => {
            aborted = true;
            res({
              ok: false,
              error: { status: undefined, message: "aborted", aborted: true, retryAfterMs: undefined },
            });
          });
        }),
    ]);
    const { agent, seen } = makeAgent(client);
    const running = agent.run("go");
    // The request is under way once its first text arrived.
    await seen("assistant.delta");
    agent.stop();
    const r = await running;
    expect(aborted).toBe(true);
    expect(r.reason).toBe("interrupted");
    expect(agent.messages.map((m) => m.role)).toEqual(["system", "user"]);
  });

  it("stop while tools run lets them finish, records results, and makes no further request", async () => {
    const client = new ScriptedClient([reply("", [{ name: "wait", args: { ms: 40, label: "a" } }]), reply("never")]);
    const { agent, seen } = makeAgent(client);
    const running = agent.run("go");
    await seen("tool.started");
    agent.stop();
    const r = await running;
    expect(r.reason).toBe("interrupted");
    expect(client.requests).toHaveLength(1);
    expect(agent.messages.at(-1)).toMatchObject({ role: "tool", content: "waited a" });
  });

  it("a forced stop aborts running tools and records [interrupted]", async () => {
    const client = new ScriptedClient([reply("", [{ name: "wait", args: { ms: 10_000, label: "long" } }])]);
    const { agent } = makeAgent(client);
    const body = bodyStarted("long");
    const running = agent.run("go");
    await body;
    agent.stop({ force: true });
    const r = await running;
    expect(r.reason).toBe("interrupted");
    // The tool heard the stop and ended itself (not the registry giving up on it after its grace).
    expect(String(agent.messages.at(-1)!.content)).toBe("[interrupted] the user stopped this tool");
    assertValid(agent.messages);
  });

  it("retries retryable failures, then uses the fallback model once", async () => {
    const client = new ScriptedClient([fail(503), fail(429), fail(500), reply("from fallback")]);
    const { agent, events } = makeAgent(client, { fallbackModel: "fb" });
    const r = await agent.run("go");
    expect(r.response).toBe("from fallback");
    expect(client.requests.map((q) => q.model)).toEqual(["m", "m", "m", "fb"]);
    expect(events.filter((e) => e.type === "model.retrying")).toHaveLength(2);
    expect(events.find((e) => e.type === "model.fallback")).toMatchObject({ from: "m", to: "fb" });
  });

  it("does not retry a 400 and ends the turn with the error", async () => {
    const client = new ScriptedClient([fail(400, "bad")]);
    const { agent } = makeAgent(client, { fallbackModel: "fb" });
    const r = await agent.run("go");
    expect(r).toMatchObject({ reason: "error", error: "model request failed: 400 bad" });
    expect(client.requests).toHaveLength(1);
  });

  it("delivers a steering message at the next step boundary", async () => {
    const client = new ScriptedClient([reply("", [{ name: "wait", args: { ms: 20, label: "a" } }]), reply("ok")]);
    const { agent } = makeAgent(client);
    const running = agent.run("go");
    agent.steer("also check the tests");
    await running;
    expect(client.snapshots[1]!.at(-1)).toEqual({ role: "user", content: "also check the tests", steer: true });
  });

  it("undo drops whole user turns; clear keeps the system prompt", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "wait", args: { ms: 0, label: "a" } }]),
      reply("one"),
      reply("two"),
    ]);
    const { agent } = makeAgent(client);
    await agent.run("first");
    await agent.run("second");
    expect(agent.undo(1)).toBe(1);
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: "one" });
    assertValid(agent.messages);
    expect(agent.undo(5)).toBe(1);
    expect(agent.messages.map((m) => m.role)).toEqual(["system"]);
    agent.clear();
    expect(agent.messages).toEqual([{ role: "system", content: "SYSTEM" }]);
  });

  it("emits the turn lifecycle with per-request usage deltas", async () => {
    const client = new ScriptedClient([reply("", [{ name: "wait", args: { ms: 0, label: "a" } }]), reply("ok")]);
    const { agent, events } = makeAgent(client);
    await agent.run("go");
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("turn.started");
    expect(types.at(-1)).toBe("turn.completed");
    expect(types.filter((t) => t === "usage.updated")).toHaveLength(2);
    expect(events.every((e) => e.taskId === "t1")).toBe(true);
  });
});

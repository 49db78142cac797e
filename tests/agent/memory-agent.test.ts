// Long-term memory in the engine: the retrieved block sits next to the newest prompt and replaces
// the previous turn's (the system prompt never changes); distillation runs after completed turns
// only (never after a stop, an error or the iteration limit) and is silent when it fails.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/agent/engine.js";
import { loadExtensions } from "../../src/agent/extensions.js";
import { MemoryStore } from "../../src/memory/store.js";
import { MEMORY_BLOCK_START } from "../../src/memory/tools.js";
import type { BusEvent } from "../../src/protocol/events.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { fail, reply, ScriptedClient } from "../helpers/scripted-client.js";
import { testSettings } from "../helpers/settings.js";

async function setup(
  client: ScriptedClient,
  over: { distill?: boolean; enabled?: boolean; maxIterations?: number } = {},
) {
  const settings = testSettings({
    memory: { enabled: over.enabled ?? true, distill: over.distill ?? true, topK: 5 },
    ...(over.maxIterations ? { maxIterations: over.maxIterations } : {}),
  });
  const store = new MemoryStore(join(settings.home, "memory.json"));
  const events: BusEvent[] = [];
  const extensions = await loadExtensions(settings, { emit: (e) => events.push(e), userHome: settings.home });
  const agent = await createAgent({ settings, taskId: "t", emit: (e) => events.push(e), client, extensions });
  return { settings, store, events, agent };
}

const blocks = (messages: ChatMessage[]) =>
  messages.filter(
    (m) => m.role === "user" && typeof m.content === "string" && m.content.startsWith(MEMORY_BLOCK_START),
  );
const distilled = (json: object) => reply(JSON.stringify(json));

describe("memory in a turn", () => {
  it("puts matching memories next to the newest prompt, replacing the previous turn's block, and leaves the system prompt alone", async () => {
    // Distillation runs in the background, so its request may come before or after the next
    // turn's: each request is answered by what it is (distillation sends no tools).
    const turns = [reply("tabs it is"), reply("pnpm then")];
    const answer = async (req: { tools: unknown[] }) =>
      req.tools.length === 0 ? distilled({ memories: [] }) : turns.shift()!;
    const client = new ScriptedClient([answer, answer, answer, answer]);
    const { store, events, agent } = await setup(client);
    await store.save("preference", "The user formats code with tabs, never spaces");
    await store.save("fact", "The project uses pnpm, not npm");
    const system = agent.messages[0];
    await agent.run("how should I format code?");
    const first = client.snapshots[0]!;
    expect(blocks(first)).toHaveLength(1);
    expect(first.at(-2)).toMatchObject({ role: "user", content: expect.stringContaining("formats code with tabs") });
    expect(first.at(-1)).toEqual({ role: "user", content: "how should I format code?" });
    expect(events.find((e) => e.type === "memory.retrieved")).toMatchObject({ count: 1 });

    await agent.run("which package manager, pnpm or npm?");
    const turnRequests = client.requests.flatMap((r, i) => (r.tools.length > 0 ? [client.snapshots[i]!] : []));
    const second = turnRequests[1]!;
    expect(blocks(second)).toHaveLength(1);
    expect(String(blocks(second)[0]!.content)).toContain("pnpm");
    expect(String(blocks(second)[0]!.content)).not.toContain("tabs");
    expect(second[0]).toEqual(system);
    expect(agent.messages[0]).toEqual(system);
  });

  it("adds no block when nothing matches, and the memory tools are there", async () => {
    const client = new ScriptedClient([reply("hello"), distilled({ memories: [] })]);
    const { agent } = await setup(client);
    await agent.run("zzz qqq");
    expect(blocks(client.snapshots[0]!)).toEqual([]);
    const tools = (client.requests[0]!.tools ?? []).map((t) => t.function.name);
    expect(tools).toEqual(expect.arrayContaining(["memory_save", "memory_search"]));
  });

  it("with memory off there are no tools, no block and no distillation", async () => {
    const client = new ScriptedClient([reply("ok")]);
    const { agent } = await setup(client, { enabled: false });
    await agent.run("anything");
    await agent.close();
    expect(client.requests).toHaveLength(1);
    expect((client.requests[0]!.tools ?? []).map((t) => t.function.name)).not.toContain("memory_save");
  });
});

describe("distillation", () => {
  it("after a completed turn saves what the model distils (deduplicated) and says so", async () => {
    const client = new ScriptedClient([
      reply("noted"),
      distilled({
        memories: [
          { kind: "correction", text: "Run the tests with npm test -- --run, not npm test" },
          { kind: "fact", text: "The project uses pnpm, not npm" },
        ],
      }),
    ]);
    const { store, events, agent } = await setup(client);
    await store.save("fact", "the project uses pnpm, not npm.");
    await agent.run("no, run the tests with npm test -- --run");
    await agent.close();
    expect(client.requests).toHaveLength(2);
    expect(client.requests[1]!.tools).toEqual([]);
    expect(JSON.stringify(client.snapshots[1])).toContain("npm test -- --run");
    const entries = await store.list();
    expect(entries.map((e) => e.kind).sort()).toEqual(["correction", "fact"]);
    expect(
      events.some(
        (e) =>
          e.type === "notice" &&
          e.text === "remembered: correction: Run the tests with npm test -- --run, not npm test",
      ),
    ).toBe(true);
  });

  it("never after a stop, an error or the iteration limit", async () => {
    for (const ending of ["error", "max_iterations", "interrupted"] as const) {
      const steps =
        ending === "error"
          ? [fail(400, "bad")]
          : ending === "max_iterations"
            ? [reply("", [{ name: "todo_read", args: {} }])]
            : [reply("", [{ name: "todo_read", args: {} }])];
      const client = new ScriptedClient([...steps]);
      const { agent } = await setup(client, { maxIterations: 1 });
      const run = agent.run("go");
      if (ending === "interrupted") agent.stop();
      const result = await run;
      await agent.close();
      expect(result.reason).toBe(ending === "interrupted" ? "interrupted" : ending);
      expect(client.requests.length).toBeLessThanOrEqual(1);
    }
  });

  it("does not hold up closing the session when the distillation call never answers", async () => {
    const client = new ScriptedClient([reply("ok"), () => new Promise(() => {})]);
    const { agent } = await setup(client);
    await agent.run("hello there");
    // Without a bound this would wait forever (the call above never settles).
    await agent.close({ memoryWaitMs: 20 });
    expect(client.requests).toHaveLength(2);
  });

  it("is silent when the distillation call fails or answers nonsense", async () => {
    for (const answer of [
      fail(500, "down"),
      reply("I think the user likes things"),
      reply('{"memories": [{"kind": "mood", "text": "happy"}]}'),
    ]) {
      const client = new ScriptedClient([reply("ok"), answer]);
      const { store, events, agent } = await setup(client);
      const result = await agent.run("hello there");
      await agent.close();
      expect(result.reason).toBe("completed");
      expect(await store.list()).toEqual([]);
      expect(events.filter((e) => e.type === "notice" && e.level !== "info")).toEqual([]);
    }
  });
});

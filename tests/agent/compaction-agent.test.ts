// Compaction in the running engine: a turn over its budget is folded before the next request,
// announced and recorded (event, session archive); /compact with a focus; a failed summary; a
// stop during the summary; and a session picked up again after compaction.
import { describe, expect, it } from "vitest";
import { OMITTED_NOTE, SUMMARY_PREFIX } from "../../src/agent/compaction.js";
import { createAgent } from "../../src/agent/engine.js";
import { TaskManager } from "../../src/agent/tasks.js";
import { Bus } from "../../src/protocol/bus.js";
import type { BusEvent, EventOf } from "../../src/protocol/events.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { loadSession } from "../../src/session/store.js";
import { fail, reply, ScriptedClient } from "../helpers/scripted-client.js";
import { testSettings } from "../helpers/settings.js";
import { waitFor as waitUntil } from "../helpers/wait.js";

/** A history of `turns` user/assistant pairs, each about `size` characters. */
function history(turns: number, size: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < turns; i++) {
    out.push({ role: "user", content: `question ${i} ${"q".repeat(size)}` });
    out.push({ role: "assistant", content: `answer ${i} ${"a".repeat(size)}` });
  }
  return out;
}

async function agentWith(client: ScriptedClient, earlier: ChatMessage[], budget?: number) {
  const settings = testSettings();
  const events: BusEvent[] = [];
  const agent = await createAgent({ settings, taskId: "t", emit: (e) => events.push(e), client });
  agent.messages.push(...earlier);
  if (budget !== undefined) (agent as unknown as { opts: { contextBudget: number } }).opts.contextBudget = budget;
  return { agent, events, settings };
}

const compacted = (events: BusEvent[]) =>
  events.filter((e): e is EventOf<"context.compacted"> => e.type === "context.compacted");

describe("compaction in a turn", () => {
  it("folds the older messages before the request once the history passes its budget", async () => {
    const client = new ScriptedClient([reply("the user asked thirty questions about q and a"), reply("fresh answer")]);
    const { agent, events } = await agentWith(client, history(30, 5_000));
    const result = await agent.run("one more question");
    expect(result.reason).toBe("completed");
    // First the summary call (no tools), then the turn's request on the folded history.
    expect(client.requests).toHaveLength(2);
    expect(client.requests[0]!.tools).toEqual([]);
    const sent = client.snapshots[1]!;
    expect(sent[1]).toEqual({
      role: "system",
      content: `${SUMMARY_PREFIX}\nthe user asked thirty questions about q and a`,
    });
    expect(sent.at(-1)).toEqual({ role: "user", content: "one more question" });
    const [event] = compacted(events);
    expect(event).toMatchObject({ folded: 51, kept: 10, failed: false });
    expect(event!.afterChars).toBeLessThan(event!.beforeChars);
    // For observers (issue 32): the estimated tokens before and after, and what was folded by role.
    expect(event).toMatchObject({
      tokensBefore: Math.round(event!.beforeChars / 4),
      tokensAfter: Math.round(event!.afterChars / 4),
      dropped: { user: 26, assistant: 25, tool: 0, system: 0, toolCalls: 0 },
    });
    const compacting = events.findIndex((e) => e.type === "context.compacting");
    expect(events[compacting]).toMatchObject({ forced: false, beforeChars: event!.beforeChars });
    // The summary call is a model request of its own, marked as compaction's.
    const summaryCall = events.findIndex((e) => e.type === "model.requested" && e.purpose === "compaction");
    expect(compacting).toBeLessThan(summaryCall);
    expect(summaryCall).toBeLessThan(events.indexOf(event!));
    // Announced before it happened.
    const notice = events.findIndex((e) => e.type === "notice" && /over its budget/.test(e.text));
    expect(notice).toBeGreaterThanOrEqual(0);
    expect(notice).toBeLessThan(events.indexOf(event!));
    // What was folded is kept.
    expect(agent.session.archive).toHaveLength(51);
    expect(agent.session.compactions).toHaveLength(1);
  });

  it("stays under its budget without folding anything", async () => {
    const client = new ScriptedClient([reply("ok")]);
    const { agent, events } = await agentWith(client, history(3, 100));
    await agent.run("hi");
    expect(client.requests).toHaveLength(1);
    expect(compacted(events)).toEqual([]);
  });

  it("puts a one-line omission note in when the summary call fails, and the turn goes on", async () => {
    const client = new ScriptedClient([fail(400, "no summaries today"), reply("answer anyway")]);
    const { agent, events } = await agentWith(client, history(30, 5_000));
    const result = await agent.run("go on");
    expect(result.response).toBe("answer anyway");
    expect(client.snapshots[1]![1]).toEqual({ role: "system", content: OMITTED_NOTE });
    expect(compacted(events)[0]).toMatchObject({ failed: true, error: expect.stringContaining("no summaries today") });
  });

  it("a stop during the summary call ends the turn with the history as it was", async () => {
    let release: () => void = () => {};
    const client = new ScriptedClient([
      (req) =>
        new Promise((resolve) => {
          release = () => resolve(fail(undefined, "aborted"));
          req.signal?.addEventListener("abort", () =>
            resolve({
              ok: false,
              error: { status: undefined, message: "aborted", aborted: true, retryAfterMs: undefined },
            }),
          );
        }),
    ]);
    const { agent, events } = await agentWith(client, history(30, 5_000));
    const before = agent.messages.length;
    const run = agent.run("this will be stopped");
    await waitUntil(() => client.requests.length === 1, { what: "the summary call reached the model" });
    agent.stop();
    release();
    const result = await run;
    expect(result.reason).toBe("interrupted");
    expect(compacted(events)).toEqual([]);
    expect(agent.messages).toHaveLength(before + 1);
  });
});

describe("/compact and resuming", () => {
  it("/compact FOCUS folds on demand with the focus in the summary request, and a resumed session has the summary and the archive", async () => {
    const settings = testSettings();
    const client = new ScriptedClient([reply("first"), reply("summary keeping the parser details")]);
    const bus = new Bus();
    const events: BusEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const manager = new TaskManager({ settings, bus, interactive: true, approval: "never", client });
    bus.send({ type: "task.create", taskId: "a" });
    const agent = await manager.agentFor("a");
    agent.messages.push(...history(8, 200));
    bus.send({ type: "user.submit", taskId: "a", text: "a turn" });
    await waitUntil(() => events.some((e) => e.type === "turn.completed"), { what: "turn.completed" });
    bus.send({ type: "session.compact", taskId: "a", focus: "the parser" });
    await waitUntil(
      () => compacted(events).length === 1 && events.some((e) => e.type === "session.saved" && e.messages < 14),
      { what: "the compaction and the save of the shorter history" },
    );
    const request = client.requests[1]!;
    expect(JSON.stringify(request.messages)).toContain("the parser");
    expect(compacted(events)[0]).toMatchObject({ focus: "the parser", failed: false });

    const loaded = await loadSession(agent.sessionFile!, settings.workspace, "m");
    expect(loaded.data.messages[1]).toEqual({
      role: "system",
      content: `${SUMMARY_PREFIX}\nsummary keeping the parser details`,
    });
    expect(loaded.data.archive!.length).toBeGreaterThan(0);
    expect(loaded.data.archive![0]).toMatchObject({ role: "user", content: expect.stringMatching(/^question 0/) });
    expect(loaded.data.compactions![0]).toMatchObject({ focus: "the parser", failed: false });
    await manager.shutdown();
  });
});

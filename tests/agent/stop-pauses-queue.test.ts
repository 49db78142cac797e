// Stopping a turn is the user taking over: what was queued waits (queue.updated paused) instead of
// starting as the next turn at once, until a user.submit with resume sends it on.
import { describe, expect, it } from "vitest";
import { TaskManager } from "../../src/agent/tasks.js";
import { Bus } from "../../src/protocol/bus.js";
import type { BusEvent, EventOf, EventType } from "../../src/protocol/events.js";
import { testSettings } from "../helpers/settings.js";
import { reply, ScriptedClient } from "../helpers/scripted-client.js";
import { waitFor as waitUntil } from "../helpers/wait.js";

function setup(client: ScriptedClient) {
  const bus = new Bus();
  const events: BusEvent[] = [];
  bus.subscribe((e) => events.push(e));
  new TaskManager({ settings: testSettings(), bus, interactive: true, approval: "on-request", client });
  const waitFor = async <T extends EventType>(
    type: T,
    pred: (e: EventOf<T>) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<EventOf<T>> => {
    const start = Date.now();
    for (;;) {
      const found = events.find((e): e is EventOf<T> => e.type === type && pred(e as EventOf<T>));
      if (found) return found;
      if (Date.now() - start > timeoutMs) throw new Error(`no ${type}; saw ${events.map((e) => e.type).join(",")}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { bus, events, waitFor };
}

describe("a stop pauses the queue", () => {
  it("keeps queued text waiting after a stop, and sends it on with resume", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const client = new ScriptedClient([
      async () => {
        await gate;
        return reply("", [{ name: "list_dir", args: {} }]);
      },
      reply("queued done"),
    ]);
    const t = setup(client);
    t.bus.send({ type: "task.create", taskId: "a" });
    t.bus.send({ type: "user.submit", taskId: "a", text: "start" });
    await t.waitFor("step.started");
    t.bus.send({ type: "user.submit", taskId: "a", text: "then write docs", mode: "queue" });
    await t.waitFor("queue.updated", (e) => e.items.length === 1);
    t.bus.send({ type: "turn.interrupt", taskId: "a" });
    release();
    await t.waitFor("turn.completed", (e) => e.reason === "interrupted");
    const paused = await t.waitFor("queue.updated", (e) => e.paused === true);
    expect(paused.items.map((i) => i.text)).toEqual(["then write docs"]);
    // A deliberate window: a queue that ignored the pause would start its turn in it; nothing
    // marks a turn that does not start.
    await new Promise((r) => setTimeout(r, 100));
    expect(t.events.filter((e) => e.type === "turn.started")).toHaveLength(1);

    t.bus.send({ type: "user.submit", taskId: "a", text: "", resume: true });
    await t.waitFor("turn.completed", (e) => e.response === "queued done");
    expect(client.snapshots.at(-1)!.at(-1)).toEqual({ role: "user", content: "then write docs" });
    expect(t.events.filter((e) => e.type === "queue.updated").at(-1)).toMatchObject({ items: [] });
  });
});

describe("deny means stop", () => {
  it("a plain deny with stop ends the turn at the step boundary: the model is not asked again", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "run_command", args: { command: "git push --force" } }]),
      reply("", [{ name: "run_command", args: { command: "rm -rf ~/projects/old-calc" } }]),
      reply("never reached"),
    ]);
    const t = setup(client);
    t.bus.send({ type: "task.create", taskId: "a" });
    t.bus.send({ type: "user.submit", taskId: "a", text: "clean up" });
    const ask = await t.waitFor("approval.requested");
    t.bus.send({ type: "approval.reply", taskId: "a", requestId: ask.requestId, decision: "deny", stop: true });
    expect((await t.waitFor("turn.completed")).reason).toBe("interrupted");
    expect(t.events.filter((e) => e.type === "approval.requested")).toHaveLength(1);
    expect(client.snapshots).toHaveLength(1);
    const result = await t.waitFor("tool.completed");
    expect(result.status).toBe("denied");
  });

  it("deny with a note (no stop) lets the model go on", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "run_command", args: { command: "git push --force" } }]),
      reply("ok, I will not push"),
    ]);
    const t = setup(client);
    t.bus.send({ type: "task.create", taskId: "a" });
    t.bus.send({ type: "user.submit", taskId: "a", text: "ship it" });
    const ask = await t.waitFor("approval.requested");
    t.bus.send({ type: "approval.reply", taskId: "a", requestId: ask.requestId, decision: "deny", note: "no pushes" });
    expect((await t.waitFor("turn.completed")).reason).toBe("completed");
    expect(client.snapshots).toHaveLength(2);
  });
});

describe("job.stop", () => {
  it("stops a running background command and its update carries the output's tail", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "run_command", args: { command: "echo jo''b-started; sleep 30", background: true } }]),
      reply("started it"),
    ]);
    const bus = new Bus();
    const events: BusEvent[] = [];
    bus.subscribe((e) => events.push(e));
    new TaskManager({ settings: testSettings(), bus, interactive: false, approval: "never", client });
    bus.send({ type: "task.create", taskId: "a" });
    bus.send({ type: "user.submit", taskId: "a", text: "start the server" });
    const seen = (pred: (e: BusEvent) => boolean) => waitUntil(() => events.find(pred), { what: pred.toString() });
    const running = await seen(
      (e) => e.type === "background.updated" && e.job.state === "running" && (e.job.tail ?? "").includes("job-started"),
    );
    expect(running).toBeDefined();
    const id = running!.type === "background.updated" ? running!.job.id : "";
    bus.send({ type: "job.stop", taskId: "a", jobId: id });
    expect(
      await seen((e) => e.type === "background.updated" && e.job.id === id && e.job.state === "killed"),
    ).toBeDefined();
  });
});

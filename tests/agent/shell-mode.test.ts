// Issue 18 item 11: `!` shell mode through the bus. The command takes the model's run_command
// path (policy, approval, sandbox), its output is in the transcript's events, and the command
// with its output reaches the model as a note at the next turn.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskManager } from "../../src/agent/tasks.js";
import { SHELL_NOTE_MAX_BYTES, shellNote } from "../../src/agent/shell-mode.js";
import { Bus } from "../../src/protocol/bus.js";
import type { BusEvent, EventOf, EventType } from "../../src/protocol/events.js";
import { contentText } from "../../src/protocol/messages.js";
import { byteLength } from "../../src/tools/truncate.js";
import { reply, ScriptedClient } from "../helpers/scripted-client.js";
import { testSettings } from "../helpers/settings.js";

function setup(client: ScriptedClient) {
  const settings = testSettings();
  const bus = new Bus();
  const events: BusEvent[] = [];
  bus.subscribe((e) => events.push(e));
  new TaskManager({ settings, bus, interactive: true, approval: "on-request", client });
  const waitFor = async <T extends EventType>(
    type: T,
    pred: (e: EventOf<T>) => boolean = () => true,
  ): Promise<EventOf<T>> => {
    const start = Date.now();
    for (;;) {
      const found = events.find((e): e is EventOf<T> => e.type === type && pred(e as EventOf<T>));
      if (found) return found;
      if (Date.now() - start > 10_000) throw new Error(`no ${type}; saw ${events.map((e) => e.type).join(",")}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  bus.send({ type: "task.create", taskId: "a" });
  return { ws: settings.workspace, bus, events, waitFor };
}

describe("! shell mode", () => {
  it("runs a read-only command without a model call and gives its output to the model next turn", async () => {
    const client = new ScriptedClient([reply("I see hello.txt")]);
    const t = setup(client);
    t.bus.send({ type: "shell.run", taskId: "a", command: "echo hello-from-shell" });
    const done = await t.waitFor("tool.completed");
    expect(done).toMatchObject({ name: "run_command", status: "ok" });
    expect(done.callId.startsWith("shell_")).toBe(true);
    expect(t.events.some((e) => e.type === "tool.output" && e.chunk.includes("hello-from-shell"))).toBe(true);
    expect((await t.waitFor("turn.started")).prompt).toBe("!echo hello-from-shell");
    await t.waitFor("turn.completed");
    expect(client.requests).toHaveLength(0);
    t.bus.send({ type: "user.submit", taskId: "a", text: "what did it print?" });
    await t.waitFor("turn.completed", (e) => e.response === "I see hello.txt");
    const sent = client.snapshots[0]!.filter((m) => m.role === "user").map((m) => contentText(m.content));
    expect(sent[0]).toContain("<bash-input>echo hello-from-shell</bash-input>");
    expect(sent[0]).toMatch(/<bash-output>\nexit code 0[^\n]*\n--- stdout ---\nhello-from-shell\n<\/bash-output>/);
    expect(sent.at(-1)).toBe("what did it print?");
  });

  it("asks before a command that changes things, as for the model, and a denial runs nothing", async () => {
    const t = setup(new ScriptedClient([]));
    t.bus.send({ type: "shell.run", taskId: "a", command: "touch made.txt" });
    const ask = await t.waitFor("approval.requested");
    expect(ask).toMatchObject({ tool: "run_command", detail: "touch made.txt" });
    t.bus.send({ type: "approval.reply", taskId: "a", requestId: ask.requestId, decision: "deny" });
    const done = await t.waitFor("tool.completed");
    expect(done).toMatchObject({ status: "denied", summary: "touch made.txt" });
    await t.waitFor("turn.completed");
    expect(existsSync(join(t.ws, "made.txt"))).toBe(false);
    // The session records what happened, as the model will read it.
    const saved = await t.waitFor("session.saved", () => true);
    const session = JSON.parse(readFileSync(saved.sessionFile, "utf8")) as {
      messages: { role: string; content: string }[];
    };
    expect(
      session.messages.some((m) => m.role === "user" && m.content.includes("<bash-input>touch made.txt</bash-input>")),
    ).toBe(true);
  });

  it("is refused while a turn runs", async () => {
    let release = () => {};
    const client = new ScriptedClient([() => new Promise((r) => (release = () => r(reply("done"))))]);
    const t = setup(client);
    t.bus.send({ type: "user.submit", taskId: "a", text: "think" });
    await t.waitFor("step.started");
    t.bus.send({ type: "shell.run", taskId: "a", command: "echo no" });
    expect((await t.waitFor("notice")).text).toMatch(/runs between turns/);
    release();
    await t.waitFor("turn.completed");
    expect(t.events.some((e) => e.type === "tool.started")).toBe(false);
  });

  it("keeps the note bounded, start and end", () => {
    const big = `exit code 0 (0.1 s)\n--- stdout ---\n${"x".repeat(100_000)}END`;
    const note = shellNote("yes | head", { status: "ok", forModel: `$ yes | head\n${big}`, display: "" });
    expect(byteLength(note)).toBeLessThan(SHELL_NOTE_MAX_BYTES + 400);
    expect(note).toContain("exit code 0");
    expect(note).toContain("END\n</bash-output>");
  });
});

// The task manager through the bus only: turns, approvals, steering and queueing, modes, tasks.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskManager } from "../../src/agent/tasks.js";
import type { Settings } from "../../src/config/schema.js";
import { Bus } from "../../src/protocol/bus.js";
import type { BusCommand, CommandOf } from "../../src/protocol/commands.js";
import type { BusEvent, EventOf, EventType } from "../../src/protocol/events.js";
import { testSettings } from "../helpers/settings.js";
import { reply, ScriptedClient } from "../helpers/scripted-client.js";
import { waitFor as waitUntil } from "../helpers/wait.js";

function setup(
  client: ScriptedClient,
  opts: { interactive?: boolean; approval?: "never" | "on-request" | "untrusted" } = {},
) {
  const settings = testSettings();
  const ws = settings.workspace;
  const home = settings.home;

  const bus = new Bus();
  const events: BusEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const manager = new TaskManager({
    settings,
    bus,
    interactive: opts.interactive ?? true,
    approval: opts.approval ?? "on-request",
    client,
  });
  const send = (c: BusCommand) => bus.send(c);
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
  return { ws, home, bus, events, manager, send, waitFor };
}

const submit = (taskId: string, text: string, mode?: "turn" | "steer" | "queue"): CommandOf<"user.submit"> => ({
  type: "user.submit",
  taskId,
  text,
  ...(mode ? { mode } : {}),
});

describe("task manager", () => {
  it("runs a turn, titles the task from the prompt, and reports status and usage", async () => {
    const t = setup(new ScriptedClient([reply("hello")]));
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "explain the build\nmore detail"));
    await t.waitFor("turn.completed");
    const last = await t.waitFor("task.updated", (e) => e.task.status === "done");
    expect(last.task).toMatchObject({
      title: "explain the build",
      status: "done",
      usage: { prompt: 10, completion: 2 },
      pendingApprovals: 0,
    });
  });

  it("asks before a command that is not read-only, and runs it once approved", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "run_command", args: { command: "touch made.txt" } }]),
      reply("done"),
    ]);
    const t = setup(client);
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "make a file"));
    const ask = await t.waitFor("approval.requested");
    expect(ask).toMatchObject({
      tool: "run_command",
      kind: "exec",
      title: "Run: touch made.txt",
      detail: "touch made.txt",
    });
    expect(ask.reason).toMatch(/not a recognised read-only command/);
    expect((await t.waitFor("task.updated", (e) => e.task.status === "waiting")).task.pendingApprovals).toBe(1);
    t.send({ type: "approval.reply", taskId: "a", requestId: ask.requestId, decision: "once" });
    await t.waitFor("turn.completed");
    expect(existsSync(join(t.ws, "made.txt"))).toBe(true);
  });

  it("runs read-only commands without asking under on-request", async () => {
    const t = setup(
      new ScriptedClient([reply("", [{ name: "run_command", args: { command: "ls -la" } }]), reply("ok")]),
    );
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "list"));
    await t.waitFor("turn.completed");
    expect(t.events.some((e) => e.type === "approval.requested")).toBe(false);
  });

  it("a denial with a note reaches the model; 'always' is remembered for the task", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "run_command", args: { command: "rm -f x" } }]),
      reply("", [{ name: "run_command", args: { command: "touch y" } }]),
      reply("", [{ name: "run_command", args: { command: "touch y" } }]),
      reply("done"),
    ]);
    const t = setup(client);
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "go"));
    const first = await t.waitFor("approval.requested");
    t.send({
      type: "approval.reply",
      taskId: "a",
      requestId: first.requestId,
      decision: "deny",
      note: "do not delete anything",
    });
    const second = await t.waitFor("approval.requested", (e) => e.requestId !== first.requestId);
    t.send({ type: "approval.reply", taskId: "a", requestId: second.requestId, decision: "always" });
    await t.waitFor("turn.completed");
    expect(t.events.filter((e) => e.type === "approval.requested")).toHaveLength(2);
    // Observers learn who answered which call, and after how long (issue 32).
    const resolved = t.events.filter((e) => e.type === "approval.resolved");
    expect(resolved.map((e) => [e.decision, e.by, e.callId])).toEqual([
      ["deny", "user", first.callId],
      ["always", "user", second.callId],
    ]);
    expect(resolved.every((e) => typeof e.waitedMs === "number" && e.waitedMs >= 0)).toBe(true);
    // The gate's decision is on each call's tool.completed: a person denied, then approved.
    const gates = t.events.filter((e) => e.type === "tool.completed").map((e) => e.gate);
    expect(gates).toEqual(["denied", "approved", "allowed"]);
    const denied = client.snapshots[1]!.find((m) => m.role === "tool");
    expect(denied?.content).toBe("the user denied this call: do not delete anything");
  });

  it("stopping a turn cancels its pending approval and the history stays valid", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "write_file", args: { path: "a.txt", content: "x" } }]),
      reply("next"),
    ]);
    const t = setup(client);
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "write"));
    const ask = await t.waitFor("approval.requested");
    expect(ask.title).toBe("Create a.txt");
    expect(ask.detail).toContain("+x");
    t.send({ type: "turn.interrupt", taskId: "a" });
    expect(await t.waitFor("approval.resolved")).toMatchObject({
      decision: "cancelled",
      by: "turn-stopped",
      callId: ask.callId,
    });
    expect((await t.waitFor("turn.completed")).reason).toBe("interrupted");
    expect(existsSync(join(t.ws, "a.txt"))).toBe(false);
    t.send(submit("a", "again"));
    await t.waitFor("turn.completed", (e) => e.reason === "completed");
    const sent = client.snapshots[1]!;
    const assistant = sent.findIndex((m) => m.role === "assistant");
    expect(sent[assistant + 1]).toMatchObject({
      role: "tool",
      content: "the turn was stopped before the user answered",
    });
  });

  it("refuses calls that need approval when nobody can answer", async () => {
    const client = new ScriptedClient([reply("", [{ name: "run_command", args: { command: "make" } }]), reply("ok")]);
    const t = setup(client, { interactive: false });
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "build"));
    await t.waitFor("turn.completed");
    expect(client.snapshots[1]!.find((m) => m.role === "tool")?.content).toMatch(
      /needs approval .* nobody can answer here\. To allow it, rerun with --allow make or --approval never/,
    );
  });

  it("delivers steering at the next step boundary and runs queued messages as the next turn", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const client = new ScriptedClient([
      async () => {
        await gate;
        return reply("", [{ name: "list_dir", args: {} }]);
      },
      reply("first done"),
      reply("queued done"),
    ]);
    const t = setup(client);
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "start"));
    await t.waitFor("step.started");
    t.send(submit("a", "also look at tests", "steer"));
    t.send(submit("a", "then write docs", "queue"));
    expect((await t.waitFor("queue.updated", (e) => e.items.length === 2)).items.map((i) => i.mode)).toEqual([
      "steer",
      "queue",
    ]);
    release();
    await t.waitFor("steer.delivered", (e) => e.text === "also look at tests");
    await t.waitFor("turn.completed", (e) => e.response === "queued done");
    expect(client.snapshots[1]!.at(-1)).toEqual({ role: "user", content: "also look at tests", steer: true });
    expect(client.snapshots[2]!.at(-1)).toEqual({ role: "user", content: "then write docs" });
  });

  it("plan mode refuses writes and commands; the system prompt says so", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "write_file", args: { path: "p.txt", content: "x" } }]),
      reply("planned"),
    ]);
    const t = setup(client);
    t.send({ type: "task.create", taskId: "a" });
    t.send({ type: "config.update", taskId: "a", mode: "plan" });
    t.send(submit("a", "plan it"));
    await t.waitFor("turn.completed");
    expect(client.snapshots[0]![0]!.content).toMatch(/Mode: plan \(read-only\)/);
    expect(client.snapshots[1]!.find((m) => m.role === "tool")?.content).toMatch(/plan mode is read-only/);
    expect(existsSync(join(t.ws, "p.txt"))).toBe(false);
  });

  it("renames, pins, exports and deletes tasks", async () => {
    const t = setup(new ScriptedClient([reply("hi")]));
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "hello"));
    await t.waitFor("turn.completed");
    t.send({ type: "task.update", taskId: "a", title: "Renamed", pinned: true });
    await t.waitFor("task.updated", (e) => e.task.title === "Renamed" && e.task.pinned);
    t.send({ type: "task.export", taskId: "a", format: "markdown", path: "out.md" });
    await t.waitFor("notice", (e) => e.text.startsWith("exported to"));
    expect(readFileSync(join(t.ws, "out.md"), "utf8")).toMatch(
      /^# Renamed\n[\s\S]*## User\n\nhello\n[\s\S]*## Assistant\n\nhi/,
    );
    const sessionFile = (await t.waitFor("session.saved")).sessionFile;
    // The rename's save follows the turn's own saves: wait for it to land.
    const saved = () => JSON.parse(readFileSync(sessionFile, "utf8")) as { title?: string; pinned?: boolean };
    await waitUntil(() => saved().title === "Renamed", { what: "the rename saved to the session file" });
    expect(saved()).toMatchObject({ title: "Renamed", pinned: true });
    // The index is written in the background, under its lock: wait for the rename to land.
    const readIndex = () =>
      existsSync(join(t.home, "tasks.json"))
        ? (JSON.parse(readFileSync(join(t.home, "tasks.json"), "utf8")) as { id: string; title: string }[]).map((e) => [
            e.id,
            e.title,
          ])
        : [];
    await waitUntil(() => JSON.stringify(readIndex()) === JSON.stringify([["a", "Renamed"]]), {
      what: "the rename in the task index",
    });
    expect(readIndex()).toEqual([["a", "Renamed"]]);
    t.send({ type: "task.delete", taskId: "a" });
    await t.waitFor("task.removed");
    expect(existsSync(sessionFile)).toBe(false);
  });

  it("never lets a save in flight bring back a deleted session's file", async () => {
    const t = setup(new ScriptedClient([reply("one"), reply("two")]));
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "first"));
    await t.waitFor("task.updated", (e) => e.task.status === "done");
    const sessionFile = (await t.waitFor("session.saved")).sessionFile;
    // Undo saves in the background; the delete comes before that save is done.
    t.send({ type: "session.undo", taskId: "a", n: 1 });
    t.send({ type: "task.delete", taskId: "a" });
    await t.waitFor("task.removed");
    // A deliberate window: the undo's save, had it outlived the delete, would land in it; no event
    // follows a save that does not happen.
    await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(sessionFile)).toBe(false);
  });

  it("loads an existing session when a task is created on it and replays it to the UI", async () => {
    const t = setup(new ScriptedClient([reply("more")]));
    const file = join(t.home, "old.json");
    writeFileSync(
      file,
      JSON.stringify([
        { role: "user", content: "earlier" },
        { role: "assistant", content: "answer" },
      ]),
    );
    t.send({ type: "task.create", taskId: "b", sessionFile: file });
    t.send(submit("b", "continue"));
    const loaded = await t.waitFor("session.loaded");
    expect(loaded.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    await t.waitFor("turn.completed");
  });
});

describe("task manager safety", () => {
  it("runs a trusted read-only git command with the repository's programs neutralised", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "run_command", args: { command: "git status" } }]),
      reply("ok"),
    ]);
    const t = setup(client);
    const { execFileSync } = await import("node:child_process");
    execFileSync("git", ["init", "-q"], { cwd: t.ws });
    // A hostile repository config: fsmonitor would run this script on `git status`.
    writeFileSync(join(t.ws, "evil.sh"), "#!/bin/sh\ntouch pwned\n", { mode: 0o755 });
    execFileSync("git", ["config", "core.fsmonitor", join(t.ws, "evil.sh")], { cwd: t.ws });
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "status?"));
    await t.waitFor("turn.completed");
    expect(t.events.some((e) => e.type === "approval.requested")).toBe(false);
    expect(existsSync(join(t.ws, "pwned"))).toBe(false);
    // The neutralised form ran (no "pwned"); the model reads back the command it gave.
    const result = client.snapshots[1]!.find((m) => m.role === "tool")?.content as string;
    expect(result.split("\n")[0]).toBe("$ git status");
    expect(result).toMatch(/exit code 0/);
    expect(t.events.find((e) => e.type === "tool.started")).toMatchObject({ args: { command: "git status" } });
  });

  it("dangerous commands ask even under never; --yolo runs them; the blocklist refuses always", async () => {
    for (const [yolo, expectAsk] of [
      [false, true],
      [true, false],
    ] as const) {
      const client = new ScriptedClient([
        reply("", [{ name: "run_command", args: { command: "git reset --hard" } }]),
        reply("ok"),
      ]);
      const t = setup(client, { approval: "never" });
      (t.manager as unknown as { opts: { settings: { yolo: boolean } } }).opts.settings.yolo = yolo;
      t.send({ type: "task.create", taskId: "a" });
      t.send(submit("a", "reset"));
      if (expectAsk) {
        const ask = await t.waitFor("approval.requested");
        expect(ask.rule).toBe("git-discard-changes");
        t.send({ type: "approval.reply", taskId: "a", requestId: ask.requestId, decision: "deny" });
      }
      await t.waitFor("turn.completed");
      expect(t.events.some((e) => e.type === "approval.requested")).toBe(expectAsk);
    }
    const client = new ScriptedClient([
      reply("", [{ name: "run_command", args: { command: "rm -rf / --no-preserve-root" } }]),
      reply("ok"),
    ]);
    const t = setup(client, { approval: "never" });
    const settings = (t.manager as unknown as { opts: { settings: Settings } }).opts.settings;
    settings.yolo = true;
    // Should the blocklist ever fail, a read-only sandbox still keeps this test harmless.
    settings.sandbox = { mode: "read-only", network: false, writableRoots: [] };
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "wipe"));
    await t.waitFor("turn.completed");
    expect(client.snapshots[1]!.find((m) => m.role === "tool")?.content).toMatch(
      /refused in every mode.*rule delete-root/,
    );
  });

  it("'always' on a dangerous command allows that exact command only, in this task, and says so before asking", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "run_command", args: { command: "git reset --hard" } }]),
      reply("", [{ name: "run_command", args: { command: "git reset --hard" } }]),
      reply("", [{ name: "run_command", args: { command: "git reset --hard origin/main" } }]),
      reply("done"),
    ]);
    const t = setup(client);
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "reset"));
    const ask = await t.waitFor("approval.requested");
    expect(ask).toMatchObject({
      dangerous: true,
      rule: "git-discard-changes",
      always: "exactly this command",
      alwaysWorkspace: false,
    });
    // The rule is named once, in its own field; the reason is the rule's plain words.
    expect(ask.reason).not.toMatch(/rule git-discard-changes/);
    // A client asking for the workspace scope still gets this task only, and nothing is saved.
    t.send({ type: "approval.reply", taskId: "a", requestId: ask.requestId, decision: "always", scope: "workspace" });
    const notice = await t.waitFor("notice", (e) => e.text.startsWith("allowed from now on"));
    expect(notice.text).toBe("allowed from now on in this task: exactly `git reset --hard`");
    // The same command runs without a question; a more destructive one asks again.
    const again = await t.waitFor("approval.requested", (e) => e.requestId !== ask.requestId);
    expect(again.detail).toBe("git reset --hard origin/main");
    t.send({ type: "approval.reply", taskId: "a", requestId: again.requestId, decision: "deny" });
    await t.waitFor("turn.completed");
    expect(t.events.filter((e) => e.type === "approval.requested")).toHaveLength(2);
    expect(existsSync(join(t.home, "permissions.json"))).toBe(false);
  });

  it("an ordinary card says the prefix 'always' will remember", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "run_command", args: { command: "npm run build -- --prod" } }]),
      reply("ok"),
    ]);
    const t = setup(client);
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "build"));
    const ask = await t.waitFor("approval.requested");
    expect(ask).toMatchObject({ always: 'commands starting with "npm run build"', alwaysWorkspace: true });
    expect(ask.dangerous).toBeUndefined();
    t.send({ type: "approval.reply", taskId: "a", requestId: ask.requestId, decision: "deny" });
    await t.waitFor("turn.completed");
  });

  it("'always for this workspace' is kept and given to new tasks; /permissions can remove a rule", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "run_command", args: { command: "npm run build -- --prod" } }]),
      reply("ok"),
      reply("", [{ name: "run_command", args: { command: "npm run build" } }]),
      reply("ok"),
    ]);
    const t = setup(client);
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "build"));
    const ask = await t.waitFor("approval.requested");
    // The card can say before the choice exactly what "always" allows, and the notice says the same.
    expect(ask.always).toBe('commands starting with "npm run build"');
    t.send({ type: "approval.reply", taskId: "a", requestId: ask.requestId, decision: "always", scope: "workspace" });
    await t.waitFor("turn.completed");
    expect(
      t.events.some(
        (e) =>
          e.type === "notice" &&
          e.text === 'allowed from now on in this workspace: commands starting with "npm run build"',
      ),
    ).toBe(true);
    const saved = JSON.parse(readFileSync(join(t.home, "permissions.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(saved)).toEqual([t.ws]);
    const rules = (await t.waitFor("task.updated", (e) => e.task.rules.length > 0)).task.rules;
    expect(rules).toEqual(["prefix: npm run build"]);
    // A second manager (a new run) on the same home and workspace starts with the rule.
    const bus = new Bus();
    const seen: BusEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    const second = new TaskManager({
      settings: (t.manager as unknown as { opts: { settings: Settings } }).opts.settings,
      bus,
      interactive: true,
      approval: "on-request",
      client,
    });
    bus.send({ type: "task.create", taskId: "b" });
    expect(seen.filter((e) => e.type === "task.updated").at(-1)).toMatchObject({
      task: { rules: ["prefix: npm run build"] },
    });
    void second;
    t.send({ type: "permissions.remove", taskId: "a", rule: "prefix: npm run build" });
    expect((await t.waitFor("task.updated", (e) => e.task.rules.length === 0)).task.rules).toEqual([]);
  });

  it("a turn whose session could not be saved shows the task failed, with the reason as a notice", async () => {
    const client = new ScriptedClient([
      reply("", [{ name: "run_command", args: { command: "rm -rf ../home-sessions-probe" } }]),
      reply("done"),
    ]);
    const t = setup(client);
    const sessions = join(t.home, "sessions");
    t.send({ type: "task.create", taskId: "a" });
    t.send(submit("a", "go"));
    const ask = await t.waitFor("approval.requested");
    // While the turn waits, the session folder becomes a file: every later save fails.
    rmSync(sessions, { recursive: true, force: true });
    writeFileSync(sessions, "not a folder");
    t.send({ type: "approval.reply", taskId: "a", requestId: ask.requestId, decision: "once" });
    const done = await t.waitFor("turn.completed");
    expect(done).toMatchObject({
      reason: "completed",
      saveError: expect.stringMatching(/^could not save the session to /),
    });
    await t.waitFor("task.updated", (e) => e.task.status === "failed");
    const notices = t.events.filter((e) => e.type === "notice" && e.level === "error");
    expect(notices).toHaveLength(1);
  });
});

// Issue 29: `nanohermes acp` driven by the ACP SDK's client over real stdio pipes, against the
// mock model. The engine's gate decides what is asked; the client only answers (allowed once,
// rejected), a blocked command is never asked about, a cancel stops at a step boundary and
// withdraws an open question, session/load replays the history, and bad input gets JSON-RPC errors.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { type AcpChild, initialize, optionOf, select, startAcp, until } from "../helpers/acp.js";
import { CLI, tempDir, testEnv } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply, type RecordedRequest } from "../helpers/mock-openai.js";

const children: AcpChild[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.stop()));
});

function start(env: Record<string, string | undefined>): AcpChild {
  const c = startAcp(env, ["--sandbox", "off"]);
  children.push(c);
  return c;
}

const toolResults = (req: RecordedRequest | undefined) =>
  ((req?.messages ?? []) as ChatMessage[]).filter((m) => m.role === "tool").map((m) => String(m.content));
const kinds = (updates: acp.SessionUpdate[]) => updates.map((u) => u.sessionUpdate);

async function newSession(c: AcpChild, cwd: string): Promise<string> {
  const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  c.mark("answered session/new");
  return sessionId;
}

describe("nanohermes acp", () => {
  it("asks the client through the gate: one call allowed once, one rejected, a blocked one never asked; the turn ends normally", async () => {
    const ws = tempDir();
    mkdirSync(join(ws, "victim"));
    writeFileSync(join(ws, "victim", "keep.txt"), "keep\n");
    writeFileSync(join(ws, "notes.txt"), "old line\n");
    const { mock, env } = await e2eEnv(
      [
        toolReply([{ name: "todo_write", args: { items: [{ content: "edit notes", status: "in_progress" }] } }], {
          reasoning: "Let me plan.",
        }),
        toolReply([{ name: "edit_file", args: { path: "notes.txt", old_string: "old line", new_string: "new line" } }]),
        toolReply([{ name: "run_command", args: { command: "touch rejected.txt" } }]),
        toolReply([{ name: "run_command", args: { command: "rm -rf --no-preserve-root victim" } }]),
        textReply("All done."),
      ],
      { model: "m" },
    );
    const c = start(env);
    const init = await initialize(c);
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      mcpCapabilities: { http: true },
      sessionCapabilities: { list: {}, resume: {}, close: {} },
    });
    expect(init.authMethods?.[0]?.description).toMatch(/environment .*config\.json/);

    const sessionId = await newSession(c, ws);
    // The command list comes after the answer to session/new (a JetBrains client needs that order).
    await until(() => kinds(c.updates(sessionId)).includes("available_commands_update"), "the command list");
    const answeredAt = c.log.findIndex((e) => e.kind === "mark");
    const commandsAt = c.log.findIndex(
      (e) => e.kind === "update" && e.update.sessionUpdate === "available_commands_update",
    );
    expect(answeredAt).toBeLessThan(commandsAt);
    const commands = c.updates(sessionId).find((u) => u.sessionUpdate === "available_commands_update");
    expect(
      commands?.sessionUpdate === "available_commands_update" && commands.availableCommands.map((x) => x.name),
    ).toEqual(expect.arrayContaining(["compact", "undo", "clear"]));

    const answers: string[] = [];
    c.answer = async (request) => {
      const isEdit = request.toolCall.kind === "edit";
      answers.push(request.toolCall.title ?? "");
      return select(optionOf(request, isEdit ? "allow_once" : "reject_once"));
    };
    const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "update the notes" }],
    });
    expect(stopReason).toBe("end_turn");
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe("new line\n");
    expect(existsSync(join(ws, "rejected.txt"))).toBe(false);
    expect(existsSync(join(ws, "victim", "keep.txt"))).toBe(true);
    // Two questions: the edit and the touch; the blocked rm was refused by the gate without one.
    expect(c.permissions).toHaveLength(2);
    expect(c.permissions[0]?.options.map((o) => o.kind)).toEqual(
      expect.arrayContaining(["allow_once", "allow_always", "reject_once", "reject_always"]),
    );
    expect(toolResults(mock.requests[3]).at(-1)).toMatch(/denied/);
    expect(toolResults(mock.requests[4]).at(-1)).toMatch(/^refused: refused in every mode/);

    const updates = c.updates(sessionId);
    // The order a client renders: thought, plan, the edit asked then run with its diff, the answer, usage.
    const firstOf = (k: string) => kinds(updates).indexOf(k as acp.SessionUpdate["sessionUpdate"]);
    expect(firstOf("agent_thought_chunk")).toBeLessThan(firstOf("plan"));
    expect(firstOf("plan")).toBeLessThan(firstOf("agent_message_chunk"));
    expect(firstOf("usage_update")).toBeGreaterThan(-1);
    const edit = updates.filter(
      (u) =>
        (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") &&
        u.toolCallId === c.permissions[0]?.toolCall.toolCallId,
    );
    expect(edit.map((u) => (u as { status?: string }).status)).toEqual(["pending", "in_progress", "completed"]);
    expect(edit[0]).toMatchObject({ sessionUpdate: "tool_call", kind: "edit" });
    expect(edit[1]).toMatchObject({
      locations: [{ path: join(ws, "notes.txt") }],
      content: [{ type: "diff", path: join(ws, "notes.txt"), oldText: "old line", newText: "new line" }],
    });
    const plan = updates.find((u) => u.sessionUpdate === "plan");
    expect(plan).toMatchObject({ entries: [{ content: "edit notes", status: "in_progress" }] });
    const blocked = updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
    expect(blocked).toHaveLength(2);
    const text = updates.flatMap((u) =>
      u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : [],
    );
    expect(text.join("")).toBe("All done.");
  });

  it("remembers allow_always and reject_always for the session: the same kind of call is not asked again", async () => {
    const ws = tempDir();
    const command = (c: string) => toolReply([{ name: "run_command", args: { command: c } }]);
    const { mock, env } = await e2eEnv(
      [
        // Each second command starts with the first one's words: what "always" covers ("touch one.txt").
        command("touch one.txt"),
        command("touch one.txt two.txt"),
        command("mkdir d1"),
        command("mkdir d1 d2"),
        textReply("done"),
      ],
      { model: "m" },
    );
    const c = start(env);
    await initialize(c);
    const sessionId = await newSession(c, ws);
    c.answer = async (request) =>
      select(optionOf(request, request.toolCall.title?.includes("touch") ? "allow_always" : "reject_always"));
    const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "make things" }],
    });
    expect(stopReason).toBe("end_turn");
    expect(c.permissions.map((p) => p.toolCall.title)).toEqual(["Run: touch one.txt", "Run: mkdir d1"]);
    expect([existsSync(join(ws, "one.txt")), existsSync(join(ws, "two.txt"))]).toEqual([true, true]);
    expect([existsSync(join(ws, "d1")), existsSync(join(ws, "d2"))]).toEqual([false, false]);
    expect(toolResults(mock.requests[4]).at(-1)).toMatch(/reject such calls for this session/);
  });

  it("read_file takes the editor's buffer (unsaved edits) when the editor reads files, after the checks on disk", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "notes.txt"), "saved line\n");
    const { mock, env } = await e2eEnv(
      [
        toolReply([
          { name: "read_file", args: { path: "notes.txt" } },
          { name: "read_file", args: { path: "missing.txt" } },
        ]),
        textReply("read"),
      ],
      { model: "m" },
    );
    const c = start(env);
    await initialize(c, true);
    c.buffers.set(join(ws, "notes.txt"), "unsaved line\n");
    const sessionId = await newSession(c, ws);
    await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "read" }] });
    const [notes, missing] = toolResults(mock.requests[1]);
    expect(notes).toBe("     1\tunsaved line");
    // A file that is not on disk is refused by the disk's checks; the editor is not asked.
    expect(missing).toMatch(/no such file/);
    expect(c.reads).toEqual([join(ws, "notes.txt")]);
  });

  it("edits the editor's unsaved buffer through fs/write_text_file; a protected path is refused before the editor is asked", async () => {
    const ws = tempDir();
    mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
    writeFileSync(join(ws, "notes.txt"), "saved line\n");
    const { mock, env } = await e2eEnv(
      [
        toolReply([
          { name: "edit_file", args: { path: "notes.txt", old_string: "unsaved line", new_string: "edited line" } },
        ]),
        toolReply([{ name: "write_file", args: { path: ".git/hooks/x", content: "#!/bin/sh\n" } }]),
        textReply("edited"),
      ],
      { model: "m" },
    );
    const c = start(env);
    await initialize(c, true, true);
    const notes = join(ws, "notes.txt");
    c.buffers.set(notes, "unsaved line\nsecond\n");
    c.answer = async (request) => select(optionOf(request, "allow_once"));
    const sessionId = await newSession(c, ws);
    const { stopReason } = await c.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "edit" }],
    });
    expect(stopReason).toBe("end_turn");
    expect(toolResults(mock.requests[1]).at(-1)).toMatch(/^edited notes\.txt through the editor/);
    expect(toolResults(mock.requests[2]).at(-1)).toMatch(/protected/);
    // The edit reached the editor (its buffer, unsaved text included) and nothing else did; this
    // client does not save, so the disk keeps the saved text.
    expect(c.writes).toEqual([{ path: notes, content: "edited line\nsecond\n" }]);
    expect(readFileSync(notes, "utf8")).toBe("saved line\n");
    expect(existsSync(join(ws, ".git", "hooks", "x"))).toBe(false);
  });

  it("session/cancel stops a streaming turn at the step boundary, and withdraws a question nobody answered", async () => {
    const ws = tempDir();
    const { mock, env } = await e2eEnv(
      [
        textReply("x".repeat(400), { chunkSize: 4, chunkDelayMs: 20 }),
        toolReply([{ name: "write_file", args: { path: "a.txt", content: "a\n" } }]),
        textReply("after the cancel"),
      ],
      { model: "m" },
    );
    const c = start(env);
    await initialize(c);
    const sessionId = await newSession(c, ws);
    const streaming = c.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "stream" }],
    });
    await until(() => kinds(c.updates(sessionId)).includes("agent_message_chunk"), "the first chunk");
    // A second prompt while one runs is refused, not queued.
    await expect(
      c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "again" }] }),
    ).rejects.toMatchObject({ code: -32600 });
    await c.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await streaming).stopReason).toBe("cancelled");
    expect(mock.aborted).toBe(1);

    // A question the client never answers: the cancel withdraws it, the call is refused, nothing hangs.
    let withdrawn = false;
    c.answer = (_request, signal) =>
      new Promise((resolve) =>
        signal.addEventListener("abort", () => {
          withdrawn = true;
          resolve({ outcome: { outcome: "cancelled" } });
        }),
      );
    const asking = c.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "write a" }],
    });
    await until(() => c.permissions.length === 1, "the question");
    await c.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await asking).stopReason).toBe("cancelled");
    expect(existsSync(join(ws, "a.txt"))).toBe(false);
    await until(() => withdrawn, "the question withdrawn");

    // The session goes on: the next prompt runs to its end.
    const next = await c.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "go on" }],
    });
    expect(next.stopReason).toBe("end_turn");
  });

  it("session/load replays the saved history as updates before it answers, and session/list finds it", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "notes.txt"), "alpha\n");
    const home = tempDir("nh-home-");
    const { envWith } = await e2eEnv(
      [toolReply([{ name: "read_file", args: { path: "notes.txt" } }]), textReply("It says alpha.")],
      { model: "m" },
    );
    const first = start(envWith({ NANOHERMES_HOME: home }));
    await initialize(first);
    const sessionId = await newSession(first, ws);
    await first.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "what is in notes.txt?" }],
    });
    await first.agent.request(acp.methods.agent.session.close, { sessionId });
    await first.stop();

    const second = start(envWith({ NANOHERMES_HOME: home }));
    await initialize(second);
    const listed = await second.agent.request(acp.methods.agent.session.list, { cwd: ws });
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
    const loaded = await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws, mcpServers: [] });
    second.mark("answered session/load");
    expect(loaded.modes?.currentModeId).toBe("default");
    const replay = second.log.slice(
      0,
      second.log.findIndex((e) => e.kind === "mark"),
    );
    expect(replay.map((e) => (e.kind === "update" ? e.update.sessionUpdate : e.text))).toEqual([
      "user_message_chunk",
      "tool_call",
      "agent_message_chunk",
    ]);
    expect(replay[1]).toMatchObject({
      update: { kind: "read", status: "completed", locations: [{ path: join(ws, "notes.txt") }] },
    });
    expect(replay[2]).toMatchObject({ update: { content: { text: "It says alpha." } } });
  });

  it("switches mode and approval policy; the mode change is reported", async () => {
    const { env } = await e2eEnv([textReply("ok")], { model: "m" });
    const c = start(env);
    await initialize(c);
    const sessionId = await newSession(c, tempDir());
    await c.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
    await until(() => kinds(c.updates(sessionId)).includes("current_mode_update"), "the mode update");
    const set = await c.agent.request(acp.methods.agent.session.setConfigOption, {
      sessionId,
      configId: "approval",
      value: "untrusted",
    });
    expect(set.configOptions.find((o) => o.id === "approval")).toMatchObject({ currentValue: "untrusted" });
    expect(set.configOptions.find((o) => o.id === "mode")).toMatchObject({ currentValue: "plan" });
    await expect(
      c.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "nonsense" }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("without a provider key, authenticate and session/new say where the key goes (auth_required)", async () => {
    const c = start(testEnv({ NANOHERMES_MODEL: "m" }));
    const init = await initialize(c);
    const method = init.authMethods?.[0]?.id ?? "";
    await expect(c.agent.request(acp.methods.agent.authenticate, { methodId: method })).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(/OPENAI_API_KEY/),
    });
    await expect(
      c.agent.request(acp.methods.agent.session.new, { cwd: tempDir(), mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32000 });
  });

  it("answers bad input with JSON-RPC errors and keeps serving", async () => {
    const { env } = await e2eEnv([textReply("ok")], { model: "m" });
    const child = spawn(process.execPath, [CLI, "acp"], {
      env: env as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const replies = () =>
      out
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number }; result?: unknown });
    const send = (text: string) => child.stdin.write(`${text}\n`);
    try {
      send("{this is not json");
      await until(() => replies().length === 1, "the parse error");
      expect(replies()[0]?.error?.code).toBe(-32700);
      send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } }));
      // Until initialize is answered every other request is refused (-32600), so wait for it.
      await until(() => replies().length === 2, "the initialize answer");
      send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "no/such_method", params: {} }));
      send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 3,
          method: "session/prompt",
          params: { sessionId: "nope", prompt: [{ type: "text", text: "hi" }] },
        }),
      );
      send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "session/new", params: { cwd: 42 } }));
      await until(() => replies().length === 5, "four answers");
      const byId = new Map(replies().map((r) => [r.id, r]));
      expect(byId.get(1)?.result).toMatchObject({ protocolVersion: 1 });
      expect(byId.get(2)?.error?.code).toBe(-32601);
      expect(byId.get(3)?.error?.code).toBe(-32002);
      expect(byId.get(4)?.error?.code).toBe(-32602);
      expect(child.exitCode).toBeNull();
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    }
    expect(child.exitCode).toBe(0);
  });
});

// What a running turn writes down: whole steps only, a snapshot taken when the save was asked
// for, and a failure reported once per streak and cleared by the next good save.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { completeSteps } from "../../src/agent/history.js";
import { SessionWriter, type WriterEvent } from "../../src/agent/session-writer.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { newSession } from "../../src/session/store.js";
import { createAgent } from "../../src/agent/engine.js";
import { tempDir } from "../helpers/cli.js";
import { reply, ScriptedClient } from "../helpers/scripted-client.js";
import { testSettings } from "../helpers/settings.js";

const call = (id: string) => ({ id, type: "function" as const, function: { name: "x", arguments: "{}" } });
const sys: ChatMessage = { role: "system", content: "s" };
const user: ChatMessage = { role: "user", content: "u" };
const ask2: ChatMessage = { role: "assistant", content: null, tool_calls: [call("a"), call("b")] };
const resA: ChatMessage = { role: "tool", tool_call_id: "a", content: "ra" };
const resB: ChatMessage = { role: "tool", tool_call_id: "b", content: "rb" };
const answer: ChatMessage = { role: "assistant", content: "done" };

describe("completeSteps", () => {
  it.each([
    ["no tool calls", [sys, user, answer], 3],
    ["a step with all its results", [sys, user, ask2, resA, resB], 5],
    ["a step still running", [sys, user, ask2], 2],
    ["a step with one of two results", [sys, user, ask2, resA], 2],
    ["a finished step, then the answer", [sys, user, ask2, resA, resB, answer], 6],
    [
      "a finished step, then a running one",
      [sys, user, ask2, resA, resB, { role: "assistant", content: null, tool_calls: [call("c")] }],
      5,
    ],
  ] satisfies [string, ChatMessage[], number][])("%s", (_name, messages, kept) => {
    const out = completeSteps([...messages]);
    expect(out).toEqual(messages.slice(0, kept));
  });
});

describe("SessionWriter", () => {
  it("writes the snapshot taken when asked, not the history as it is when the write happens", async () => {
    const file = join(tempDir(), "s.json");
    const session = newSession("/w", "m", "s");
    session.messages.push(sys, user);
    const writer = new SessionWriter(file, () => {});
    const saving = writer.save(session);
    session.messages.push(ask2, resA, resB, answer);
    await saving;
    expect((JSON.parse(readFileSync(file, "utf8")) as { messages: unknown[] }).messages).toEqual([sys, user]);
  });

  it("reports one notice per streak of failures and clears saveError on the next good save", async () => {
    const dir = join(tempDir(), "sessions");
    const file = join(dir, "s.json");
    // A file where the folder should be: every save fails until it is a folder again.
    writeFileSync(dir, "not a folder");
    const events: WriterEvent[] = [];
    const writer = new SessionWriter(file, (e) => events.push(e));
    const session = newSession("/w", "m", "s");
    await writer.save(session);
    await writer.save(session);
    expect(writer.saveError).toMatch(/^could not save the session to .*s\.json: /);
    expect(events.filter((e) => e.type === "notice")).toHaveLength(1);
    rmSync(dir);
    mkdirSync(dir);
    chmodSync(dir, 0o700);
    await writer.save(session);
    expect(writer.saveError).toBeNull();
    expect(events.at(-1)).toMatchObject({ type: "session.saved", sessionFile: file });
  });
});

describe("a turn after a failed save", () => {
  it("waits for its prompt's save and is not sent to the model while the history cannot be kept", async () => {
    const settings = testSettings();
    const client = new ScriptedClient([reply("first"), reply("second")]);
    const agent = await createAgent({ settings, taskId: "t", emit: () => {}, client });
    const folder = dirname(agent.sessionFile!);
    expect((await agent.run("one")).reason).toBe("completed");
    // The folder goes away and a file takes its place: every save fails from now on.
    rmSync(folder, { recursive: true });
    writeFileSync(folder, "not a folder");
    const failed = await agent.run("two");
    expect(failed.saveError).toMatch(/^could not save the session to /);
    const requests = client.requests.length;
    const third = await agent.run("three");
    expect(client.requests).toHaveLength(requests);
    expect(third.reason).toBe("error");
    expect(third.error).toMatch(/^could not save the session to .*; the model was not called$/);
    // Room again: the next turn goes on.
    rmSync(folder);
    client.push(reply("fourth"));
    expect((await agent.run("four")).reason).toBe("completed");
    await agent.close();
  });
});

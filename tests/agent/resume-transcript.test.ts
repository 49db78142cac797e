// A resumed session shows the transcript the live run showed: every tool card with the kind and
// summary the registry gave it and its state (ok, denied, interrupted), a steering message, text
// streamed before a stop, the compaction marker and the turn ends, rebuilt from the session's typed
// history. The same run through real tools, real memory and a real session file; only the model is scripted.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Agent } from "../../src/agent/agent.js";
import { createAgent } from "../../src/agent/engine.js";
import { loadExtensions } from "../../src/agent/extensions.js";
import { MemoryStore } from "../../src/memory/store.js";
import type { BusEvent } from "../../src/protocol/events.js";
import type { HistoryItem } from "../../src/protocol/history.js";
import type { ModelOutcome } from "../../src/agent/model-client.js";
import { emptyTranscript, reduceTranscript, type Block } from "../../src/ui/state/transcript.js";
import { reply, ScriptedClient } from "../helpers/scripted-client.js";
import { testSettings } from "../helpers/settings.js";
import type { Asker } from "../../src/agent/gate.js";
import { newRemembered } from "../../src/sandbox/policy.js";

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: JSON.stringify(args) });
const calls = (content: string, list: ReturnType<typeof call>[]): ModelOutcome => ({
  ok: true,
  reply: { content, reasoning: "", toolCalls: list, finishReason: "tool_calls", usage: { prompt: 10, completion: 2 } },
});
const aborted: ModelOutcome = {
  ok: false,
  error: { status: undefined, message: "aborted", aborted: true, retryAfterMs: undefined },
};

/** What a block shows, without what differs between any two renderings (ids, clocks, live output). */
function shown(b: Block): unknown {
  if (b.kind === "tool") {
    const { id: _i, startedAt: _s, durationMs: _d, output: _o, args, ...rest } = b;
    // A call refused before it ran had no arguments on its live card; the rebuilt one may show them.
    return b.status === "denied" ? rest : { ...rest, args };
  }
  const { id: _i, ...rest } = b;
  return rest;
}
const conversation = (blocks: Block[]) => blocks.filter((b) => b.kind !== "notice" && b.kind !== "approval").map(shown);

async function liveRun() {
  const settings = testSettings({ memory: { enabled: true, distill: false, topK: 5 } });
  const store = new MemoryStore(join(settings.home, "memory.json"));
  await store.save("fact", "The project uses pnpm, not npm");
  const events: BusEvent[] = [];
  let agent: Agent | undefined;
  let steered = false;
  const emit = (e: BusEvent) => {
    events.push(e);
    // A steering message arrives while the first turn's tools run.
    if (e.type === "tool.started" && !steered) {
      steered = true;
      agent!.steer("use tabs, please");
    }
    // The command that would run for minutes is stopped (a second Ctrl-C).
    if (e.type === "tool.started" && e.summary.includes("sleep")) agent!.stop({ force: true });
  };
  const client = new ScriptedClient([
    // Turn 1: streamed reasoning and text, a write, then an edit and a command at once, an answer.
    async (_req, h) => {
      h.onReasoning("The user wants notes.");
      h.onText("Writing the notes.");
      return calls("Writing the notes.", [call("w1", "write_file", { path: "notes.txt", content: "alpha\n" })]);
    },
    calls("", [
      call("e1", "edit_file", { path: "notes.txt", old_string: "alpha", new_string: "beta" }),
      call("r1", "run_command", { command: "echo hi" }),
    ]),
    reply("Done: notes.txt says beta."),
    // Turn 2 (a memory matches): a denied command, then an answer.
    calls("", [call("d1", "run_command", { command: "rm -rf build" })]),
    reply("I may not delete build; use pnpm clean."),
    // Turn 3: a command stopped while it runs.
    calls("", [call("s1", "run_command", { command: "sleep 30" })]),
    // /compact: the summary.
    reply("## Goal\nNotes in notes.txt."),
    // Turn 4: stopped while the answer streams.
    (req, h) =>
      new Promise<ModelOutcome>((res) => {
        h.onText("Here is a long");
        req.signal.addEventListener("abort", () => res(aborted));
        setTimeout(() => agent!.stop(), 20);
      }),
  ]);
  const extensions = await loadExtensions(settings, { emit, userHome: settings.home });
  // Every call is asked about; the person asked refuses deletes.
  const asker: Asker = {
    present: () => true,
    ask: async (q) =>
      q.detail.startsWith("rm ") ? { decision: "deny", reason: "the user said no" } : { decision: "once" },
  };
  agent = await createAgent({
    settings,
    taskId: "t",
    emit,
    client,
    extensions,
    asker,
    gateState: { approval: "untrusted", mode: "default", remembered: newRemembered() },
  });
  expect((await agent.run("create notes.txt")).reason).toBe("completed");
  expect((await agent.run("which package manager does the project use, pnpm? and delete build")).reason).toBe(
    "completed",
  );
  expect((await agent.run("wait for the build")).reason).toBe("interrupted");
  expect(await agent.compactHistory({ forced: true })).toBe("done");
  await agent.save();
  expect((await agent.run("explain")).reason).toBe("interrupted");
  const file = agent.sessionFile!;
  await agent.close();
  return { settings, events, file, extensions, client };
}

describe("a resumed transcript", () => {
  it("equals the live one: kinds, summaries, denied and interrupted calls, steering, stopped text, the compaction", async () => {
    const { settings, events, file, extensions } = await liveRun();
    const live = events.reduce((s, e) => reduceTranscript(s, e, 0), emptyTranscript());

    const resumed: BusEvent[] = [];
    const again = await createAgent({
      settings,
      taskId: "t",
      emit: (e) => resumed.push(e),
      sessionFile: file,
      extensions,
    });
    const rebuilt = reduceTranscript(emptyTranscript(), { type: "session.loaded", taskId: "t", ...again.loadedView() });
    await again.close();

    expect(conversation(rebuilt.blocks)).toEqual(conversation(live.blocks));
    const tools = rebuilt.blocks.flatMap((b) => (b.kind === "tool" ? [[b.name, b.toolKind, b.summary, b.status]] : []));
    // The edit and the command of one step run at once: their cards keep the order they started in
    // (the edit checks its text first), which the line above holds equal to the live one.
    expect(tools).toHaveLength(5);
    expect(tools).toEqual(
      expect.arrayContaining([
        ["write_file", "edit", expect.stringContaining("notes.txt"), "ok"],
        ["edit_file", "edit", expect.stringContaining("notes.txt"), "ok"],
        ["run_command", "exec", "echo hi", "ok"],
        ["run_command", "exec", "rm -rf build", "denied"],
        ["run_command", "exec", "sleep 30", "aborted"],
      ]),
    );
    expect(rebuilt.blocks.map((b) => b.kind)).toEqual([
      "user",
      "reasoning",
      "assistant",
      "tool",
      "steer",
      "tool",
      "tool",
      "assistant",
      "user",
      "tool",
      "assistant",
      "user",
      "tool",
      "turn-end",
      "compaction",
      "user",
      "assistant",
      "turn-end",
    ]);
    expect(rebuilt.blocks.find((b) => b.kind === "assistant" && b.stopped)).toMatchObject({ text: "Here is a long" });
    expect(rebuilt.blocks.find((b) => b.kind === "compaction")).toMatchObject({
      failed: false,
      folded: expect.any(Number),
      summary: expect.stringContaining("Notes in notes.txt"),
    });
  });

  it("is stored as typed items beside the messages, which the model sees unchanged", async () => {
    const { file, client } = await liveRun();
    type Stored = HistoryItem & { ref?: number };
    const saved = JSON.parse(readFileSync(file, "utf8")) as {
      transcript: Stored[];
      messages: { content: unknown }[];
      archive?: { content: unknown }[];
    };
    expect(saved.transcript.map((it) => it.type)).toContain("memory");
    expect(saved.transcript.find((it) => it.type === "memory")).toMatchObject({ ids: [expect.any(String)] });
    // A prompt's text is stored once, in its message: the item names that message.
    const users = saved.transcript.filter((it) => it.type === "user");
    expect(users.every((it) => (it as { text?: string }).text === undefined && typeof it.ref === "number")).toBe(true);
    const all = [...(saved.archive ?? []), ...saved.messages];
    expect(users.map((it) => all[it.ref!]?.content)).toEqual([
      "create notes.txt",
      "which package manager does the project use, pnpm? and delete build",
      "wait for the build",
      "explain",
    ]);
    // Arguments and results are the messages' alone.
    expect(saved.transcript.some((it) => it.type === "tool" && ("args" in it || "forModel" in it))).toBe(false);
    for (const req of client.requests) expect(JSON.stringify(req.messages)).not.toMatch(/"transcript"|"callId"/);
  });
});

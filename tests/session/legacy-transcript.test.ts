// Session files from before typed history still load and show: their history is recovered once
// from the message text (the archive's turns, the summary as the compaction marker with its
// record, memory blocks left out, an [interrupted] result as a stopped call) and saved typed from
// then on. And a history item of a type this version does not know freezes the file, as an
// unknown role does, while unknown fields of known items survive a rewrite.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OMITTED_NOTE, SUMMARY_PREFIX } from "../../src/agent/compaction.js";
import { createAgent } from "../../src/agent/engine.js";
import { MEMORY_BLOCK_START } from "../../src/memory/markers.js";
import type { BusEvent } from "../../src/protocol/events.js";
import type { HistoryItem } from "../../src/protocol/history.js";
import {
  LEGACY_MEMORY_START,
  LEGACY_OMITTED_NOTE,
  LEGACY_SUMMARY_PREFIX,
} from "../../src/session/legacy-transcript.js";
import { lastPromptOf } from "../../src/session/history-view.js";
import { readSessionFile } from "../../src/session/search.js";
import { loadSession, serializeSession } from "../../src/session/store.js";
import { emptyTranscript, reduceTranscript } from "../../src/ui/state/transcript.js";
import { tempDir } from "../helpers/cli.js";
import { reply, ScriptedClient } from "../helpers/scripted-client.js";
import { testSettings } from "../helpers/settings.js";

const FIXTURE = join(import.meta.dirname, "../fixtures/sessions/legacy-v1.json");

function copyFixture(): string {
  const file = join(tempDir(), "legacy.json");
  copyFileSync(FIXTURE, file);
  return file;
}

describe("an old-format session file", () => {
  it("reads the markers the engine still writes", () => {
    expect([LEGACY_SUMMARY_PREFIX, LEGACY_OMITTED_NOTE, LEGACY_MEMORY_START]).toEqual([
      SUMMARY_PREFIX,
      OMITTED_NOTE,
      MEMORY_BLOCK_START,
    ]);
  });

  it("loads with a history recovered from its messages and archive", async () => {
    const loaded = await loadSession(copyFixture(), "/work/demo", "m");
    expect(loaded.frozen).toBeUndefined();
    const items = loaded.data.transcript!;
    expect(items.map((it) => it.type)).toEqual([
      "user",
      "tool",
      "assistant",
      "compaction",
      "user",
      "tool",
      "tool",
      "memory",
      "user",
      "reasoning",
      "assistant",
    ]);
    expect(items[3]).toMatchObject({
      type: "compaction",
      at: "2026-12-01T10:30:00.000Z",
      folded: 4,
      kept: 10,
      failed: false,
      beforeChars: null,
      summary: expect.stringContaining("A CLI that counts words"),
    });
    expect(
      items.filter((it) => it.type === "tool").map((it) => it.type === "tool" && [it.name, it.kind, it.status]),
    ).toEqual([
      ["write_file", null, "ok"],
      ["edit_file", null, "ok"],
      ["run_command", null, "aborted"],
    ]);
  });

  it("resumes: the transcript shows its turns, marker and cards, and the next save stores the history typed", async () => {
    const file = copyFixture();
    const settings = testSettings();
    const events: BusEvent[] = [];
    const agent = await createAgent({
      settings,
      taskId: "t",
      emit: (e) => events.push(e),
      sessionFile: file,
      client: new ScriptedClient([reply("Added it.")]),
    });
    const view = agent.loadedView();
    const t = reduceTranscript(emptyTranscript(), { type: "session.loaded", taskId: "t", ...view });
    expect(t.blocks.map((b) => b.kind)).toEqual([
      "user",
      "tool",
      "assistant",
      "compaction",
      "user",
      "tool",
      "tool",
      "user",
      "reasoning",
      "assistant",
    ]);
    const cmd = t.blocks.find((b) => b.kind === "tool" && b.name === "run_command");
    expect(cmd).toMatchObject({
      status: "aborted",
      args: { command: "npm test" },
      forModel: expect.stringMatching(/^\[interrupted\]/),
    });
    expect(t.blocks.some((b) => (b.kind === "user" || b.kind === "assistant") && b.text.includes("<memories>"))).toBe(
      false,
    );

    expect((await agent.run("and a --chars flag")).reason).toBe("completed");
    await agent.close();
    const saved = JSON.parse(readFileSync(file, "utf8")) as { transcript: HistoryItem[] };
    expect(saved.transcript.map((it) => it.type).slice(-2)).toEqual(["user", "assistant"]);
    expect(saved.transcript.slice(0, 4).map((it) => it.type)).toEqual(["user", "tool", "assistant", "compaction"]);
  });
});

describe("the /resume picker's last prompt", () => {
  it("is the newest prompt, from the typed history or, in an old file, past the memory block", async () => {
    const old = await readSessionFile(copyFixture());
    expect(lastPromptOf(old!)).toBe("run the tests with pnpm");
    const typed = {
      ...old!,
      transcript: [
        { type: "user", text: "\n  first line\nsecond" },
        { type: "memory", ids: ["m1"] },
        { type: "assistant", text: "ok" },
      ] satisfies HistoryItem[],
    };
    expect(lastPromptOf(typed)).toBe("first line");
  });
});

describe("typed history from another version", () => {
  const base = {
    version: 1,
    id: "s",
    createdAt: "t",
    updatedAt: "t",
    workspace: "/w",
    model: "m",
    messages: [{ role: "user", content: "hi" }],
  };

  it("an item of an unknown type: read as far as possible, and the file is frozen", async () => {
    const file = join(tempDir(), "s.json");
    writeFileSync(
      file,
      JSON.stringify({
        ...base,
        transcript: [
          { type: "user", text: "hi" },
          { type: "hologram", frames: 3 },
        ],
      }),
    );
    const loaded = await loadSession(file, "/w", "m");
    expect(loaded.frozen).toMatch(/a history item of type "hologram"/);
    expect(loaded.data.transcript).toEqual([{ type: "user", text: "hi" }]);
  });

  it("unknown fields of a known item survive a rewrite", async () => {
    const file = join(tempDir(), "s.json");
    writeFileSync(file, JSON.stringify({ ...base, transcript: [{ type: "user", text: "hi", pinnedBy: "me" }] }));
    const loaded = await loadSession(file, "/w", "m");
    expect(loaded.frozen).toBeUndefined();
    const rewritten = serializeSession(loaded.data);
    const again = JSON.parse(rewritten) as { transcript: unknown[] };
    // The text is the message's (stored once); the unknown field stays with the item.
    expect(again.transcript).toEqual([{ type: "user", ref: expect.any(Number), pinnedBy: "me" }]);
    writeFileSync(file, rewritten);
    const reread = await loadSession(file, "/w", "m");
    expect(reread.data.transcript).toEqual([{ type: "user", text: "hi" }]);
    expect((JSON.parse(serializeSession(reread.data)) as { transcript: unknown[] }).transcript).toEqual(
      again.transcript,
    );
  });
});

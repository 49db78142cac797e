// A session file stores each prompt's and reply's text once: the typed history items point at the
// message that holds it, and get it back when the file is read (by the engine, by search). Files
// whose items carry their text (written before) still load as they were.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/agent/engine.js";
import type { ModelOutcome } from "../../src/agent/model-client.js";
import type { BusEvent } from "../../src/protocol/events.js";
import { readSessionFile } from "../../src/session/search.js";
import { loadSession } from "../../src/session/store.js";
import { tempDir } from "../helpers/cli.js";
import { reply, ScriptedClient } from "../helpers/scripted-client.js";
import { testSettings } from "../helpers/settings.js";

const REPLIES = 8;
/** A long reply of its own for each turn (different text, so nothing is shared by accident). */
const longReply = (i: number) => `Reply ${i}: ${"the build uses pnpm and vitest; ".repeat(300)}`;
const prompt = (i: number) => `question ${i}: ${"explain the module layout in detail, please. ".repeat(20)}`;

/** N streamed turns with long replies through the real engine and session writer; only the model is scripted. */
async function longSession() {
  const settings = testSettings();
  const steps = Array.from(
    { length: REPLIES },
    (_, i) =>
      async (_req: unknown, h: { onText(t: string): void; onReasoning(t: string): void }): Promise<ModelOutcome> => {
        h.onReasoning(`thinking about ${i}`);
        h.onText(longReply(i));
        const outcome = reply(longReply(i));
        return outcome.ok ? { ok: true, reply: { ...outcome.reply, reasoning: `thinking about ${i}` } } : outcome;
      },
  );
  const client = new ScriptedClient(steps);
  const events: BusEvent[] = [];
  const agent = await createAgent({ settings, taskId: "t", emit: (e) => events.push(e), client });
  for (let i = 0; i < REPLIES; i++) expect(await agent.run(prompt(i))).toMatchObject({ reason: "completed" });
  const view = agent.loadedView();
  const file = agent.sessionFile!;
  await agent.close();
  return { settings, file, view };
}

describe("session files store text once", () => {
  it(`${REPLIES} long replies: the file is less than 1.2 times their text`, async () => {
    const { file } = await longSession();
    let text = 0;
    for (let i = 0; i < REPLIES; i++) text += longReply(i).length + prompt(i).length;
    const size = statSync(file).size;
    expect(size / text).toBeLessThan(1.2);
  });

  it("reads back the same history: the engine's view and search's", async () => {
    const { settings, file, view } = await longSession();
    const again = await createAgent({ settings, taskId: "t", emit: () => {}, sessionFile: file });
    expect(again.loadedView()).toEqual(view);
    await again.close();
    const items = view.transcript;
    expect(items.filter((it) => it.type === "user").map((it) => it.type === "user" && it.text)).toEqual(
      Array.from({ length: REPLIES }, (_, i) => prompt(i)),
    );
    expect(items.filter((it) => it.type === "assistant").map((it) => it.type === "assistant" && it.text)).toEqual(
      Array.from({ length: REPLIES }, (_, i) => longReply(i)),
    );
    const searched = await readSessionFile(file);
    expect(searched?.transcript).toEqual((await loadSession(file, "/w", "m")).data.transcript);
    expect(searched?.transcript?.find((it) => it.type === "user")).toEqual({ type: "user", text: prompt(0) });
  });

  it("a file whose items carry their text (the older layout) loads as it was", async () => {
    const file = join(tempDir(), "old.json");
    const transcript = [
      { type: "user", text: "hello" },
      { type: "reasoning", text: "hm" },
      { type: "assistant", text: "hi there" },
    ];
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        id: "old",
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
        workspace: "/w",
        model: "m",
        messages: [
          { role: "system", content: "sys" },
          { role: "user", content: "hello" },
          { role: "assistant", content: "hi there", reasoning_content: "hm" },
        ],
        transcript,
      }),
    );
    const loaded = await loadSession(file, "/w", "m");
    expect(loaded.frozen).toBeUndefined();
    expect(loaded.data.transcript).toEqual(transcript);
    expect((await readSessionFile(file))?.transcript).toEqual(transcript);
  });

  it("an item pointing at no message with its text is not read (the file is kept, not overwritten)", async () => {
    const file = join(tempDir(), "bad.json");
    const body = {
      version: 1,
      id: "bad",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      workspace: "/w",
      model: "m",
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "hello" },
      ],
      transcript: [
        { type: "user", ref: 1 },
        { type: "assistant", ref: 7 },
      ],
    };
    writeFileSync(file, JSON.stringify(body));
    const loaded = await loadSession(file, "/w", "m");
    expect(loaded.data.transcript).toEqual([{ type: "user", text: "hello" }]);
    expect(loaded.frozen).toMatch(/history item of type "assistant"/);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(body);
  });
});

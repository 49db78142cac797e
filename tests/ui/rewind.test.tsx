// /rewind and the Turns tab on fed checkpoints.updated events and fake file contents: the turns
// newest first (ones without file changes too), what to restore (f, c, b -> session.rewind), the
// empty state; each turn's files, a file's diff since before its turn, u + y -> file.revert.
// At 50, 80 and 120 columns, never wider than the terminal.
import { afterEach, describe, expect, it } from "vitest";
import type { BusEvent } from "../../src/protocol/events.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { legacyHistory } from "../../src/session/legacy-transcript.js";
import type { CheckpointSource } from "../../src/ui/state/data-sources.js";
import { visibleWidth } from "../../src/ui/render/wrap.js";
import { keys } from "../helpers/pty.js";
import { renderUi, type Harness, until } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const WS = "/work/demo";
/** session.loaded as the engine sends it for these messages. */
const loaded = (messages: ChatMessage[]): BusEvent => ({
  type: "session.loaded",
  taskId: "t0",
  messages,
  transcript: legacyHistory([], messages),
});
const turnsEvent: BusEvent = {
  type: "checkpoints.updated",
  taskId: "t0",
  turns: [
    {
      turn: 1,
      prompt: "write the notes",
      changes: [{ path: `${WS}/notes.txt`, before: "absent", after: "present", by: "write_file" }],
    },
    {
      turn: 3,
      prompt: "change the notes with sed",
      changes: [
        { path: `${WS}/notes.txt`, before: "kept", after: "present", by: "run_command" },
        { path: `${WS}/assets/big.bin`, before: "too-large", after: "present", by: "run_command" },
        { path: `${WS}/old.txt`, before: "kept", after: "absent", by: "run_command" },
      ],
    },
  ],
};

function turn(h: Harness, n: number, prompt: string): void {
  const turnId = `u${n}`;
  h.emit({ type: "turn.started", taskId: "t0", turnId, prompt });
  h.emit({ type: "assistant.completed", taskId: "t0", text: `done ${n}`, toolCalls: 0 });
  h.emit({
    type: "turn.completed",
    taskId: "t0",
    turnId,
    reason: "completed",
    response: `done ${n}`,
    steps: 1,
    usage: { prompt: 1, completion: 1 },
  });
}

/** Three turns, the second without file changes, as the engine would report them. */
function feed(h: Harness): void {
  h.emit({
    type: "session.started",
    taskId: "t0",
    sessionId: "s1",
    sessionFile: "/home/u/.nanohermes/sessions/s1.json",
    workspace: WS,
    model: "mock-model",
    resumed: false,
    messages: 0,
  });
  turn(h, 1, "write the notes");
  turn(h, 2, "say hi");
  turn(h, 3, "change the notes with sed");
  h.emit(turnsEvent);
}

function fakeCheckpoints() {
  const asked: string[] = [];
  const source: CheckpointSource = {
    contentBefore: async (sessionId, n, path) => {
      asked.push(`${sessionId} ${n} ${path}`);
      return path.endsWith("notes.txt") ? "alpha\nbeta\ngamma\n" : undefined;
    },
    turns: async () => [],
  };
  return { source, asked };
}

const files: Record<string, string> = { [`${WS}/notes.txt`]: "alpha\nBETA two\ngamma\n" };

function fits(frame: string, columns: number, rows: number): void {
  const lines = frame.split("\n");
  expect(lines).toHaveLength(rows - 1);
  for (const l of lines) expect(visibleWidth(l), l).toBeLessThanOrEqual(columns);
}

const rewinds = (x: Harness) => x.sent.filter((c) => c.type === "session.rewind" || c.type === "file.revert");

describe.each([
  [50, 20],
  [80, 24],
  [120, 40],
])("/rewind at %ix%i", (columns, rows) => {
  it("lists the turns newest first with their files, asks what to restore, and sends session.rewind", async () => {
    h = await renderUi(columns, rows);
    feed(h);
    h.keys("/rewind\r");
    let frame = await until(h, (f) => f.includes("Rewind: go back to before a turn"));
    fits(frame, columns, rows);
    expect(frame).toContain("3 turns, newest first");
    // Newest first; the turn without file changes is listed for a conversation rewind.
    const at = (s: string) => frame.indexOf(s);
    expect(at("change the notes")).toBeGreaterThan(-1);
    expect(at("change the notes")).toBeLessThan(at("say hi"));
    expect(at("say hi")).toBeLessThan(at("write the notes"));
    expect(frame).toMatch(/› 3 +change the notes.* 3 files/);
    expect(frame).toMatch(/2 +say hi +no files/);
    expect(frame).toMatch(/notes\.txt, (assets\/big\.bin|…)/);
    expect(frame).toMatch(/1 +write the notes +1 file/);

    // Enter: what to restore, both highlighted.
    h.keys("\r");
    frame = await until(h, (f) => f.includes("Rewind to before turn 3"));
    fits(frame, columns, rows);
    expect(frame).toContain("f  Files only");
    expect(frame).toContain("c  Conversation only");
    expect(frame).toContain("› b  Both");
    expect(frame).toContain("put back 2 files changed in turn 3:");
    // The reason wraps where the centre column ends (72 columns at 120): read it as one text.
    expect(frame.replace(/[│\s]+/g, " ")).toMatch(/too large to put back: (assets\/big\.bin|…)/);
    h.keys("f");
    frame = await until(h, (f) => !f.includes("Rewind to before"));
    expect(rewinds(h)).toEqual([{ type: "session.rewind", taskId: "t0", turn: 3, what: "files" }]);
    expect(frame).toContain("rewinding files to before turn 3");

    // The second turn, conversation only.
    h.keys("/rewind\r");
    await until(h, (f) => f.includes("Rewind: go back"));
    h.keys(keys.down);
    frame = await until(h, (f) => /› 2 +say hi/.test(f));
    h.keys("\r");
    frame = await until(h, (f) => f.includes("Rewind to before turn 2"));
    expect(frame).toContain("drop turns 2-3 from the");
    expect(frame).toContain("put back 2 files changed in turns 2-3:");
    h.keys("c");
    await until(h, (f) => !f.includes("Rewind to before"));
    expect(rewinds(h).at(-1)).toEqual({ type: "session.rewind", taskId: "t0", turn: 2, what: "conversation" });

    // Esc steps back to the list; Enter takes the highlighted choice (both), b sends it too.
    h.keys("/rewind\r");
    await until(h, (f) => f.includes("Rewind: go back"));
    h.keys(`${keys.down}${keys.down}\r`);
    await until(h, (f) => f.includes("Rewind to before turn 1"));
    h.keys(keys.esc);
    frame = await until(h, (f) => f.includes("Rewind: go back"));
    expect(frame).toMatch(/› 1 +write the notes/);
    h.keys("\r");
    await until(h, (f) => f.includes("Rewind to before turn 1"));
    h.keys("\r");
    await until(h, (f) => !f.includes("Rewind to before"));
    expect(rewinds(h).at(-1)).toEqual({ type: "session.rewind", taskId: "t0", turn: 1, what: "both" });
    h.keys("/rewind\r\rb");
    await until(h, (f) => !f.includes("Rewind"));
    expect(rewinds(h).at(-1)).toEqual({ type: "session.rewind", taskId: "t0", turn: 3, what: "both" });
    // Esc on the list closes without sending anything.
    const count = rewinds(h).length;
    h.keys("/rewind\r");
    await until(h, (f) => f.includes("Rewind: go back"));
    h.keys(keys.esc);
    await until(h, (f) => !f.includes("Rewind"));
    expect(rewinds(h)).toHaveLength(count);
  });

  it("says there is nothing to rewind before the first turn", async () => {
    h = await renderUi(columns, rows);
    h.keys("/rewind\r");
    const frame = await until(h, (f) => f.includes("No turns yet: nothing to rewind."));
    fits(frame, columns, rows);
    expect(frame).toContain("Each prompt you send starts a turn.");
    h.keys("\r");
    h.keys(keys.esc);
    await until(h, (f) => !f.includes("No turns yet"));
    expect(rewinds(h)).toEqual([]);
  });

  it("the Turns tab lists each turn's files; Enter shows a file's diff since before its turn; u then y reverts it", async () => {
    const fake = fakeCheckpoints();
    h = await renderUi(columns, rows, { checkpoints: fake.source, readFile: (p) => files[p] ?? null });
    feed(h);
    // Focus the results pane (it opens over the transcript below 120 columns), then the next tab.
    h.keys("\x12");
    h.keys(keys.right);
    let frame = await until(h, (f) => f.includes("[Turns 2]"));
    fits(frame, columns, rows);
    const lines = frame.split("\n");
    const row = (text: string) => lines.findIndex((l) => l.includes(text));
    // (The 28-column side pane at 120 cuts the prompt.)
    expect(row("Turn 3 · change the"), frame).toBeGreaterThan(0);
    expect(row("M notes.txt")).toBe(row("Turn 3 · change the") + 1);
    // The side pane (26 columns inside at 120) cuts the path from the left.
    expect(frame).toMatch(/M (assets\/|…\S*\/)?big\.bin \(too large\)/);
    expect(frame).toContain("D old.txt");
    expect(row("Turn 1 · write the notes")).toBeGreaterThan(row("D old.txt"));
    expect(row("A notes.txt")).toBe(row("Turn 1 · write the notes") + 1);
    expect(frame).toMatch(/Enter diff.* · u revert/);

    h.keys(`${keys.down}\r`);
    frame = await until(h, (f) => f.includes("+ BETA two"));
    fits(frame, columns, rows);
    expect(fake.asked).toEqual([`s1 3 ${WS}/notes.txt`]);
    expect(frame).toContain("Turn 3 · before it → now");
    expect(frame).toContain("- beta");
    expect(frame).toMatch(/notes\.txt \+1 -1/);

    h.keys("u");
    frame = await until(h, (f) => f.includes("Revert notes.txt to how it was before turn 3?"));
    fits(frame, columns, rows);
    expect(frame).toContain("y revert · n or Esc no");
    h.keys("y");
    await until(h, (f) => !f.includes("Revert notes.txt"));
    expect(rewinds(h)).toEqual([{ type: "file.revert", taskId: "t0", turn: 3, path: `${WS}/notes.txt` }]);

    // Esc back to the list; a file whose earlier content was not kept says so; Enter on a turn rewinds it.
    h.keys(keys.esc);
    frame = await until(h, (f) => f.includes("D old.txt"));
    h.keys(`${keys.down}\r`);
    frame = await until(h, (f) => f.includes("was not kept"));
    fits(frame, columns, rows);
    h.keys(keys.esc);
    await until(h, (f) => f.includes("D old.txt"));
    h.keys(`${keys.up}${keys.up}u`);
    frame = await until(h, (f) => f.includes("u reverts one file"));
    h.keys("\r");
    frame = await until(h, (f) => f.includes("Rewind to before turn 3"));
    fits(frame, columns, rows);
  });
});

describe("the Turns tab", () => {
  it("is not shown before a turn changed files, and counts them once one has", async () => {
    h = await renderUi(120, 30);
    let frame = await until(h, (f) => f.includes("[Changes]"));
    // The side pane is too narrow for every name on one row: the words go on two.
    expect(frame).toContain("Files [Changes] Reads Todo");
    expect(frame).not.toContain("Turns");
    feed(h);
    frame = await until(h, (f) => f.includes("Files [Changes] Turns 2"));
    expect(frame).toContain("Reads Todo Jobs Agents");
    h.keys("\x12");
    h.keys(keys.right);
    await until(h, (f) => f.includes("Files Changes [Turns 2]"));
  });

  it("drops the turns a conversation rewind forgot when the engine reloads the session", async () => {
    h = await renderUi(120, 30);
    feed(h);
    h.keys("\x12");
    h.keys(keys.right);
    await until(h, (f) => f.includes("[Turns 2]"));
    // The conversation back to before turn 3: two prompts left.
    h.emit(
      loaded([
        { role: "user", content: "write the notes" },
        { role: "assistant", content: "done 1" },
        { role: "user", content: "say hi" },
        { role: "assistant", content: "done 2" },
      ]),
    );
    const frame = await until(h, (f) => f.includes("[Turns 1]"));
    expect(frame).not.toContain("change the notes");
    h.keys(keys.esc);
    h.keys("/rewind\r");
    const list = await until(h, (f) => f.includes("2 turns, newest first"));
    expect(list).not.toContain("change the notes");
  });

  it("keeps what the engine said about a rewind when the reloaded session replaces the transcript", async () => {
    h = await renderUi(80, 24);
    feed(h);
    h.keys("/rewind\r\rb");
    await until(h, (f) => f.includes("rewinding files and the conversation to before turn 3"));
    // The engine's order: the files' notice, the reloaded conversation, then its notice.
    h.emit({
      type: "notice",
      taskId: "t0",
      level: "warn",
      text: "files as before turn 3: 1 restored, 0 removed; not touched: big.bin (too large)",
    });
    h.emit(
      loaded([
        { role: "user", content: "write the notes" },
        { role: "assistant", content: "done 1" },
        { role: "user", content: "say hi" },
        { role: "assistant", content: "done 2" },
      ]),
    );
    h.emit({
      type: "notice",
      taskId: "t0",
      level: "info",
      text: "the conversation is back to before turn 3 (1 turn dropped)",
    });
    const frame = await until(h, (f) => f.includes("the conversation is back to before turn 3"));
    expect(frame).toContain("big.bin (too large)");
    expect(frame).not.toContain("change the notes with sed");
    expect(frame.indexOf("say hi")).toBeLessThan(frame.indexOf("files as before turn 3"));
    // A later reload (a resume, another task opening it) does not bring old notices back twice.
    h.emit(loaded([{ role: "user", content: "write the notes" }]));
    const after = await until(h, (f) => !f.includes("say hi"));
    expect(after).not.toContain("files as before turn 3");
  });
});

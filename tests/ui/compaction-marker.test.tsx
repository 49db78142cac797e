// Compaction in the transcript: the marker from context.compacted (and its failed form), the same
// marker from a reloaded old-format session's summary message (its history recovered by the engine), its detail view from browse mode, and the
// engine's retrieved-memory blocks left out of a rebuilt transcript. At 50, 80 and 120 columns.
import { afterEach, describe, expect, it } from "vitest";
import { OMITTED_NOTE, SUMMARY_PREFIX } from "../../src/agent/compaction.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { legacyHistory } from "../../src/session/legacy-transcript.js";
import { fromHistory } from "../../src/ui/state/transcript.js";
import { keys } from "../helpers/pty.js";
import { renderUi, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const ev = { taskId: "t0" };
const widest = (lines: string[]) => Math.max(...lines.map((l) => [...l].length));
const summaryText = `${SUMMARY_PREFIX}\nThe user asked to port the parser to TypeScript.\n- Done: lexer.ts, tokens.ts\n- Open: error recovery in parse.ts`;
const memoryBlock =
  "<memories>\nNotes saved in earlier sessions that may bear on this message.\n- [preference] use pnpm\n</memories>";

const resumed: ChatMessage[] = [
  { role: "system", content: summaryText },
  { role: "user", content: "now add error recovery" },
  { role: "assistant", content: "Added recovery at statement boundaries." },
  { role: "user", content: memoryBlock },
  { role: "user", content: "and tests for it" },
  { role: "assistant", content: "Wrote six tests." },
];

describe.each([
  [50, 20],
  [80, 24],
  [120, 40],
])("at %ix%i", (columns, rows) => {
  it("shows a marker where context.compacted folded messages, and Enter in browse mode shows the summary", async () => {
    h = await renderUi(columns, rows);
    h.emit({ type: "turn.started", ...ev, turnId: "u1", prompt: "port the parser" });
    h.emit({ type: "assistant.completed", ...ev, text: "Ported.", toolCalls: 0 });
    h.emit({
      type: "turn.completed",
      ...ev,
      turnId: "u1",
      reason: "completed",
      response: "Ported.",
      steps: 1,
      usage: { prompt: 1, completion: 1 },
    });
    h.emit({ type: "notice", ...ev, level: "info", text: "compacting the conversation…" });
    h.emit({
      type: "context.compacted",
      ...ev,
      folded: 51,
      kept: 10,
      summaryChars: 2140,
      failed: false,
      beforeChars: 310_000,
      afterChars: 24_000,
      summary: summaryText,
    });
    const lines = await h.lines();
    expect(lines).toHaveLength(rows - 1);
    expect(widest(lines)).toBeLessThanOrEqual(columns);
    const flat = lines.join(" ").replace(/[│ ]+/g, " ");
    expect(flat).toContain("── folded 51 earlier messages into a summary (2,140 chars; 310k → 24k characters) ──");
    expect(flat).toContain("compacting the conversation…");

    h.keys(keys.ctrl("x"));
    const browsing = (await h.lines()).join(" ").replace(/[│ ]+/g, " ");
    expect(browsing).toContain("Enter shows the summary the model now sees");
    h.keys(keys.enter);
    const detail = await h.lines();
    expect(detail).toHaveLength(rows - 1);
    expect(widest(detail)).toBeLessThanOrEqual(columns);
    const text = detail.join("\n");
    expect(text).toContain("Compaction summary");
    expect(text).toContain("What the model now sees in place of 51 earlier");
    expect(text).toContain("- Open: error recovery in parse.ts");
    h.keys(keys.esc);
    expect(h.store.getState().ui.dialog).toBeNull();
  });

  it("rebuilds a resumed session: the summary becomes the marker, memory blocks are not shown as prompts", async () => {
    h = await renderUi(columns, rows);
    h.emit({ type: "session.loaded", ...ev, messages: resumed, transcript: legacyHistory([], resumed) });
    const lines = await h.lines();
    expect(lines).toHaveLength(rows - 1);
    expect(widest(lines)).toBeLessThanOrEqual(columns);
    const flat = lines.join(" ").replace(/[│ ]+/g, " ");
    expect(flat).toContain("── earlier messages were folded into a summary (");
    expect(flat).toContain("now add error recovery");
    expect(flat).toContain("and tests for it");
    expect(flat).not.toContain("memories");
    expect(flat).not.toContain("use pnpm");
  });
});

describe("the compaction marker", () => {
  it("says when the summary failed and an omission note stands in", async () => {
    h = await renderUi(120, 40);
    // Read as one text across its wrapped rows: no results pane beside it to interleave.
    h.store.updateUi((ui) => ({ ...ui, resultsOpen: false }));
    h.emit({
      type: "context.compacted",
      ...ev,
      folded: 12,
      kept: 10,
      summaryChars: 0,
      failed: true,
      beforeChars: 150_000,
      afterChars: 40_000,
      summary: OMITTED_NOTE,
      error: "the model timed out",
    });
    const flat = (await h.lines()).join(" ").replace(/[│ ]+/g, " ");
    expect(flat).toContain(
      "── folded 12 earlier messages, but the summary failed: the model timed out; an omission note stands in (150k → 40k characters) ──",
    );
    h.keys(keys.ctrl("x"));
    h.keys(keys.enter);
    const detail = await h.frame();
    expect(detail).toContain("Compaction (the summary failed)");
    expect(detail).toContain("The summary of 12 earlier messages failed: the model");
    expect(detail).toContain("[Earlier conversation was omitted to keep the");
  });

  it("y in browse mode copies the summary", async () => {
    h = await renderUi(80, 24);
    h.emit({
      type: "context.compacted",
      ...ev,
      folded: 3,
      kept: 10,
      summaryChars: 120,
      failed: false,
      beforeChars: 130_000,
      afterChars: 9_000,
      summary: summaryText,
      focus: "the parser",
    });
    expect((await h.lines()).join(" ").replace(/[│ ]+/g, " ")).toContain(
      'folded 3 earlier messages into a summary focused on "the parser"',
    );
    h.keys(keys.ctrl("x"));
    h.keys("y");
    expect(h.copied).toEqual([summaryText]);
  });
});

describe("an old-format session's history, rebuilt", () => {
  const fromMessages = (messages: ChatMessage[]) => fromHistory(legacyHistory([], messages));
  it("turns a summary or an omission note into a marker and skips memory blocks", () => {
    const t = fromMessages(resumed);
    expect(t.blocks.map((b) => b.kind)).toEqual(["compaction", "user", "assistant", "user", "assistant"]);
    expect(t.blocks[0]).toMatchObject({ kind: "compaction", folded: null, failed: false, summary: summaryText });
    const omitted = fromMessages([
      { role: "system", content: OMITTED_NOTE },
      { role: "user", content: "hi" },
    ]);
    expect(omitted.blocks[0]).toMatchObject({ kind: "compaction", failed: true });
    // A later failure keeps the earlier summary and appends the note.
    const both = fromMessages([{ role: "system", content: `${summaryText}\n\n${OMITTED_NOTE}` }]);
    expect(both.blocks[0]).toMatchObject({ kind: "compaction", failed: true });
    // Other system messages are not markers; an image prompt with a memory-looking text part is still the user's.
    expect(fromMessages([{ role: "system", content: "be brief" }]).blocks).toEqual([]);
  });
});

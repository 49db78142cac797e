// The full Markdown renderer loads when a reply may be drawn soon, not with the idle UI (issue 17's
// idle-RSS budget): a resumed reply, a running turn or a prompt being written sets it off, once.
// Loading is process-wide, and the files of the fast suite share their worker's modules: this
// file takes fresh copies (vi.resetModules) so the renderer is not loaded yet when it starts.
import { describe, expect, it, vi } from "vitest";

vi.resetModules();
const { loadMarkdownWhenWanted, markdownWanted } = await import("../../../src/ui/app/markdown-when-wanted.js");
const { createEditor } = await import("../../../src/ui/input/editor.js");
const { isMarkdownLoaded } = await import("../../../src/ui/render/markdown.js");
const { initialState, Store } = await import("../../../src/ui/state/store.js");
const { emptyTranscript } = await import("../../../src/ui/state/transcript.js");
type AppState = import("../../../src/ui/state/store.js").AppState;
type TranscriptState = import("../../../src/ui/state/transcript.js").TranscriptState;

const store = () => new Store({ frameMs: 0 });
const withTranscript = (t: Partial<TranscriptState>): AppState => ({
  ...initialState(),
  transcripts: { t1: { ...emptyTranscript(), ...t } },
});
const withComposer = (text: string): AppState => {
  const state = initialState();
  return { ...state, ui: { ...state.ui, composer: createEditor(text) } };
};

describe("markdownWanted", () => {
  it("is false for an idle, empty screen (a notice such as the welcome is not Markdown)", () => {
    expect(markdownWanted(initialState())).toBe(false);
    expect(
      markdownWanted(withTranscript({ blocks: [{ kind: "notice", id: "b1", level: "info", text: "Welcome" }] })),
    ).toBe(false);
  });

  it("is true with a reply in a transcript, a running turn, or text in the composer", () => {
    expect(
      markdownWanted(withTranscript({ blocks: [{ kind: "assistant", id: "b1", text: "**hi**", done: true }] })),
    ).toBe(true);
    expect(markdownWanted(withTranscript({ running: true }))).toBe(true);
    expect(markdownWanted(withComposer("fix the"))).toBe(true);
    expect(markdownWanted(withComposer("\n"))).toBe(true);
  });

  it("is false while a slash command is typed (its ~100-200 ms load would land on the next keys)", () => {
    expect(markdownWanted(withComposer("/mcp"))).toBe(false);
    expect(markdownWanted(withComposer("/"))).toBe(false);
    expect(markdownWanted(withComposer("use /tmp"))).toBe(true);
  });
});

describe("loadMarkdownWhenWanted", () => {
  it("waits while nothing wants Markdown, then loads once when the user starts a prompt", async () => {
    const s = store();
    let calls = 0;
    loadMarkdownWhenWanted(s, () => calls++);
    s.updateUi((ui) => ({ ...ui, focus: "tasks" }));
    await new Promise((r) => setTimeout(r, 50));
    expect(isMarkdownLoaded()).toBe(false);
    expect(calls).toBe(0);
    s.updateUi((ui) => ({ ...ui, composer: createEditor("h") }));
    await expect.poll(() => calls, { timeout: 20_000 }).toBe(1);
    expect(isMarkdownLoaded()).toBe(true);
    s.updateUi((ui) => ({ ...ui, composer: createEditor("hi") }));
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toBe(1);
  });
});

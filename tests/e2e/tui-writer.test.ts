// The cell writer in the built program: the composer's cursor sits right after the typed text
// and shows, a streamed reply reaches the screen without a single screen clear, and the reply's
// text is on screen whole. At 120x40 and 50x20.
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";
import type { PtyApp } from "../helpers/pty.js";

const cursorHidden = (a: PtyApp) =>
  (a.term as unknown as { _core: { coreService: { isCursorHidden: boolean } } })._core.coreService.isCursorHidden;

describe.each([
  [120, 40],
  [50, 20],
])("the terminal writer at %ix%i", (cols, rows) => {
  it("puts the cursor after the typed text and streams without clearing the screen", async () => {
    const { mock, pty } = await e2eEnv([], { model: "mock-model" });
    const app = pty({ cols, rows });
    await app.waitFor("Ask anything");
    await app.typeSlowly("hello wor");
    await app.waitFor("hello wor");
    const lines = app.lines();
    const y = lines.findIndex((l) => l.includes("hello wor"));
    expect(app.term.buffer.active.cursorY).toBe(y);
    expect(app.term.buffer.active.cursorX).toBe(lines[y]!.indexOf("hello wor") + "hello wor".length);
    expect(cursorHidden(app)).toBe(false);

    let raw = "";
    const sub = app.pty.onData((d) => void (raw += d));
    mock.push({ ...textReply(`streamed ${"token ".repeat(60)}omega`), chunkSize: 5, chunkDelayMs: 10 });
    app.type("ld\r");
    const done = await app.waitFor(/✓ hello world · done/, 20_000);
    sub.dispose();
    expect(done).toContain("omega");
    expect(raw).not.toContain("\x1b[2J");
    expect(raw).not.toContain("\n");
    // A synchronized update always ends, and never opens inside another (the writer puts the
    // markers around a large frame in its own write; small frames arrive whole without them).
    const marks = raw.match(/\x1b\[\?2026[hl]/g) ?? [];
    marks.forEach((m, i) => void expect(m).toBe(i % 2 === 0 ? "\x1b[?2026h" : "\x1b[?2026l"));
    expect(marks.length % 2).toBe(0);
  });
});

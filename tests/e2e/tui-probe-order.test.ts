// Issue 35, the tmux prompt: nothing that draws the first frame waits on a terminal reply. The
// terminal handshake (src/ui/terminal/probe.ts: XTVERSION, DECRQM, OSC 11, DA1) is written after
// the input prompt is on screen, and resolves in the background: a terminal that never answers
// (this pty's xterm does not, nothing carries its replies back) still gets the prompt and a live
// input, and a terminal that answers late gets the frame redrawn with what it said (here a light
// background: the light theme). Order of events only, no timings.
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import type { PtyApp } from "../helpers/pty.js";
import { cells } from "../helpers/xterm-screen.js";

/** The first of the handshake's queries (XTVERSION) and the last (DA1, the sentinel). */
const FIRST_QUERY = "\x1b[>0q";
const SENTINEL_QUERY = "\x1b[c";
const PROMPT = "Ask anything";

/** Starts the UI and records everything it writes, in order. */
async function start(extra: Record<string, string | undefined> = {}): Promise<{ app: PtyApp; raw: () => string }> {
  const { env, pty } = await e2eEnv([], { model: "mock-model", env: extra });
  // Colours on, so a theme change shows in the cells.
  delete env.NO_COLOR;
  const started = pty({ cols: 120, rows: 40 });
  let raw = "";
  started.pty.onData((data) => {
    raw += data;
  });
  return { app: started, raw: () => raw };
}

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const startedAt = Date.now();
  while (!check()) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the terminal handshake and the first frame (issue 35)", () => {
  it("draws the input prompt before it asks the terminal anything, and stays live when no reply ever comes", async () => {
    const { app, raw } = await start();
    await app.waitFor(PROMPT, 15_000);
    await until(() => raw().includes(SENTINEL_QUERY), "the handshake's queries");
    const out = raw();
    const promptAt = out.indexOf(PROMPT);
    expect(promptAt).toBeGreaterThanOrEqual(0);
    // The prompt went out before the first query: it cannot have waited on any reply.
    expect(promptAt).toBeLessThan(out.indexOf(FIRST_QUERY));
    // The queries are written once.
    expect(out.split(FIRST_QUERY)).toHaveLength(2);
    // No reply comes; the probe gives up in the background and typing still reaches the input.
    app.type("still here");
    await app.waitFor("still here");
    expect(app.exitCode).toBeNull();
  });

  it("redraws with the light theme when the terminal answers late with a light background", async () => {
    const { app, raw } = await start();
    await app.waitFor(PROMPT, 15_000);
    await until(() => raw().includes(SENTINEL_QUERY), "the handshake's queries");
    await app.settle();
    // The task list's row: its words do not change with what loads after the first frame (the
    // title bar's sandbox label does), its colours change with the theme.
    const row = () => app.lines().findIndex((line) => line.includes("New task"));
    const colours = () => cells(app.term)[row()];
    const before = colours();
    const words = app.lines()[row()];
    // The terminal's answers: a white background (OSC 11), then the DA1 sentinel.
    app.type("\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c");
    await until(() => {
      void app.settle();
      return colours() !== before;
    }, "a redraw in the light theme after the reply");
    await app.settle();
    // Same words, other colours, and the reply did not land in the input as text.
    expect(app.lines()[row()]).toBe(words);
    expect(app.screen()).not.toContain("rgb:");
  });
});

// The full-screen UI in a real pseudo-terminal against the mock model: streaming, inline
// approval, Ctrl-C mid-stream then another turn, resizing, task switching while one runs, and
// quitting with the terminal restored. At 120x40, 80x24 and 50x20.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { keys, type PtyApp } from "../helpers/pty.js";
import { waitFor } from "../helpers/wait.js";

/** Terminal state a user would notice after exit: main screen, cursor shown, modes off. */
function expectRestored(a: PtyApp): void {
  expect(a.altScreen).toBe(false);
  expect(a.term.modes.bracketedPasteMode).toBe(false);
  const core = (a.term as unknown as { _core: { coreService: { isCursorHidden: boolean } } })._core;
  expect(core.coreService.isCursorHidden).toBe(false);
}

describe.each([
  [120, 40],
  [80, 24],
  [50, 20],
])("the UI at %ix%i", (cols, rows) => {
  it("streams a reply, asks for approval inline, stops mid-stream, and the next turn works", async () => {
    const ws = tempDir();
    const { mock, pty } = await e2eEnv(
      [
        { content: "Hello from the **mock** model, streaming.", chunkSize: 4, chunkDelayMs: 20 },
        toolReply([{ name: "run_command", args: { command: "touch approved.txt" } }]),
        textReply("made the file"),
        { content: "this reply is long ".repeat(60), chunkSize: 6, chunkDelayMs: 40 },
        textReply("after the stop"),
      ],
      { model: "mock-model" },
    );
    const app = pty({ cols, rows, cwd: ws });
    await app.waitFor("Ask anything");
    expect(app.altScreen).toBe(true);
    const lines = app.lines();
    expect(lines.length).toBe(rows);
    expect(lines[0]).toContain("NanoHermes");

    await app.typeSlowly("say hello");
    app.type(keys.enter);
    await app.waitFor("streaming.");
    expect(app.screen()).toContain("say hello");

    app.type("make a file");
    app.type(keys.enter);
    await app.waitFor(/Approval needed/);
    expect(app.screen()).toContain("touch approved.txt");
    expect(app.screen()).toMatch(/y once/);
    await app.answer("y");
    await app.waitFor("made the file");
    expect(existsSync(join(ws, "approved.txt"))).toBe(true);

    app.type("write a lot");
    app.type(keys.enter);
    await app.waitFor("this reply is long");
    app.type(keys.ctrl("c"));
    await app.waitFor(/stopped/);
    expect(mock.aborted).toBeGreaterThanOrEqual(1);

    app.type("and now?");
    app.type(keys.enter);
    await app.waitFor("after the stop");
    const sent = mock.requests.at(-1)!.messages as { role: string }[];
    expect(sent.filter((m) => m.role === "user").length).toBe(4);
    // The reply is on screen a frame before its turn ends; Ctrl-C during the turn would stop it
    // instead of asking to exit. The idle composer's placeholder says the turn is over.
    await app.waitFor("Ask anything");

    // The answer shows before the turn ends (its last save comes first): a Ctrl-C then is a stop,
    // not the first of the two that quit. Wait for the idle composer.
    await app.waitFor("Ask anything");
    app.type(keys.ctrl("c"));
    await app.waitFor(/Ctrl-C again|press Ctrl-C/);
    app.type(keys.ctrl("c"));
    expect(await app.exit()).toBe(0);
    expectRestored(app);
  });
});

describe("the UI", () => {
  it("never renders more than rows - 1 lines and re-lays out on resize", async () => {
    const { pty } = await e2eEnv([textReply("resized fine")], { model: "mock-model" });
    const app = pty({ cols: 120, rows: 40 });
    await app.waitFor("Ask anything");
    expect(app.lines()[39], app.screen()).toBe("");
    app.resize(50, 20);
    // The terminal reflows the old frame at once; the app's new frame follows. Wait for it.
    const settled = (s: string) => {
      const l = s.split("\n");
      return l[0]!.startsWith("NanoHermes") && l[19] === "" && /^› Ask anything/.test(l[17] ?? "");
    };
    await app.waitFor(settled);
    expect(
      app
        .lines()
        .slice(0, 19)
        .every((l) => l.length <= 50),
    ).toBe(true);
    app.type("hi");
    app.type(keys.enter);
    await app.waitFor("resized fine");
    app.resize(80, 24);
    await app.waitFor((s) => s.includes("resized fine") && s.includes("Tasks"));
    app.type(keys.ctrl("d"));
    expect(await app.exit()).toBe(0);
    expectRestored(app);
  });

  it("switches tasks while one runs; the running one keeps going", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { mock, pty } = await e2eEnv(
      async (_req, i) => {
        if (i === 0) {
          await gate;
          return textReply("slow task finished");
        }
        return textReply("quick answer");
      },
      { model: "mock-model" },
    );
    const app = pty({ cols: 120, rows: 40 });
    await app.waitFor("Ask anything");
    app.type("slow one");
    app.type(keys.enter);
    await app.waitFor(/running/);
    // The first request must be the slow task's: "running" shows before its request is sent (the
    // session is saved and the sandbox probed first), so wait until the server has it.
    await waitFor(() => mock.requests.length > 0, { what: "the slow task's model request" });
    expect(mock.requests[0]?.messages.at(-1)).toMatchObject({
      role: "user",
      content: expect.stringContaining("slow one"),
    });
    app.type(keys.ctrl("n"));
    await app.waitFor(/Tasks 2/);
    app.type("quick one");
    app.type(keys.enter);
    await app.waitFor("quick answer");
    release();
    // The first task finished while we looked at the second: its row says done and flags it.
    await app.waitFor((s) => /✓1 •slow one/.test(s));
    app.type(keys.alt("1"));
    await app.waitFor("slow task finished");
    app.type(keys.ctrl("d"));
    expect(await app.exit()).toBe(0);
  });

  it("a pasted multi-line block is one message; Enter typed right after text submits", async () => {
    const { mock, pty } = await e2eEnv([textReply("got the paste"), textReply("got the typed line")], {
      model: "mock-model",
    });
    const app = pty({ cols: 80, rows: 24 });
    await app.waitFor("Ask anything");
    app.type(keys.paste("line one\nline two\nline three"));
    await app.waitFor("line three");
    app.type(keys.enter);
    await app.waitFor("got the paste");
    expect(mock.requests[0]!.messages.at(-1)).toMatchObject({
      role: "user",
      content: "line one\nline two\nline three",
    });
    // Keystrokes and Enter arriving in one read, as over a slow SSH link.
    app.type("fast typing\r");
    await app.waitFor("got the typed line");
    expect(mock.requests[1]!.messages.at(-1)).toMatchObject({ role: "user", content: "fast typing" });
    app.type(keys.ctrl("d"));
    await app.exit();
  });

  it("restores the terminal and saves the session on SIGTERM and SIGHUP", async () => {
    for (const signal of ["SIGTERM", "SIGHUP"]) {
      const { home, pty, dispose } = await e2eEnv([textReply("saved before exit")]);
      const app = pty({ cols: 80, rows: 24 });
      await app.waitFor("Ask anything");
      app.type("remember me\r");
      await app.waitFor("saved before exit");
      app.kill(signal);
      await app.exit();
      expectRestored(app);
      const sessions = join(home, "sessions");
      expect(existsSync(sessions)).toBe(true);
      await dispose();
    }
  });

  it("shows the hint and exits 2 without a terminal", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "x"), "");
    const { runCli } = await import("../helpers/cli.js");
    const r = await runCli([], { input: "" });
    expect(r.code).toBe(2);
  });
});

// --screen-reader in a real pseudo-terminal against the mock model: a turn with a tool call that
// asks for approval, read as a screen reader would get it: one pane, a role first on each item,
// states in words, no box drawing at any step.
import { expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

const BOX = /[\u2500-\u257f]/;

it("runs a turn with a tool call in the linear layout", async () => {
  const { pty } = await e2eEnv(
    [toolReply([{ name: "run_command", args: { command: "touch made.txt" } }]), textReply("made the file for you")],
    { model: "mock-model" },
  );
  const app = pty({ cols: 80, rows: 24, args: ["--screen-reader"] });
  await app.waitFor("Ask anything");
  // At 80 columns the other layout puts the task list beside the transcript; this one does not.
  expect(app.screen()).not.toMatch(/Tasks 1/);
  expect(app.screen()).not.toMatch(BOX);

  await app.typeSlowly("make a file");
  app.type(keys.enter);
  await app.waitFor(/Approval needed: /);
  let screen = app.screen();
  expect(screen).not.toMatch(BOX);
  expect(app.lines().some((l) => l.startsWith("You: make a file"))).toBe(true);
  expect(app.lines().some((l) => l.startsWith("Keys: y once"))).toBe(true);

  await app.answer("y");
  screen = await app.waitFor("made the file for you");
  const lines = app.lines();
  expect(screen).not.toMatch(BOX);
  expect(screen).not.toMatch(/[●✓✗]/);
  expect(lines.some((l) => /^Tool run_command: done/.test(l))).toBe(true);
  expect(lines.some((l) => l.startsWith("Assistant: made the file for you"))).toBe(true);
  expect(lines.some((l) => l.startsWith("Approval approved once: "))).toBe(true);

  // The task list takes the transcript's place, then gives it back.
  app.type(keys.ctrl("t"));
  await app.waitFor(/Tasks: 1/);
  expect(app.screen()).not.toContain("You: make a file");
  app.type(keys.ctrl("t"));
  await app.waitFor("You: make a file");

  app.type(keys.ctrl("c"));
  await app.waitFor(/Ctrl-C again|press Ctrl-C/);
  app.type(keys.ctrl("c"));
  expect(await app.exit()).toBe(0);
});

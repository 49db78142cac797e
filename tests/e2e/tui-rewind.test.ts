// /rewind through the built program in a real terminal against the mock model: turn 1 writes a
// file with write_file, turn 2 changes it with a command; the Turns tab shows turn 2's diff, and
// /rewind turn 2 "files only" puts the turn-1 content back on disk (the conversation stays).
// At 120x40, 80x24 and 50x20.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

const TURN1 = "one\ntwo\nthree\n";
const TURN2 = "one\nTWO\nthree\n";

describe.each([
  [120, 40],
  [80, 24],
  [50, 20],
])("/rewind at %ix%i", (cols, rows) => {
  it("shows turn 2's diff in the Turns tab, and rewinding its files puts the turn-1 content back", async () => {
    const { workspace: ws, pty } = await e2eEnv(
      [
        toolReply([{ name: "write_file", args: { path: "notes.txt", content: TURN1 } }]),
        textReply("wrote the notes"),
        toolReply([{ name: "run_command", args: { command: "sed -i 's/two/TWO/' notes.txt" } }]),
        textReply("shouted two"),
      ],
      { model: "mock-model" },
    );
    const notes = join(ws, "notes.txt");
    // -y: approval policy never, so neither call waits for a y.
    const app = pty({ cols, rows, args: ["-y"] });
    await app.waitFor("Ask anything");
    await app.typeSlowly("write the notes");
    app.type(keys.enter);
    await app.waitFor("wrote the notes");
    expect(readFileSync(notes, "utf8")).toBe(TURN1);
    await app.typeSlowly("shout two");
    app.type(keys.enter);
    await app.waitFor("shouted two");
    expect(readFileSync(notes, "utf8")).toBe(TURN2);

    // The Turns tab: turn 2 newest first with the file the command changed; its diff since before it.
    app.type(keys.ctrl("r"));
    app.type(keys.right);
    let screen = await app.waitFor((s) => s.includes("[Turns 2]") && s.includes("Turn 2 · shout two"));
    expect(screen).toContain("M notes.txt");
    expect(screen).toContain("Turn 1 · write the notes");
    expect(screen).toContain("A notes.txt");
    expect(screen.indexOf("Turn 2 · shout two")).toBeLessThan(screen.indexOf("Turn 1 · write the notes"));
    expect(app.lines().every((l) => l.length <= cols)).toBe(true);
    app.type(keys.down);
    app.type(keys.enter);
    screen = await app.waitFor((s) => s.includes("+ TWO") && s.includes("Turn 2 · before it → now"));
    expect(screen).toContain("- two");
    expect(screen).toMatch(/notes\.txt \+1 -1/);
    expect(app.lines().every((l) => l.length <= cols)).toBe(true);
    // Esc: back to the list; Esc again: back to the input.
    app.type(keys.esc);
    await app.waitFor((s) => !s.includes("+ TWO"));
    app.type(keys.esc);
    // A key typed right after Esc would make it Alt+key: wait for the input's hints.
    await app.waitFor("Enter send");

    // /rewind: both turns, newest first; turn 2, files only.
    await app.typeSlowly("/rewind");
    app.type(keys.enter);
    screen = await app.waitFor(
      (s) => s.includes("Rewind: go back to before a turn") && s.includes("2 turns, newest first"),
    );
    expect(screen).toMatch(/› 2 +shout two +1 file/);
    expect(screen).toMatch(/1 +write the notes +1 file/);
    expect(app.lines().every((l) => l.length <= cols)).toBe(true);
    app.type(keys.enter);
    screen = await app.waitFor((s) => s.includes("Rewind to before turn 2") && /› b +Both/.test(s));
    app.type("f");
    await app.waitFor("files as before turn 2: 1 restored, 0 removed");
    expect(readFileSync(notes, "utf8")).toBe(TURN1);
    // The conversation stays: both prompts are still on screen.
    screen = app.screen();
    expect(screen).toContain("shout two");

    app.type(keys.ctrl("d"));
    expect(await app.exit()).toBe(0);
  }, 40_000);
});

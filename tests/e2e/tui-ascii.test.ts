// The UI under a non-UTF-8 locale (LANG=C) in a real pseudo-terminal: a turn with a tool call and
// its approval, browse mode and the task list leave nothing but ASCII on the screen (issue 18,
// item 7), at 120x40, 80x24 and 50x20.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

/** The first character outside printable ASCII on the screen, with its row, or null. */
function nonAscii(screen: string): string | null {
  const rows = screen.split("\n");
  for (let i = 0; i < rows.length; i++) {
    const m = /[^\x20-\x7e]/.exec(rows[i]!);
    if (m) return `row ${i}: U+${m[0].codePointAt(0)!.toString(16)} in ${JSON.stringify(rows[i])}`;
  }
  return null;
}

describe.each([
  [120, 40],
  [80, 24],
  [50, 20],
])("LANG=C at %ix%i", (cols, rows) => {
  it("draws only ASCII through a turn with a tool call, an approval and browse mode", async () => {
    const { workspace, pty } = await e2eEnv(
      [
        toolReply([{ name: "read_file", args: { path: "notes.txt" } }]),
        toolReply([{ name: "run_command", args: { command: "touch made.txt" } }]),
        textReply("Read the notes and made the file - all done."),
      ],
      { model: "mock-model", env: { LANG: "C", LC_ALL: undefined, LC_CTYPE: undefined } },
    );
    writeFileSync(join(workspace, "notes.txt"), "one\ntwo\n");
    const app = pty({ cols, rows });
    const screens: string[] = [];
    screens.push(await app.waitFor("Ask anything"));

    await app.typeSlowly("read the notes");
    app.type(keys.enter);
    screens.push(await app.waitFor(/Approval needed/));
    await app.answer("y");
    // The reply shows a frame before its turn ends; browse mode waits for the task to be done.
    screens.push(await app.waitFor((s) => s.includes("all done.") && / - done - /.test(s)));
    // Without colour (testEnv sets NO_COLOR) the selection is the ASCII marker: browse mode on the
    // last block, then the task list (an overlay when narrow) on the task.
    app.type(keys.ctrl("x"));
    screens.push(await app.waitFor(/> Read the notes and made the file/));
    app.type(keys.ctrl("t"));
    screens.push(await app.waitFor(/^> \+1 +read/m));

    for (const s of screens) expect(nonAscii(s), s).toBeNull();
    app.kill("SIGTERM");
    await app.exit();
  });
});

// Status that is true: the stop hint stays while the task is stopping and goes when the turn has
// ended; a second Ctrl-C kills the running command for as long as that hint is shown (here 3 s
// after the first, past the 2 s double-press window); "press Ctrl-C again to exit" goes when it
// stops being true instead of staying until something else redraws.
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each([
  [120, 40],
  [80, 24],
])("status at %ix%i", (cols, rows) => {
  it("keeps the stop hint while stopping, kills on the second Ctrl-C after 3 s, and clears stale hints", async () => {
    const { pty } = await e2eEnv(
      [
        toolReply([{ name: "run_command", args: { command: 'echo sta""rted; sleep 60; echo nev""er-printed' } }]),
        textReply("after"),
      ],
      { model: "mock-model" },
    );
    const app = pty({ cols, rows, args: ["-y"] });
    await app.waitFor("Ask anything");
    app.type("run the long command");
    await app.waitFor(/run the long command/);
    app.type(keys.enter);
    // The quotes keep the card's command line from matching what only the output says.
    await app.waitFor(/started/);
    app.type(keys.ctrl("c"));
    await app.waitFor(/stopping after this step/);
    // Past the double-press window the hint is still there, and still true.
    await sleep(3000);
    expect(app.screen()).toMatch(/Ctrl-C again to kill/);
    app.type(keys.ctrl("c"));
    await app.waitFor(/stopped/, 8000);
    expect(app.screen()).not.toContain("never-printed");
    // The turn is over: the hint that said it was stopping is gone.
    await app.waitFor((s) => !/stopping after this step/.test(s) && !/Ctrl-C again to kill/.test(s), 6000);

    // "press Ctrl-C again to exit" goes by itself once pressing again would no longer exit
    // (first out of the double-press window of the kill above).
    await sleep(2100);
    app.type(keys.ctrl("c"));
    await app.waitFor(/press Ctrl-C again (within 2 s )?to exit/);
    await app.waitFor((s) => !/press Ctrl-C again (within 2 s )?to exit/.test(s), 5000);
    expect(app.exitCode).toBeNull();
  });
});

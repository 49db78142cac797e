// Habits in a real terminal (issue 28, item 5): the UI turns SGR mouse reporting on (and off at
// exit), so the wheel scrolls the transcript; the window title (OSC 2) names the task and says when
// an approval waits.
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

describe("habits at 80x24", () => {
  it("reports the wheel, names the task in the title, and restores both at exit", async () => {
    const { pty } = await e2eEnv(
      [toolReply([{ name: "run_command", args: { command: "touch made.txt" } }]), textReply("made it")],
      { model: "mock-model" },
    );
    const app = pty({ cols: 80, rows: 24 });
    const titles: string[] = [];
    app.term.onTitleChange((t) => titles.push(t));
    await app.waitFor("Ask anything");
    expect(app.term.modes.mouseTrackingMode).not.toBe("none");
    app.type("make the file");
    app.type(keys.enter);
    await app.waitFor(/Approval needed/);
    await app.settle();
    expect(titles.at(-1)).toBe("! waiting for approval · make the file · NanoHermes");
    await app.answer("y");
    await app.waitFor("made it");
    await app.waitFor(() => titles.at(-1) === "make the file · NanoHermes");
    app.type(keys.ctrl("d"));
    expect(await app.exit()).toBe(0);
    expect(app.term.modes.mouseTrackingMode).toBe("none");
  });
});

// Approval records survive a restart (issue 28, item 12): a question answered "once" and one
// denied show in the transcript rebuilt by -c as they did live, with their answers, in the order
// they were asked; none comes back as a card waiting for a key.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

describe("approvals in a resumed transcript", () => {
  it("shows each question with its answer after a restart", async () => {
    const { workspace: ws, pty } = await e2eEnv(
      [
        toolReply([{ name: "run_command", args: { command: "touch made.txt" } }]),
        toolReply([{ name: "run_command", args: { command: "touch second.txt" } }]),
        textReply("left as it is"),
      ],
      { model: "mock-model" },
    );
    // The on-request policy asks before a command that is not read-only.
    const start = (args: string[] = []) => pty({ cols: 120, rows: 40, args: ["--approval", "on-request", ...args] });
    let app = start();
    await app.waitFor("Ask anything");
    app.type("make the files");
    app.type(keys.enter);
    await app.waitFor("Approval needed");
    await app.answer("y");
    await app.waitFor(/Approval needed[\s\S]*touch second\.txt/);
    // n denies and ends the turn.
    await app.answer("n");
    await app.waitFor("Ask anything");
    expect(existsSync(join(ws, "made.txt"))).toBe(true);
    expect(existsSync(join(ws, "second.txt"))).toBe(false);
    app.type("and one more");
    app.type(keys.enter);
    await app.waitFor("left as it is");
    await app.waitFor("Ask anything");
    app.kill("SIGTERM");
    await app.exit();

    app = start(["-c"]);
    const screen = await app.waitFor(/approved once: .*touch made\.txt/);
    expect(screen).toMatch(/denied: .*touch second\.txt/);
    // Answered questions are lines, not cards: nothing waits for a key.
    expect(screen).not.toContain("Approval needed");
    expect(screen).not.toContain("waiting for approval");
    // In the order they were asked, before the next prompt.
    expect(screen.indexOf("approved once")).toBeLessThan(screen.indexOf("denied: "));
    expect(screen.indexOf("denied: ")).toBeLessThan(screen.indexOf("and one more"));
    app.kill("SIGTERM");
    await app.exit();
  }, 60_000);
});

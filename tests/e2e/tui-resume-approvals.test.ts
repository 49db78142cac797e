// Approval records survive a restart (issue 28, item 12): a question answered "once" and one
// denied show in the transcript rebuilt by -c as they did live, with their answers, in the order
// they were asked; none comes back as a card waiting for a key.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir, testEnv } from "../helpers/cli.js";
import { startMockServer, textReply, toolReply, type MockServer } from "../helpers/mock-openai.js";
import { keys, PtyApp } from "../helpers/pty.js";

let server: MockServer | undefined;
let app: PtyApp | undefined;
afterEach(async () => {
  if (app && app.exitCode === null) app.kill("SIGKILL");
  app = undefined;
  await server?.close();
  server = undefined;
});

describe("approvals in a resumed transcript", () => {
  it("shows each question with its answer after a restart", async () => {
    const ws = tempDir();
    server = await startMockServer([
      toolReply([{ name: "run_command", args: { command: "touch made.txt" } }]),
      toolReply([{ name: "run_command", args: { command: "touch second.txt" } }]),
      textReply("left as it is"),
    ]);
    const env = testEnv({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url, NANOHERMES_MODEL: "mock-model" });
    // The on-request policy asks before a command that is not read-only.
    const start = (args: string[] = []) =>
      new PtyApp({ cols: 120, rows: 40, cwd: ws, env, args: ["--approval", "on-request", ...args] });
    app = start();
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

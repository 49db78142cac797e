// The full-screen UI in Anthropic Messages mode: the same transcript, thinking shown as reasoning,
// a tool step, and nothing written to the terminal outside Ink's frames.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { tempDir, testEnv } from "../helpers/cli.js";
import { type AnthropicMock, startAnthropicMock, textReply, toolReply } from "../helpers/mock-anthropic.js";
import { keys, PtyApp } from "../helpers/pty.js";

let server: AnthropicMock | undefined;
let app: PtyApp | undefined;
afterEach(async () => {
  if (app && app.exitCode === null) app.kill("SIGKILL");
  app = undefined;
  await server?.close();
  server = undefined;
});

it("runs a tool step and answers in Anthropic mode, with the SDK quiet on the terminal", async () => {
  const ws = tempDir();
  writeFileSync(join(ws, "notes.txt"), "the secret word is kumquat\n");
  server = await startAnthropicMock([
    {
      ...toolReply([{ name: "read_file", args: { path: "notes.txt" } }]),
      thinking: [{ text: "I should open notes.txt", signature: "S-tui" }],
    },
    { ...textReply("The word is kumquat."), chunkSize: 4, chunkDelayMs: 10 },
  ]);
  // claude-opus-4-5 is a model the SDK's messages.create warns about on the console.
  app = new PtyApp({
    cols: 100,
    rows: 30,
    cwd: ws,
    args: ["--api", "anthropic", "--base-url", server.url, "--model", "claude-opus-4-5", "--thinking", "low"],
    env: testEnv({ ANTHROPIC_API_KEY: "sk-ant-tui" }),
  });
  await app.waitFor("Ask anything");
  await app.typeSlowly("what is the secret word?");
  app.type(keys.enter);
  await app.waitFor("The word is kumquat.");
  expect(app.screen()).not.toMatch(/deprecated|end-of-life/);
  expect(server.requests).toHaveLength(2);
  expect((server.requests[1]!.messages[1]!.content as { signature?: string }[])[0]!.signature).toBe("S-tui");
});

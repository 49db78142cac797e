// Resuming a session saved with a dangling tool call: the request sent carries an [interrupted]
// result for it (providers refuse a call without a result), and the user is told.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { startMockServer, textReply, type MockServer } from "../helpers/mock-openai.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("resuming a session with a dangling tool call", () => {
  it("repairs it before the first request", async () => {
    server = await startMockServer([textReply("continuing")]);
    const ws = tempDir();
    const file = join(tempDir(), "s.json");
    const now = new Date().toISOString();
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        id: "s",
        createdAt: now,
        updatedAt: now,
        workspace: ws,
        model: "m",
        messages: [
          { role: "system", content: "old" },
          { role: "user", content: "list files" },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "call_x", type: "function", function: { name: "list_dir", arguments: "{}" } }],
          },
        ],
      }),
    );
    const r = await runCli(["-p", "go on", "-C", ws, "--session", file], {
      env: testEnv({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url, NANOHERMES_MODEL: "m" }),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("the session's history was repaired: 1 tool call(s) without a result");
    const sent = server.requests[0]!.messages as { role: string; tool_call_id?: string; content?: string }[];
    const i = sent.findIndex((m) => m.role === "tool");
    expect(sent[i - 1]).toMatchObject({ role: "assistant" });
    expect(sent[i]).toMatchObject({ tool_call_id: "call_x", content: expect.stringMatching(/^\[interrupted\]/) });
  });
});

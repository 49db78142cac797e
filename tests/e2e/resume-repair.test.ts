// Resuming a session saved with a dangling tool call: the request sent carries an [interrupted]
// result for it (providers refuse a call without a result), and the user is told.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

describe("resuming a session with a dangling tool call", () => {
  it("repairs it before the first request", async () => {
    const { mock, run } = await e2eEnv([textReply("continuing")], { model: "m" });
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
    const r = await run(["-p", "go on", "-C", ws, "--session", file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("the session's history was repaired: 1 tool call(s) without a result");
    const sent = mock.requests[0]!.messages as { role: string; tool_call_id?: string; content?: string }[];
    const i = sent.findIndex((m) => m.role === "tool");
    expect(sent[i - 1]).toMatchObject({ role: "assistant" });
    expect(sent[i]).toMatchObject({ tool_call_id: "call_x", content: expect.stringMatching(/^\[interrupted\]/) });
  });
});

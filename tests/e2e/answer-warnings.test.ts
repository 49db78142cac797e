// A one-shot run says when its answer is suspect (cut at the output limit, or empty) on stderr and
// in --json, and does not wait a minute for a hanging memory distillation after the answer.
import { afterEach, describe, expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { startMockServer, textReply, type MockServer } from "../helpers/mock-openai.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const envFor = (s: MockServer, extra: Record<string, string | undefined> = {}) =>
  testEnv({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: s.url, NANOHERMES_MODEL: "m", ...extra });

describe("suspect answers (built program)", () => {
  it("finish_reason length: the text is printed and stderr says it is cut", async () => {
    server = await startMockServer([textReply("the first half of", { finishReason: "length" })]);
    const r = await runCli(["-p", "hi", "-C", tempDir()], { env: envFor(server) });
    expect(r.stdout).toBe("the first half of\n");
    expect(r.stderr).toContain(
      "warn: the model stopped at its output limit (finish_reason: length): the answer is cut short",
    );
  });

  it("an empty answer is named on stderr and in --json", async () => {
    server = await startMockServer([textReply("")]);
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--json"], { env: envFor(server) });
    const out = JSON.parse(r.stdout) as { reason: string; warning?: string };
    expect(out).toMatchObject({
      reason: "completed",
      warning: "the model ended the turn without an answer (empty reply)",
    });
    expect(r.stderr).toContain("warn: the model ended the turn without an answer (empty reply)");
  });

  it("exits a few seconds after the answer when the memory distillation hangs (was 60 s)", async () => {
    server = await startMockServer([textReply("answer"), { status: 200, delayMs: 120_000, raw: "" }]);
    const r = await runCli(["-p", "hi", "-C", tempDir()], {
      env: envFor(server, { NANOHERMES_NO_MEMORY: undefined }),
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("answer\n");
    // The distillation request was sent, and given up (its connection closed) rather than awaited.
    expect(server.requests).toHaveLength(2);
  });
});

// A one-shot run says when its answer is suspect (cut at the output limit, or empty) on stderr and
// in --json, and does not wait a minute for a hanging memory distillation after the answer.
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

describe("suspect answers (built program)", () => {
  it("finish_reason length: the text is printed and stderr says it is cut", async () => {
    const { run } = await e2eEnv([textReply("the first half of", { finishReason: "length" })], { model: "m" });
    const r = await run(["-p", "hi", "-C", tempDir()]);
    expect(r.stdout).toBe("the first half of\n");
    expect(r.stderr).toContain(
      "warn: the model stopped at its output limit (finish_reason: length): the answer is cut short",
    );
  });

  it("an empty answer is named on stderr and in --json", async () => {
    const { run } = await e2eEnv([textReply("")], { model: "m" });
    const r = await run(["-p", "hi", "-C", tempDir(), "--json"]);
    const out = JSON.parse(r.stdout) as { reason: string; warning?: string };
    expect(out).toMatchObject({
      reason: "completed",
      warning: "the model ended the turn without an answer (empty reply)",
    });
    expect(r.stderr).toContain("warn: the model ended the turn without an answer (empty reply)");
  });

  it("exits a few seconds after the answer when the memory distillation hangs (was 60 s)", async () => {
    const { mock, envWith } = await e2eEnv([textReply("answer"), { status: 200, delayMs: 120_000, raw: "" }], {
      model: "m",
    });
    const r = await runCli(["-p", "hi", "-C", tempDir()], {
      env: envWith({ NANOHERMES_NO_MEMORY: undefined }),
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("answer\n");
    // The distillation request was sent, and given up (its connection closed) rather than awaited.
    expect(mock.requests).toHaveLength(2);
  });
});

// The built program against a model that hangs or trickles keep-alive comments: it says on a
// non-terminal stderr that it waits, gives up at the configured limits, and a turn past its
// time limit is stopped with its session saved.
import { writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";

/** The environment with `config` (and no retries) in its home's config.json. */
function configured(env: Record<string, string | undefined>, config: Record<string, unknown>) {
  writeFileSync(join(env.NANOHERMES_HOME!, "config.json"), JSON.stringify({ maxRetries: 0, ...config }));
  return env;
}

describe("model deadlines (built program)", () => {
  it("a server that only trickles keep-alive comments ends the run, and stderr (a pipe) says it waited", async () => {
    const { env } = await e2eEnv([textReply("hello", { trickleAfterChunks: 1, keepAliveMs: 20 })], {
      model: "m",
    });
    const r = await runCli(["-p", "hi", "-C", tempDir()], {
      env: configured(env, { requestTimeoutMs: 800, waitNoticeMs: 100 }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/waiting for the model \(m\): nothing for \d+ s, gives up after 1 s without output/);
    expect(r.stderr).toContain(
      "nanohermes: model request failed: the model sent no content for 800 ms (requestTimeoutMs)",
    );
  });

  it("--json mode also reports the wait on stderr and the failure in the result", async () => {
    const { env } = await e2eEnv([{ status: 200, delayMs: 60_000, raw: "" }], { model: "m" });
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--json"], {
      env: configured(env, { requestTimeoutMs: 600, waitNoticeMs: 100 }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("waiting for the model (m)");
    expect(JSON.parse(r.stdout)).toMatchObject({
      reason: "error",
      error: "model request failed: the model sent no content for 600 ms (requestTimeoutMs)",
    });
  });

  it("--stream-json carries model.waiting events", async () => {
    const { env } = await e2eEnv([textReply("x", { hangAfterChunks: 0 })], { model: "m" });
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--stream-json"], {
      env: configured(env, { requestTimeoutMs: 500, waitNoticeMs: 100 }),
    });
    const waits = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; idleLimitMs?: number })
      .filter((e) => e.type === "model.waiting");
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]!.idleLimitMs).toBe(500);
  });

  it("a turn past turnTimeoutMs is stopped (its command killed), ends with an error and is saved", async () => {
    const { mock, env } = await e2eEnv(
      [toolReply([{ name: "run_command", args: { command: "sleep 30" } }]), textReply("never reached")],
      { model: "m" },
    );
    const ws = tempDir();
    const r = await runCli(["-p", "hi", "-C", ws, "-y", "--sandbox", "off", "--json"], {
      env: configured(env, { turnTimeoutMs: 1_000 }),
      timeoutMs: 20_000,
    });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { reason: string; error: string; sessionFile: string };
    expect(out).toMatchObject({
      reason: "error",
      error: "the turn ran past its time limit of 1 s (turnTimeoutMs) and was stopped",
    });
    const saved = JSON.parse(readFileSync(out.sessionFile, "utf8")) as {
      messages: { role: string; content: unknown }[];
    };
    // The history stays valid: the killed command has its result.
    expect(saved.messages.at(-1)).toMatchObject({ role: "tool" });
    expect(mock.requests).toHaveLength(1);
  });
});

// The built program against a model that hangs or trickles keep-alive comments: it says on a
// non-terminal stderr that it waits, gives up at the configured limits, and a turn past its
// time limit is stopped with its session saved.
import { writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { startMockServer, textReply, toolReply, type MockServer } from "../helpers/mock-openai.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function envWith(s: MockServer, config: Record<string, unknown>) {
  const env = testEnv({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: s.url, NANOHERMES_MODEL: "m" });
  writeFileSync(join(env.NANOHERMES_HOME!, "config.json"), JSON.stringify({ maxRetries: 0, ...config }));
  return env;
}

describe("model deadlines (built program)", () => {
  it("a server that only trickles keep-alive comments ends the run, and stderr (a pipe) says it waited", async () => {
    server = await startMockServer([textReply("hello", { trickleAfterChunks: 1, keepAliveMs: 20 })]);
    const r = await runCli(["-p", "hi", "-C", tempDir()], {
      env: envWith(server, { requestTimeoutMs: 800, waitNoticeMs: 100 }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/waiting for the model \(m\): nothing for \d+ s, gives up after 1 s without output/);
    expect(r.stderr).toContain(
      "nanohermes: model request failed: the model sent no content for 800 ms (requestTimeoutMs)",
    );
  });

  it("--json mode also reports the wait on stderr and the failure in the result", async () => {
    server = await startMockServer([{ status: 200, delayMs: 60_000, raw: "" }]);
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--json"], {
      env: envWith(server, { requestTimeoutMs: 600, waitNoticeMs: 100 }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("waiting for the model (m)");
    expect(JSON.parse(r.stdout)).toMatchObject({
      reason: "error",
      error: "model request failed: the model sent no content for 600 ms (requestTimeoutMs)",
    });
  });

  it("--stream-json carries model.waiting events", async () => {
    server = await startMockServer([textReply("x", { hangAfterChunks: 0 })]);
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--stream-json"], {
      env: envWith(server, { requestTimeoutMs: 500, waitNoticeMs: 100 }),
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
    server = await startMockServer([
      toolReply([{ name: "run_command", args: { command: "sleep 30" } }]),
      textReply("never reached"),
    ]);
    const ws = tempDir();
    const r = await runCli(["-p", "hi", "-C", ws, "-y", "--sandbox", "off", "--json"], {
      env: envWith(server, { turnTimeoutMs: 1_000 }),
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
    expect(server.requests).toHaveLength(1);
  });
});

// The built program against a failing model: retries with backoff, Retry-After, hard errors,
// the fallback model, malformed replies and dropped streams.
import { createServer, type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, type MockServer } from "../helpers/mock-openai.js";

const mainModel = { model: "main-model" };

const gaps = (s: MockServer) => s.requests.slice(1).map((r, i) => r.receivedAt - s.requests[i]!.receivedAt);

describe("model failures", () => {
  it("retries a 503 and then succeeds", async () => {
    const { mock, envWith } = await e2eEnv([{ status: 503 }, textReply("recovered")], mainModel);
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--retry-base-ms", "50", "--verbose"], {
      env: envWith(),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("recovered\n");
    expect(mock.requests).toHaveLength(2);
    expect(r.stderr).toMatch(/retrying, attempt 2 of 3 in 0\.1 s: 503/);
  });

  it("says each retry on a stderr that is no terminal (issue 28), and -q keeps it quiet", async () => {
    const { mock, envWith } = await e2eEnv([{ status: 503 }, { status: 502 }, textReply("recovered")], mainModel);
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--retry-base-ms", "50"], { env: envWith() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("recovered\n");
    expect(r.stderr.split("\n").filter((l) => l.includes("retrying"))).toEqual([
      expect.stringMatching(/^\s*retrying, attempt 2 of 3 in 0\.1 s: 503/),
      expect.stringMatching(/^\s*retrying, attempt 3 of 3 in 0\.1 s: 502/),
    ]);
    mock.push({ status: 503 }, textReply("quiet"));
    const q = await runCli(["-p", "hi", "-C", tempDir(), "--retry-base-ms", "50", "-q"], { env: envWith() });
    expect(q.code).toBe(0);
    expect(q.stderr).not.toContain("retrying");
  });

  it("backs off on 429 with base * 2^(n-1)", async () => {
    const { mock, envWith } = await e2eEnv([{ status: 429 }, { status: 429 }, textReply("ok")], mainModel);
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--retry-base-ms", "200", "--stream-json"], {
      env: envWith(),
    });
    expect(r.code).toBe(0);
    const retries = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; delayMs?: number; attempt?: number; status?: number })
      .filter((e) => e.type === "model.retrying");
    expect(retries.map((e) => [e.attempt, e.delayMs, e.status])).toEqual([
      [1, 200, 429],
      [2, 400, 429],
    ]);
    // Lower bounds only: a slow machine can make gaps longer, never shorter.
    const [g1, g2] = gaps(mock);
    expect(g1).toBeGreaterThanOrEqual(190);
    expect(g2).toBeGreaterThanOrEqual(390);
  });

  it("honours a Retry-After longer than the backoff", async () => {
    const { mock, run } = await e2eEnv([{ status: 429, headers: { "retry-after": "1" } }, textReply("ok")], mainModel);
    const r = await run(["-p", "hi", "-C", tempDir(), "--retry-base-ms", "10"]);
    expect(r.code).toBe(0);
    expect(gaps(mock)[0]).toBeGreaterThanOrEqual(950);
  });

  it("fails at once on a hard 400, with one line on stderr", async () => {
    const { mock, run } = await e2eEnv(
      [{ status: 400, body: { error: { message: "bad request: context too long", type: "invalid_request_error" } } }],
      mainModel,
    );
    const r = await run(["-p", "hi", "-C", tempDir(), "--fallback-model", "other"]);
    expect(r.code).toBe(1);
    expect(mock.requests).toHaveLength(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^nanohermes: model request failed: 400 .*context too long/);
  });

  it("tries the fallback model once when retries run out", async () => {
    const { mock, envWith } = await e2eEnv(
      [{ status: 502 }, { status: 502 }, { status: 502 }, textReply("from fallback")],
      mainModel,
    );
    const r = await runCli(
      [
        "-p",
        "hi",
        "-C",
        tempDir(),
        "--retry-base-ms",
        "1",
        "--max-retries",
        "2",
        "--fallback-model",
        "backup",
        "--json",
      ],
      {
        env: envWith(),
      },
    );
    expect(r.code).toBe(0);
    expect(mock.requests.map((q) => q.model)).toEqual(["main-model", "main-model", "main-model", "backup"]);
    expect(JSON.parse(r.stdout)).toMatchObject({ response: "from fallback", reason: "completed" });
  });

  it("fails clearly when the fallback fails too", async () => {
    const { mock, envWith } = await e2eEnv([{ status: 500 }, { status: 500 }], mainModel);
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--max-retries", "0", "--fallback-model", "backup"], {
      env: envWith(),
    });
    expect(r.code).toBe(1);
    expect(mock.requests.map((q) => q.model)).toEqual(["main-model", "backup"]);
    expect(r.stderr).toMatch(/model request failed: 500/);
  });

  it("retries a stream that drops mid-reply and keeps none of the partial text", async () => {
    const { mock, run } = await e2eEnv(
      [{ content: "this partial text must vanish", chunkSize: 4, dropAfterChunks: 3 }, textReply("complete answer")],
      mainModel,
    );
    const r = await run(["-p", "hi", "-C", tempDir(), "--retry-base-ms", "1", "--json"]);
    expect(r.code).toBe(0);
    expect(mock.requests).toHaveLength(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ response: "complete answer" });
    expect(JSON.stringify(mock.requests[1]!.messages)).not.toContain("partial");
  });

  it("reports malformed model output without crashing", async () => {
    const { envWith } = await e2eEnv([{ raw: "this is not json at all" }, { raw: "still not json" }], mainModel);
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--no-stream", "--max-retries", "1", "--retry-base-ms", "1"], {
      env: envWith(),
    });
    expect(r.code).toBe(1);
    // The retry is said first, then the failure, each one line.
    expect(r.stderr).toMatch(/^\s*retrying, attempt 2 of 2 in 0\.0 s: /);
    expect(r.stderr).toMatch(/^nanohermes: model request failed: the reply was not (valid JSON|a chat completion)/m);
    expect(r.stderr).not.toMatch(/at .*\.js/);
  });

  it("reports an unreachable endpoint after retrying", async () => {
    // A port just freed, so nothing listens there (fetch refuses "bad ports" such as 9 outright).
    const probe = createServer();
    await new Promise<void>((res) => probe.listen(0, "127.0.0.1", res));
    const { port } = probe.address() as AddressInfo;
    await new Promise((res) => probe.close(res));
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--retry-base-ms", "1", "--max-retries", "1"], {
      env: testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^\s*retrying, attempt 2 of 2 in 0\.0 s: connection error/);
    expect(r.stderr).toMatch(/^nanohermes: model request failed: connection error: connect ECONNREFUSED/m);
  });
});

// Providers through the built program: a fallback to a second provider (two mock servers, each
// with its own key), announced in --stream-json; Google's schema subset on the wire; local presets
// without a key; a missing key named; cost in --json.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { startMockServer, textReply, type MockServer } from "../helpers/mock-openai.js";

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function mock(...args: Parameters<typeof startMockServer>): Promise<MockServer> {
  const server = await startMockServer(...args);
  servers.push(server);
  return server;
}

function configFile(config: unknown): string {
  const file = join(tempDir("nh-prov-cfg-"), "config.json");
  writeFileSync(file, JSON.stringify(config));
  return file;
}

const events = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("fallback to another provider", () => {
  it("503 until retries run out: the next provider answers with its own key, and the switch is announced", async () => {
    const first = await mock(() => ({ status: 503 }));
    const second = await mock([textReply("from the second provider")]);
    const config = configFile({ fallback: [{ provider: "openrouter", baseUrl: second.url, model: "backup-model" }] });
    const env = testEnv({
      OPENAI_API_KEY: "sk-first",
      OPENAI_BASE_URL: first.url,
      OPENROUTER_API_KEY: "sk-second",
      NANOHERMES_MODEL: "main-model",
    });
    const r = await runCli(
      ["-p", "hi", "-C", tempDir(), "--config", config, "--retry-base-ms", "1", "--max-retries", "1", "--stream-json"],
      { env },
    );
    expect(r.code).toBe(0);
    expect(first.requests).toHaveLength(2);
    expect(first.requests[0]!.headers.authorization).toBe("Bearer sk-first");
    expect(second.requests.map((q) => q.model)).toEqual(["backup-model"]);
    expect(second.requests[0]!.headers.authorization).toBe("Bearer sk-second");
    const all = events(r.stdout);
    expect(all.find((e) => e.type === "model.fallback")).toMatchObject({
      from: "main-model",
      to: "backup-model",
      toProvider: "openrouter",
      error: expect.stringMatching(/^503/),
    });
    expect(all.at(-1)).toMatchObject({
      type: "turn.completed",
      reason: "completed",
      response: "from the second provider",
    });
    expect(all.find((e) => e.type === "usage.updated")).toMatchObject({ model: "backup-model" });
  });

  it("401 goes to the next provider at once, without retries; a plain text run says so on stderr", async () => {
    const first = await mock(() => ({ status: 401, body: { error: { message: "invalid api key" } } }));
    const second = await mock([textReply("second")]);
    const config = configFile({ fallback: [{ provider: "groq", baseUrl: second.url }] });
    const env = testEnv({
      OPENAI_API_KEY: "sk-bad",
      OPENAI_BASE_URL: first.url,
      GROQ_API_KEY: "gq",
      NANOHERMES_MODEL: "main-model",
    });
    const r = await runCli(
      ["-p", "hi", "-C", tempDir(), "--config", config, "--retry-base-ms", "1", "--max-retries", "3", "--verbose"],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("second\n");
    expect(first.requests).toHaveLength(1);
    // Without "model" the preset's default model is used.
    expect(second.requests[0]!.model).toBe("llama-3.3-70b-versatile");
    expect(r.stderr).toMatch(/main-model failed \(401 .*invalid api key\); trying llama-3\.3-70b-versatile \(groq\)/);
  });

  it("a hard 400 does not fall back", async () => {
    const first = await mock([{ status: 400, body: { error: { message: "bad request" } } }]);
    const second = await mock([textReply("never")]);
    const config = configFile({ fallback: [{ provider: "groq", baseUrl: second.url }] });
    const env = testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: first.url, GROQ_API_KEY: "gq" });
    const r = await runCli(["-p", "hi", "-C", tempDir(), "--config", config], { env });
    expect(r.code).toBe(1);
    expect(second.requests).toHaveLength(0);
  });
});

describe("presets on the wire", () => {
  it("--provider google: GEMINI_API_KEY, and tool schemas without the keys Google refuses", async () => {
    const server = await mock([textReply("ok")]);
    const r = await runCli(["--provider", "google", "--base-url", server.url, "-p", "hi", "-C", tempDir()], {
      env: testEnv({ GEMINI_API_KEY: "gem" }),
    });
    expect(r.code).toBe(0);
    const request = server.requests[0]!;
    expect(request.model).toBe("gemini-2.5-pro");
    expect(request.headers.authorization).toBe("Bearer gem");
    expect(request.tools!.length).toBeGreaterThan(3);
    expect(JSON.stringify(request.tools)).not.toMatch(/additionalProperties|\$schema/);
  });

  it("--provider ollama needs no key; --provider anthropic without one names its variable", async () => {
    const server = await mock([textReply("local")]);
    const ok = await runCli(["--provider", "ollama", "--base-url", server.url, "-p", "hi", "-C", tempDir()], {
      env: testEnv(),
    });
    expect(ok.code).toBe(0);
    expect(server.requests[0]!.model).toBe("qwen3-coder");
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    const missing = await runCli(["--provider", "anthropic", "-p", "hi", "-C", tempDir()], {
      env: testEnv({ ANTHROPIC_API_KEY: undefined }),
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No API key for anthropic, so nothing is sent\.\nSet ANTHROPIC_API_KEY=/);
    const unknown = await runCli(["--provider", "nope", "-p", "hi"], { env: testEnv() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown provider "nope" \(one of openai, anthropic/);
  });

  it('--json reports tokens and cost for a priced model, and "unknown" for another', async () => {
    const server = await mock([textReply("a", { usage: { prompt: 1_000, completion: 100 } }), textReply("b")]);
    const env = testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.url });
    const priced = await runCli(["-p", "hi", "-C", tempDir(), "-m", "gpt-4o", "--json"], { env });
    // gpt-4o: 1,000 * 2.5 + 100 * 10 per million
    expect(JSON.parse(priced.stdout)).toMatchObject({
      usage: { prompt: 1_000, completion: 100, cachedPrompt: 0, reasoning: 0 },
      costUsd: 0.0035,
    });
    const unpriced = await runCli(["-p", "hi", "-C", tempDir(), "-m", "mock-model", "--json"], { env });
    expect(JSON.parse(unpriced.stdout)).toMatchObject({ costUsd: "unknown" });
  });
});

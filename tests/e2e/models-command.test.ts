// `nanohermes models`: the endpoint's list joined with the bundled metadata, Anthropic's list with
// its own headers, and the bundled table with a note when the endpoint cannot be reached.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, testEnv } from "../helpers/cli.js";
import { startModelsServer, type ModelsServer } from "../helpers/mock-models.js";

let server: ModelsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("nanohermes models", () => {
  it("lists the endpoint's models with window, prices and abilities; unknown ones marked", async () => {
    server = await startModelsServer(["openai/gpt-5", "anthropic/claude-sonnet-4.5", "some/new-model"]);
    const r = await runCli(["models", "--provider", "openrouter", "--base-url", server.url], {
      env: testEnv({ OPENROUTER_API_KEY: "or" }),
    });
    expect(r.code).toBe(0);
    expect(server.requests[0]).toMatchObject({ path: "/v1/models", headers: { authorization: "Bearer or" } });
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^model +context +max out +in\/M +cached\/M +out\/M/);
    expect(lines.find((l) => l.startsWith("openai/gpt-5"))).toMatch(
      /400k +128k +\$1\.25 +\$0\.125 +\$10 +images, reasoning/,
    );
    expect(lines.find((l) => l.startsWith("anthropic/claude-sonnet-4.5"))).toMatch(/200k +64k +\$3 +\$0\.3 +\$15/);
    expect(lines.find((l) => l.startsWith("some/new-model"))).toMatch(/unknown model/);
    expect(r.stderr).toBe("");
  });

  it("--json, and Anthropic's list at /v1/models with x-api-key and anthropic-version", async () => {
    server = await startModelsServer(["claude-haiku-4-5-20251001"]);
    const base = server.url.replace(/\/v1$/, "");
    const r = await runCli(["models", "--provider", "anthropic", "--base-url", base, "--json"], {
      env: testEnv({ ANTHROPIC_API_KEY: "ant" }),
    });
    expect(r.code).toBe(0);
    expect(server.requests[0]!.path).toMatch(/^\/v1\/models/);
    expect(server.requests[0]!.headers).toMatchObject({ "x-api-key": "ant", "anthropic-version": "2023-06-01" });
    expect(JSON.parse(r.stdout)).toEqual({
      provider: "anthropic",
      source: "endpoint",
      models: [
        {
          id: "claude-haiku-4-5-20251001",
          known: true,
          contextWindow: 200_000,
          maxOutput: 64_000,
          price: { input: 1, cached: 0.1, cacheWrite: 1.25, output: 5 },
          images: true,
          reasoning: true,
        },
      ],
    });
  });

  it("an endpoint that fails gives the bundled table for the provider with a one-line note", async () => {
    server = await startModelsServer([], { status: 500 });
    const r = await runCli(["models", "--provider", "deepseek", "--base-url", server.url], {
      env: testEnv({ DEEPSEEK_API_KEY: "d" }),
    });
    expect(r.code).toBe(0);
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^note: could not list DeepSeek's models \(500.*\); showing the bundled table for deepseek$/,
      ),
    ]);
    const ids = r.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(/\s+/)[0]);
    expect(ids).toEqual(["deepseek-chat", "deepseek-reasoner"]);
  });

  it("--help names the command and the --provider flag with every preset", async () => {
    const r = await runCli(["--help"], { env: testEnv() });
    expect(r.stdout).toMatch(/nanohermes models \[--provider P\]/);
    // --help wraps a long description in its column: compared with the wrapping taken out.
    expect(r.stdout.replace(/\n +/g, " ")).toMatch(
      /--provider NAME +Provider preset: openai \| anthropic \| openrouter \| deepseek \| groq \| mistral \| xai \| google \| azure \| ollama \| vllm \| lmstudio/,
    );
  });

  it("an unreachable local server: the bundled table too", async () => {
    // A port that was free a moment ago (fetch refuses some well-known ones outright).
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const r = await runCli(["models", "--provider", "ollama", "--base-url", `http://127.0.0.1:${port}/v1`], {
      env: testEnv(),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^note: could not list Ollama \(local\)'s models \(ECONNREFUSED\)/);
    expect(r.stdout).toMatch(/qwen3-coder/);
  });
});

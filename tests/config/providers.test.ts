// Provider presets and the seed's order for the API mode (explicit > provider > base-URL heuristic
// > chat), through the real loader, real config files and a given environment.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseFlags, UsageError } from "../../src/config/flags.js";
import { ConfigError, loadSettings } from "../../src/config/load.js";
import { missingKeyMessage, providerPresets, resolveApiMode } from "../../src/config/providers.js";
import type { ConfigFile, Settings } from "../../src/config/schema.js";
import { tempDir } from "../helpers/cli.js";

const dir = (prefix: string) => tempDir(prefix);

function load(args: string[], config: ConfigFile = {}, env: Record<string, string> = {}): Settings {
  const home = dir("nh-prov-home-");
  writeFileSync(join(home, "config.json"), JSON.stringify(config));
  return loadSettings({ flags: parseFlags(args), env: { NANOHERMES_HOME: home, ...env }, cwd: dir("nh-prov-ws-") });
}

describe("resolveApiMode: explicit, then provider, then base URL, then chat", () => {
  const anthropic = providerPresets.find((p) => p.name === "anthropic");
  const groq = providerPresets.find((p) => p.name === "groq");
  const cases: [string, Parameters<typeof resolveApiMode>, string][] = [
    ["explicit beats the provider", ["chat", anthropic, undefined], "chat"],
    ["explicit beats the base URL", ["responses", undefined, "https://api.anthropic.com"], "responses"],
    ["the provider beats the base URL", [undefined, groq, "https://api.anthropic.com/v1"], "chat"],
    ["the provider's own mode", [undefined, anthropic, undefined], "anthropic"],
    ["api.anthropic.com", [undefined, undefined, "https://api.anthropic.com/"], "anthropic"],
    ["a proxy path ending in /anthropic", [undefined, undefined, "https://proxy.example/anthropic"], "anthropic"],
    ["api.openai.com", [undefined, undefined, "https://api.openai.com/v1"], "responses"],
    ["any other URL", [undefined, undefined, "http://127.0.0.1:8000/v1"], "chat"],
    ["nothing at all", [undefined, undefined, undefined], "chat"],
  ];
  it.each(cases)("%s", (_name, args, mode) => {
    expect(resolveApiMode(...args)).toBe(mode);
  });
});

describe("presets", () => {
  it("every preset has a base URL or an endpoint variable, a key variable, a mode and a default model", () => {
    const names = providerPresets.map((p) => p.name);
    for (const wanted of [
      "openai",
      "anthropic",
      "openrouter",
      "deepseek",
      "groq",
      "mistral",
      "xai",
      "google",
      "azure",
      "ollama",
      "vllm",
      "lmstudio",
    ])
      expect(names).toContain(wanted);
    for (const p of providerPresets) {
      expect(p.baseUrl || p.baseUrlEnv, p.name).toBeTruthy();
      expect(p.apiKeyEnv, p.name).toMatch(/^[A-Z_]+$/);
      expect(p.model, p.name).not.toBe("");
    }
  });

  it("--provider anthropic: its URL, key variable, mode and model", () => {
    const s = load(["--provider", "anthropic"], {}, { ANTHROPIC_API_KEY: "sk-ant", OPENAI_API_KEY: "sk-oai" });
    expect(s).toMatchObject({
      provider: "anthropic",
      baseUrl: "https://api.anthropic.com",
      api: "anthropic",
      apiKeyEnv: "ANTHROPIC_API_KEY",
      apiKey: "sk-ant",
    });
    expect(s.model).toMatch(/^claude-sonnet-4/);
  });

  it("--provider openai speaks the Responses API with OPENAI_API_KEY", () => {
    expect(load(["--provider", "openai"], {}, { OPENAI_API_KEY: "k" })).toMatchObject({
      api: "responses",
      model: "gpt-5",
      apiKey: "k",
      baseUrl: "https://api.openai.com/v1",
    });
  });

  it("google uses GEMINI_API_KEY on the OpenAI-compatible endpoint", () => {
    expect(load(["--provider", "google"], {}, { GEMINI_API_KEY: "g" })).toMatchObject({
      api: "chat",
      apiKey: "g",
      baseUrl: expect.stringContaining("generativelanguage.googleapis.com"),
    });
  });

  it("local servers need no key, and do not get OPENAI_API_KEY", () => {
    const s = load(["--provider", "ollama"], {}, { OPENAI_API_KEY: "secret" });
    expect(s).toMatchObject({ baseUrl: "http://127.0.0.1:11434/v1", api: "chat", apiKey: undefined });
  });

  it("--api and --model beat the preset", () => {
    expect(load(["--provider", "openai", "--api", "chat", "-m", "gpt-4.1"])).toMatchObject({
      api: "chat",
      model: "gpt-4.1",
    });
  });

  it("a config provider is refined by the same file's keys; --provider drops them", () => {
    const config: ConfigFile = { provider: "openrouter", model: "anthropic/claude-sonnet-4.5", apiKeyEnv: "MY_KEY" };
    expect(load([], config, { MY_KEY: "mine" })).toMatchObject({
      provider: "openrouter",
      model: "anthropic/claude-sonnet-4.5",
      apiKey: "mine",
      api: "chat",
    });
    expect(load(["--provider", "groq"], config, { GROQ_API_KEY: "gq" })).toMatchObject({
      provider: "groq",
      model: "llama-3.3-70b-versatile",
      apiKeyEnv: "GROQ_API_KEY",
      apiKey: "gq",
    });
  });

  it("no provider: today's behaviour (OPENAI_BASE_URL, chat, OPENAI_API_KEY)", () => {
    expect(load([], {}, { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "k" })).toMatchObject({
      provider: undefined,
      api: "chat",
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: "k",
      model: "gpt-5",
    });
  });

  it("azure: the deployment URL from AZURE_OPENAI_ENDPOINT, the api-version from config", () => {
    const s = load(
      ["--provider", "azure"],
      { azure: { deployment: "my-gpt5", apiVersion: "2025-04-01-preview" } },
      { AZURE_OPENAI_ENDPOINT: "https://res.openai.azure.com/", AZURE_OPENAI_API_KEY: "az" },
    );
    expect(s).toMatchObject({
      baseUrl: "https://res.openai.azure.com/openai/deployments/my-gpt5",
      apiKey: "az",
      azure: { deployment: "my-gpt5", apiVersion: "2025-04-01-preview" },
    });
    expect(() => load(["--provider", "azure"])).toThrow(/AZURE_OPENAI_ENDPOINT/);
  });

  it("an unknown provider is a usage error that lists the names", () => {
    expect(() => load(["--provider", "nope"])).toThrow(UsageError);
    expect(() => load(["--provider", "nope"])).toThrow(
      /unknown provider "nope" \(one of openai, anthropic, .*lmstudio\)/,
    );
    expect(() => load([], { provider: "nope" })).toThrow(ConfigError);
  });
});

describe("fallback list", () => {
  it("--fallback-model comes first on the main endpoint, then the config's providers", () => {
    const s = load(
      ["--fallback-model", "gpt-5-mini"],
      {
        provider: "openai",
        fallback: [{ provider: "anthropic" }, { provider: "openrouter", model: "x/y" }, { model: "gpt-4.1" }],
      },
      { OPENAI_API_KEY: "o", ANTHROPIC_API_KEY: "a" },
    );
    expect(s.fallback).toMatchObject([
      { model: "gpt-5-mini", sameEndpoint: true, apiKey: "o" },
      {
        provider: "anthropic",
        api: "anthropic",
        apiKey: "a",
        sameEndpoint: false,
        model: expect.stringMatching(/^claude/),
      },
      { provider: "openrouter", model: "x/y", api: "chat", apiKeyEnv: "OPENROUTER_API_KEY", sameEndpoint: false },
      { model: "gpt-4.1", sameEndpoint: true },
    ]);
  });

  it("an entry without a provider keeps the main endpoint's key variable and base URL", () => {
    const s = load(
      [],
      { apiKeyEnv: "MINE", baseUrl: "http://127.0.0.1:9/v1", fallback: [{ api: "responses", model: "other" }] },
      { MINE: "m" },
    );
    expect(s.fallback).toMatchObject([
      {
        provider: undefined,
        model: "other",
        api: "responses",
        apiKeyEnv: "MINE",
        apiKey: "m",
        baseUrl: "http://127.0.0.1:9/v1",
        sameEndpoint: false,
      },
    ]);
  });

  it("an untrusted workspace cannot name a provider or fallback (they say where the key goes)", () => {
    const home = dir("nh-prov-home-");
    const ws = dir("nh-prov-ws-");
    writeFileSync(join(home, "config.json"), "{}");
    mkdirSync(join(ws, ".nanohermes"));
    writeFileSync(
      join(ws, ".nanohermes", "config.json"),
      JSON.stringify({ provider: "groq", fallback: [{ provider: "xai" }] }),
    );
    const s = loadSettings({ flags: parseFlags([]), env: { NANOHERMES_HOME: home }, cwd: ws });
    expect(s.provider).toBeUndefined();
    expect(s.fallback).toEqual([]);
    expect(s.untrustedKeys).toEqual(expect.arrayContaining(["provider", "fallback"]));
  });
});

describe("missing key (one-shot, UI and daemon say the same)", () => {
  const s = (over: Partial<Parameters<typeof missingKeyMessage>[0]>) =>
    missingKeyMessage({ apiKey: undefined, apiKeyEnv: "OPENAI_API_KEY", baseUrl: undefined, ...over });
  it.each([
    ["no provider, no URL", {}, /set OPENAI_API_KEY/],
    ["no provider, a local URL", { baseUrl: "http://127.0.0.1:8000/v1" }, null],
    ["a key", { apiKey: "k" }, null],
    [
      "anthropic at its own URL",
      { provider: "anthropic", apiKeyEnv: "ANTHROPIC_API_KEY", baseUrl: "https://api.anthropic.com" },
      /provider anthropic: set ANTHROPIC_API_KEY/,
    ],
    [
      "anthropic behind a proxy",
      { provider: "anthropic", apiKeyEnv: "ANTHROPIC_API_KEY", baseUrl: "http://proxy/anthropic" },
      null,
    ],
    [
      "a local preset",
      { provider: "lmstudio", apiKeyEnv: "LMSTUDIO_API_KEY", baseUrl: "http://127.0.0.1:1234/v1" },
      null,
    ],
    [
      "azure",
      {
        provider: "azure",
        apiKeyEnv: "AZURE_OPENAI_API_KEY",
        baseUrl: "https://r.openai.azure.com/openai/deployments/d",
      },
      /set AZURE_OPENAI_API_KEY/,
    ],
  ] as const)("%s", (_name, over, expected) => {
    const message = s(over);
    if (expected === null) expect(message).toBeNull();
    else expect(message).toMatch(expected);
  });
});

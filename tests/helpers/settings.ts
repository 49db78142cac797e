// Settings for engine tests: temp folders, no network, everything else at its default.
import { join } from "node:path";
import type { Settings } from "../../src/config/schema.js";
import { tempDir } from "./cli.js";

export function testSettings(over: Partial<Settings> = {}): Settings {
  const workspace = over.workspace ?? tempDir();
  const home = over.home ?? tempDir("nh-home-");
  return {
    workspace,
    home,
    model: "m",
    fallbackModel: undefined,
    baseUrl: undefined,
    api: undefined,
    apiKey: undefined,
    apiKeyEnv: "OPENAI_API_KEY",
    maxRetries: 0,
    retryBaseMs: 0,
    maxIterations: 20,
    requestTimeoutMs: 10_000,
    thinking: "off",
    stream: true,
    sessionDir: join(home, "sessions"),
    approval: undefined,
    mode: "default",
    theme: undefined,
    keys: {},
    notify: { bell: false, osc: false },
    ui: { reducedMotion: false, screenReader: false },
    yolo: false,
    sandbox: { mode: "off", network: true, writableRoots: [] },
    deny: [],
    allow: [],
    allowProtectedWrites: false,
    untrustedKeys: [],
    web: { allowPrivate: false },
    mcpServers: {},
    hooks: undefined,
    agentsMd: false,
    subagents: undefined,
    memory: { enabled: false, distill: false, topK: 5 },
    skills: { manage: false, review: false, hints: false, staleAfterDays: 30, archiveAfterDays: 90 },
    contextWindow: undefined,
    requestDeadlineMs: 60_000,
    turnTimeoutMs: 0,
    waitNoticeMs: 15_000,
    ...over,
  };
}

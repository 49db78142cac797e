// The zod schema of config.json (user and workspace) and the resolved settings the engine uses.
import * as z from "../protocol/zod.js";
import { approvalPolicies, permissionModes, type ApprovalPolicy, type PermissionMode } from "../protocol/enums.js";
import {
  apiModes,
  sandboxModes,
  thinkingLevels,
  type ApiMode,
  type SandboxMode,
  type ThinkingLevel,
} from "./levels.js";
import { HooksConfigSchema, type HooksConfig } from "./hooks.js";
import { McpServersSchema, type McpServerConfig } from "./mcp.js";
import { SubagentsConfigSchema, type SubagentsConfig } from "./subagents.js";

export { thinkingLevels, type ThinkingLevel };

const envName = z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name"));

/** One entry of "fallback": a provider (its preset's endpoint and key) and/or a model; absent keys mean the main provider's. */
export const FallbackEntrySchema = z.strictObject({
  provider: z.optional(z.string().check(z.minLength(1))),
  model: z.optional(z.string().check(z.minLength(1))),
  baseUrl: z.optional(z.url()),
  apiKeyEnv: z.optional(envName),
  api: z.optional(z.enum(apiModes)),
});

const perMillion = z.optional(z.number().check(z.nonnegative()));
/** What config may say about a model, over the bundled table (src/agent/providers/models.ts). */
export const ModelOverrideSchema = z.strictObject({
  contextWindow: z.optional(z.int().check(z.positive())),
  maxOutput: z.optional(z.int().check(z.positive())),
  price: z.optional(
    z.strictObject({ input: perMillion, cached: perMillion, cacheWrite: perMillion, output: perMillion }),
  ),
  images: z.optional(z.boolean()),
  reasoning: z.optional(z.boolean()),
});
export type ModelOverride = z.infer<typeof ModelOverrideSchema>;

/** `~/.nanohermes/config.json` and `<workspace>/.nanohermes/config.json`. Unknown keys are errors. */
export const ConfigFileSchema = z.strictObject({
  model: z.optional(z.string().check(z.minLength(1))).check(z.describe("Model name sent to the endpoint.")),
  fallbackModel: z.optional(z.string().check(z.minLength(1))).check(z.describe("Tried once after retries run out.")),
  baseUrl: z.optional(z.url()).check(z.describe("OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1.")),
  api: z
    .optional(z.enum(apiModes))
    .check(
      z.describe("Wire format: chat (chat completions), responses (OpenAI Responses API) or anthropic (Messages API)."),
    ),
  provider: z
    .optional(z.string().check(z.minLength(1)))
    .check(
      z.describe("A provider preset: base URL, key variable, API mode and default model (see `nanohermes models`)."),
    ),
  azure: z
    .optional(
      z.strictObject({
        deployment: z.optional(z.string().check(z.minLength(1))),
        apiVersion: z.optional(z.string().check(z.minLength(1))),
      }),
    )
    .check(
      z.describe(
        "With provider azure: the deployment (default: the model) and api-version; the endpoint comes from AZURE_OPENAI_ENDPOINT.",
      ),
    ),
  fallback: z
    .optional(z.array(FallbackEntrySchema))
    .check(
      z.describe(
        "Tried in order when the model fails on 429/5xx after retries, or on 401/403 at once: [{provider?, model?, baseUrl?, apiKeyEnv?, api?}].",
      ),
    ),
  models: z
    .optional(z.record(z.string(), ModelOverrideSchema))
    .check(
      z.describe(
        "Model metadata overrides by name: {contextWindow, maxOutput, price: {input, cached, cacheWrite, output} per million tokens, images, reasoning}.",
      ),
    ),
  apiKeyEnv: z
    .optional(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name")))
    .check(z.describe("Name of the environment variable that holds the API key (default OPENAI_API_KEY).")),
  maxRetries: z.optional(z.int().check(z.minimum(0), z.maximum(10))),
  retryBaseMs: z.optional(z.int().check(z.minimum(0), z.maximum(60_000))),
  maxIterations: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
  requestTimeoutMs: z
    .optional(z.int().check(z.minimum(100)))
    .check(
      z.describe(
        "A model request attempt ends when no content, reasoning or tool-call bytes arrived for this long; keep-alive comments do not count (default 300,000: 5 minutes).",
      ),
    ),
  requestDeadlineMs: z
    .optional(z.int().check(z.minimum(100)))
    .check(
      z.describe(
        "A model request attempt ends this long after it was sent, even while content streams; not retried (default 600,000: 10 minutes).",
      ),
    ),
  turnTimeoutMs: z
    .optional(z.int().check(z.minimum(0)))
    .check(
      z.describe(
        "A user turn (model calls and tools) is stopped after this long and ends with an error; 0 = no limit (the default).",
      ),
    ),
  waitNoticeMs: z
    .optional(z.int().check(z.minimum(50)))
    .check(z.describe("While the model sends nothing, say so (UI and stderr) this often (default 15,000).")),
  thinking: z.optional(z.enum(thinkingLevels)),
  stream: z.optional(z.boolean()),
  sessionDir: z.optional(z.string().check(z.minLength(1))),
  approval: z
    .optional(z.enum(approvalPolicies))
    .check(z.describe("Approval policy of the interactive UI (default on-request).")),
  mode: z.optional(z.enum(permissionModes)).check(z.describe("Permission mode new tasks start in (default default).")),
  theme: z
    .optional(z.string().check(z.minLength(1)))
    .check(z.describe("dark, light, high-contrast or a theme in ~/.nanohermes/themes/.")),
  keys: z
    .optional(z.record(z.string(), z.union([z.string(), z.array(z.string())])))
    .check(z.describe("Key binding overrides: action name to one key or a list ([] unbinds).")),
  sandbox: z
    .optional(
      z.strictObject({
        mode: z.optional(z.enum(sandboxModes)),
        network: z.optional(z.boolean()),
        writableRoots: z.optional(z.array(z.string().check(z.minLength(1)))),
      }),
    )
    .check(z.describe("Command sandbox: mode (auto, off, read-only, workspace-write), network, extra writable roots.")),
  deny: z
    .optional(z.array(z.string().check(z.minLength(1))))
    .check(z.describe('Command globs refused in every mode, e.g. "git push --force*".')),
  web: z
    .optional(
      z.strictObject({
        allowPrivate: z.optional(z.boolean()),
        search: z.optional(
          z.strictObject({ backend: z.enum(["duckduckgo", "searxng", "brave"]), url: z.optional(z.url()) }),
        ),
      }),
    )
    .check(
      z.describe(
        "web_fetch may reach private addresses (allowPrivate); web_search backend (duckduckgo, searxng with url, brave with BRAVE_API_KEY).",
      ),
    ),
  telemetry: z
    .optional(z.strictObject({ otel: z.optional(z.boolean()), content: z.optional(z.boolean()) }))
    .check(
      z.describe(
        "OpenTelemetry export (otel, as NANOHERMES_TELEMETRY=1) to the OTEL_EXPORTER_OTLP_* endpoint; content adds prompts and replies (as NANOHERMES_TELEMETRY_CONTENT=1), redacted and truncated.",
      ),
    ),
  allowProtectedWrites: z
    .optional(z.boolean())
    .check(
      z.describe("Let tools write .git/hooks, .git/config and .nanohermes/ inside the workspace (default false)."),
    ),
  ui: z
    .optional(z.strictObject({ reducedMotion: z.optional(z.boolean()), screenReader: z.optional(z.boolean()) }))
    .check(
      z.describe(
        "The terminal UI: reducedMotion stops spinners (also NO_COLOR or NANOHERMES_REDUCED_MOTION=1); screenReader draws one pane at a time in plain words (also --screen-reader or NANOHERMES_SCREEN_READER=1).",
      ),
    ),
  notify: z
    .optional(z.strictObject({ bell: z.optional(z.boolean()), osc: z.optional(z.boolean()) }))
    .check(z.describe("Signal a task that needs approval or finished while you look elsewhere (default both on).")),
  mcpServers: z
    .optional(McpServersSchema)
    .check(
      z.describe("MCP servers by name, as in Claude Desktop: command/args/env/cwd (stdio) or url/headers (HTTP)."),
    ),
  servers: z
    .optional(McpServersSchema)
    .check(z.describe("Same as mcpServers (merged; mcpServers wins on a name clash).")),
  hooks: z
    .optional(HooksConfigSchema)
    .check(z.describe("PreToolUse / PostToolUse shell commands: [{matcher, command, timeout?}].")),
  subagents: z
    .optional(SubagentsConfigSchema)
    .check(
      z.describe(
        "Subagents the model may delegate to: {agents: {name: {prompt, model?, allowed_tools?, max_iterations?}}, max_parallel?, max_depth?}.",
      ),
    ),
  memory: z
    .optional(
      z.strictObject({
        enabled: z.optional(z.boolean()),
        distill: z.optional(z.boolean()),
        topK: z.optional(z.int().check(z.minimum(1), z.maximum(20))),
      }),
    )
    .check(
      z.describe(
        "Long-term memory in ~/.nanohermes/memory.json: enabled (default true), distill after completed turns (default true), topK retrieved per turn (default 5).",
      ),
    ),
  skills: z
    .optional(
      z.strictObject({
        manage: z.optional(z.boolean()),
        review: z.optional(z.boolean()),
        reviewModel: z.optional(z.string().check(z.minLength(1))),
        hints: z.optional(z.boolean()),
        staleAfterDays: z.optional(z.int().check(z.minimum(1))),
        archiveAfterDays: z.optional(z.int().check(z.minimum(1))),
        consolidate: z.optional(z.boolean()),
      }),
    )
    .check(
      z.describe(
        "Skills that learn from work: manage (the skill_manage tool, default true), review (background proposals after turns that recovered from an error or were corrected, default true), reviewModel (the auxiliary model for that review; default the task's model), hints (the relevant-skills line on each prompt, default true), staleAfterDays / archiveAfterDays (the curator's, default 30 / 90), consolidate (each curator pass also asks the review model to group overlapping agent skills; its merges become proposals, never changes; default false).",
      ),
    ),
  contextWindow: z
    .optional(z.int().check(z.minimum(4_000)))
    .check(
      z.describe(
        "The model's context window in tokens; compaction then starts at half of it (default: at 120,000 characters).",
      ),
    ),
  agentsMd: z
    .optional(z.boolean())
    .check(z.describe("Put AGENTS.md (workspace and ~/.nanohermes) into the system prompt (default true).")),
});

export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** Everything the engine needs, after defaults, files, environment and flags are merged. */
export interface Settings {
  workspace: string;
  home: string;
  model: string;
  fallbackModel: string | undefined;
  baseUrl: string | undefined;
  /** The wire format; undefined until resolved from the provider and base URL (chat by default). */
  api: ApiMode | undefined;
  /** Never logged, saved or emitted. */
  apiKey: string | undefined;
  /** The environment variable the key came from (commands do not inherit it). */
  apiKeyEnv: string;
  /** The provider preset in use (--provider / "provider"); undefined for a plain base URL. */
  provider?: string | undefined;
  /** Azure OpenAI: the wire adds `?api-version=` and sends the key as `api-key`. */
  azure?: { deployment: string; apiVersion: string } | undefined;
  /** Tried in order after the main model fails (see retry.ts); --fallback-model is the first, on the same endpoint. */
  fallback?: FallbackTarget[];
  /** Model metadata overrides from config ("models"). */
  models?: Record<string, ModelOverride>;
  maxRetries: number;
  retryBaseMs: number;
  maxIterations: number;
  /** No content bytes for this long ends a model request attempt (retried). */
  requestTimeoutMs: number;
  /** A model request attempt ends this long after it was sent (not retried). */
  requestDeadlineMs: number;
  /** A user turn is stopped after this long; 0 for none. */
  turnTimeoutMs: number;
  /** How often "waiting for the model" is reported while nothing arrives. */
  waitNoticeMs: number;
  thinking: ThinkingLevel;
  stream: boolean;
  sessionDir: string;
  /** Set by --approval / -y / --yolo or config; front ends apply their own default when absent. */
  approval: ApprovalPolicy | undefined;
  mode: PermissionMode;
  theme: string | undefined;
  keys: Record<string, string | string[]>;
  notify: { bell: boolean; osc: boolean };
  /** screenReader: the linear layout (ui/components/LinearLayout.tsx), from the config, --screen-reader or NANOHERMES_SCREEN_READER=1. */
  ui: { reducedMotion: boolean; screenReader: boolean };
  /** --yolo: dangerous commands run without asking (the blocklist still refuses). */
  yolo: boolean;
  sandbox: { mode: SandboxMode; network: boolean; writableRoots: string[] };
  deny: string[];
  /** --allow PATTERN: calls pre-approved in the words of "always" rules (agent/gate.ts allowRules). */
  allow: string[];
  allowProtectedWrites: boolean;
  /** OpenTelemetry export (src/telemetry/): off unless NANOHERMES_TELEMETRY=1 or config says so. */
  telemetry?: { otel: boolean; content: boolean };
  web: { allowPrivate: boolean; search?: { backend: "duckduckgo" | "searxng" | "brave"; url?: string } };
  /** Keys of the workspace config that were ignored because the folder is not trusted. */
  untrustedKeys: string[];
  /** MCP servers from config files and --mcp, by name. */
  mcpServers: Record<string, McpServerConfig>;
  hooks: HooksConfig | undefined;
  /** AGENTS.md goes into the system prompt (--no-agents-md turns it off). */
  agentsMd: boolean;
  /** --trust: the user takes back an AGENTS.md a command changed (config/instruction-changes.ts). Default false. */
  trustFlag?: boolean;
  /** Subagents from config or --subagents; none when absent. */
  subagents: SubagentsConfig | undefined;
  /** --no-memory / NANOHERMES_NO_MEMORY=1 turn it off. */
  memory: { enabled: boolean; distill: boolean; topK: number };
  /** Skills that learn from work (issue 30); see the schema's description. */
  skills: SkillSettings;
  contextWindow: number | undefined;
}

export interface SkillSettings {
  manage: boolean;
  review: boolean;
  reviewModel?: string;
  hints: boolean;
  staleAfterDays: number;
  archiveAfterDays: number;
  /** Curator passes also ask the model for consolidation proposals (opt-in). */
  consolidate?: boolean;
}

/** A resolved fallback: where to send the request and with which key. */
export interface FallbackTarget {
  provider: string | undefined;
  model: string;
  baseUrl: string | undefined;
  api: ApiMode;
  apiKey: string | undefined;
  apiKeyEnv: string;
  azure?: { deployment: string; apiVersion: string } | undefined;
  /** Same endpoint and key as the main model: only the model name changes (the old fallbackModel). */
  sameEndpoint: boolean;
}

export const defaults = {
  model: "gpt-5",
  maxRetries: 2,
  retryBaseMs: 500,
  maxIterations: 90,
  // Idle: Codex's stream idle timeout (5 min); overall: Claude Code's API timeout (10 min). Neither
  // caps a whole turn, so a turn has no limit unless configured.
  requestTimeoutMs: 300_000,
  requestDeadlineMs: 600_000,
  turnTimeoutMs: 0,
  waitNoticeMs: 15_000,
  thinking: "off" as ThinkingLevel,
  stream: true,
} as const;

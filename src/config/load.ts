// Reads and validates config files, then merges defaults < user file < workspace file < env < flags.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type * as z from "../protocol/zod.js";
import { intFlag, UsageError, type Flags } from "./flags.js";
import { defaultSessionDir, nanohermesHome, userConfigPath, virtualFsProblem, workspaceConfigPath } from "./paths.js";
import { homedir } from "node:os";
import { approvalPolicies, permissionModes, type ApprovalPolicy, type PermissionMode } from "../protocol/enums.js";
import { apiModes, sandboxModes, type ApiMode, type SandboxMode } from "./levels.js";
import {
  ConfigFileSchema,
  defaults,
  thinkingLevels,
  type ConfigFile,
  type Settings,
  type ThinkingLevel,
} from "./schema.js";
import { isTrusted, restrictWorkspaceConfig } from "./trust.js";
import type { HooksConfig } from "./hooks.js";
import { readMcpFile, type McpServerConfig } from "./mcp.js";
import { readSubagentsFile, type SubagentsConfig } from "./subagents.js";
import { resolveEndpoint, resolveFallbacks } from "./provider-settings.js";

/** A config problem: the message names the file, the key and what is wrong, in one line. */
export class ConfigError extends Error {}

/**
 * A base URL that is no http(s) URL is a setting to fix, refused at start: sent, it failed as a
 * broken connection and was retried as one.
 */
function checkBaseUrl(url: string | undefined): void {
  if (!url) return;
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = "";
  }
  if (protocol === "http:" || protocol === "https:") return;
  throw new ConfigError(
    `the base URL "${url}" is not an http:// or https:// URL (--base-url, OPENAI_BASE_URL or "baseUrl" in config.json); for example https://api.openai.com/v1`,
  );
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") {
    const where = issue.path.length ? `${issue.path.join(".")}.` : "";
    return issue.keys.map((k) => `"${where}${k}": unknown key`).join("; ");
  }
  const key = issue.path.length ? issue.path.join(".") : "(top level)";
  return `"${key}": ${issue.message}`;
}

/** Loads one config file; a missing file is an empty config. */
export function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ConfigError(`cannot read config ${file}: ${(error as Error).message}`);
  }
  if (text.trim() === "") return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`invalid config ${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = ConfigFileSchema.safeParse(data);
  if (!parsed.success) {
    throw new ConfigError(`invalid config ${file}: ${parsed.error.issues.map(describeIssue).join("; ")}`);
  }
  return parsed.data;
}

function str(flags: Flags, name: string): string | undefined {
  const v = flags.values[name];
  return typeof v === "string" ? v : undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value : undefined;
}

/** Servers from config (`servers`, then `mcpServers`) and then each --mcp file; later names win. */
function mcpServers(file: ConfigFile, mcpFlags: string[], cwd: string): Record<string, McpServerConfig> {
  const servers: Record<string, McpServerConfig> = { ...file.servers, ...file.mcpServers };
  for (const path of mcpFlags) {
    try {
      Object.assign(servers, readMcpFile(resolve(cwd, path)));
    } catch (error) {
      throw new ConfigError(`--mcp: ${(error as Error).message}`);
    }
  }
  return servers;
}

/** `--subagents FILE` replaces the config's `subagents`. */
function subagentsFrom(file: ConfigFile, flag: string | undefined, cwd: string): SubagentsConfig | undefined {
  if (flag === undefined) return file.subagents;
  try {
    return readSubagentsFile(resolve(cwd, flag));
  } catch (error) {
    throw new ConfigError(`--subagents: ${(error as Error).message}`);
  }
}

/** Hooks add up: the user's run first, then the (trusted) workspace's. */
function mergeHooks(user: HooksConfig | undefined, ws: HooksConfig | undefined): HooksConfig | undefined {
  if (!user && !ws) return undefined;
  return {
    PreToolUse: [...(user?.PreToolUse ?? []), ...(ws?.PreToolUse ?? [])],
    PostToolUse: [...(user?.PostToolUse ?? []), ...(ws?.PostToolUse ?? [])],
  };
}

export interface LoadOptions {
  flags: Flags;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export function loadSettings({ flags, env = process.env, cwd = process.cwd() }: LoadOptions): Settings {
  const home = nanohermesHome(env);
  const workspaceFlag = str(flags, "cwd");
  const workspace = resolve(cwd, workspaceFlag ?? ".");
  if (workspaceFlag !== undefined) {
    let isDir = false;
    try {
      isDir = statSync(workspace).isDirectory();
    } catch {
      // reported below
    }
    if (!isDir) throw new UsageError(`-C ${workspaceFlag}: not a directory`);
  }

  const configFlag = str(flags, "config");
  const userFile = configFlag ? resolve(cwd, configFlag) : userConfigPath(home);
  if (configFlag !== undefined) {
    try {
      statSync(userFile);
    } catch {
      throw new ConfigError(`cannot read config ${userFile}: no such file`);
    }
  }
  const user = readConfigFile(userFile);
  const wsFile = readConfigFile(workspaceConfigPath(workspace));
  const trusted = flags.values.trust === true || isTrusted(home, workspace);
  const { allowed, restricted } = trusted ? { allowed: wsFile, restricted: [] } : restrictWorkspaceConfig(wsFile, user);
  // Deny rules add up: a workspace can only make things stricter with them.
  // The sandbox merges key by key: a workspace that only turns the network off keeps the user's mode.
  const sandbox = user.sandbox || allowed.sandbox ? { ...user.sandbox, ...allowed.sandbox } : undefined;
  const file: ConfigFile = {
    ...user,
    ...allowed,
    deny: [...(user.deny ?? []), ...(allowed.deny ?? [])],
    ...(sandbox ? { sandbox } : {}),
  };

  const thinkingFlag = str(flags, "thinking");
  if (thinkingFlag !== undefined && !(thinkingLevels as readonly string[]).includes(thinkingFlag)) {
    throw new UsageError(`--thinking expects one of ${thinkingLevels.join(", ")}, got "${thinkingFlag}"`);
  }
  const sessionDir = file.sessionDir
    ? isAbsolute(file.sessionDir)
      ? file.sessionDir
      : resolve(home, file.sessionDir)
    : defaultSessionDir(home);
  const sessionDirProblem = virtualFsProblem(sessionDir);
  if (sessionDirProblem) throw new ConfigError(`"sessionDir": ${sessionDirProblem}`);

  const approvalFlag = str(flags, "approval");
  if (approvalFlag !== undefined && !(approvalPolicies as readonly string[]).includes(approvalFlag)) {
    throw new UsageError(`--approval expects one of ${approvalPolicies.join(", ")}, got "${approvalFlag}"`);
  }
  const modeFlag = str(flags, "mode");
  if (modeFlag !== undefined && !(permissionModes as readonly string[]).includes(modeFlag)) {
    throw new UsageError(`--mode expects one of ${permissionModes.join(", ")}, got "${modeFlag}"`);
  }
  const apiFlag = str(flags, "api");
  if (apiFlag !== undefined && !(apiModes as readonly string[]).includes(apiFlag))
    throw new UsageError(`--api expects one of ${apiModes.join(", ")}, got "${apiFlag}"`);
  const sandboxFlag = str(flags, "sandbox");
  if (sandboxFlag !== undefined && !(sandboxModes as readonly string[]).includes(sandboxFlag)) {
    throw new UsageError(`--sandbox expects one of ${sandboxModes.join(", ")}, got "${sandboxFlag}"`);
  }
  const networkFlag = str(flags, "network");
  if (networkFlag !== undefined && networkFlag !== "on" && networkFlag !== "off")
    throw new UsageError(`--network expects on or off, got "${networkFlag}"`);
  const configError = (message: string) => new ConfigError(message);
  const endpoint = resolveEndpoint({
    flags: {
      provider: str(flags, "provider"),
      model: str(flags, "model"),
      baseUrl: str(flags, "base-url"),
      api: apiFlag as ApiMode | undefined,
    },
    env,
    file,
    defaultModel: defaults.model,
    configError,
  });
  checkBaseUrl(endpoint.baseUrl);
  const fallbackModel = str(flags, "fallback-model") ?? nonEmpty(env.NANOHERMES_FALLBACK_MODEL) ?? file.fallbackModel;
  const yolo = flags.values.yolo === true;
  const writableFlags = (flags.values.writable as string[] | undefined) ?? [];
  const approval =
    yolo || flags.values.yes === true ? "never" : ((approvalFlag as ApprovalPolicy | undefined) ?? file.approval);

  return {
    workspace,
    home,
    model: endpoint.model,
    fallbackModel,
    baseUrl: endpoint.baseUrl,
    api: endpoint.api,
    apiKey: endpoint.apiKey,
    apiKeyEnv: endpoint.apiKeyEnv,
    provider: endpoint.provider,
    azure: endpoint.azure,
    fallback: resolveFallbacks(endpoint, fallbackModel, file, env, configError).map((route) => {
      checkBaseUrl(route.baseUrl);
      return route;
    }),
    models: file.models ?? {},
    maxRetries: intFlag(flags, "max-retries", 0, 10) ?? file.maxRetries ?? defaults.maxRetries,
    retryBaseMs: intFlag(flags, "retry-base-ms", 0, 60_000) ?? file.retryBaseMs ?? defaults.retryBaseMs,
    maxIterations: intFlag(flags, "max-iterations", 1, 10_000) ?? file.maxIterations ?? defaults.maxIterations,
    requestTimeoutMs: file.requestTimeoutMs ?? defaults.requestTimeoutMs,
    requestDeadlineMs: file.requestDeadlineMs ?? defaults.requestDeadlineMs,
    turnTimeoutMs: file.turnTimeoutMs ?? defaults.turnTimeoutMs,
    waitNoticeMs: file.waitNoticeMs ?? defaults.waitNoticeMs,
    thinking: (thinkingFlag as ThinkingLevel | undefined) ?? file.thinking ?? defaults.thinking,
    stream: flags.values["no-stream"] === true ? false : (file.stream ?? defaults.stream),
    sessionDir,
    approval,
    mode: (modeFlag as PermissionMode | undefined) ?? file.mode ?? "default",
    theme: file.theme,
    keys: file.keys ?? {},
    notify: { bell: file.notify?.bell ?? true, osc: file.notify?.osc ?? true },
    ui: {
      reducedMotion: file.ui?.reducedMotion ?? false,
      screenReader:
        flags.values["screen-reader"] === true ||
        env.NANOHERMES_SCREEN_READER === "1" ||
        (file.ui?.screenReader ?? false),
    },
    yolo,
    sandbox: {
      mode: (sandboxFlag as SandboxMode | undefined) ?? file.sandbox?.mode ?? "auto",
      network: networkFlag !== undefined ? networkFlag === "on" : (file.sandbox?.network ?? false),
      writableRoots: [...(file.sandbox?.writableRoots ?? []), ...writableFlags].map((p) =>
        resolve(cwd, p.startsWith("~/") ? `${homedir()}${p.slice(1)}` : p),
      ),
    },
    deny: file.deny ?? [],
    allow: (flags.values.allow as string[] | undefined) ?? [],
    allowProtectedWrites: file.allowProtectedWrites ?? false,
    telemetry: {
      otel: env.NANOHERMES_TELEMETRY !== undefined ? env.NANOHERMES_TELEMETRY === "1" : (file.telemetry?.otel ?? false),
      content:
        env.NANOHERMES_TELEMETRY_CONTENT !== undefined
          ? env.NANOHERMES_TELEMETRY_CONTENT === "1"
          : (file.telemetry?.content ?? false),
    },
    web: { allowPrivate: file.web?.allowPrivate ?? false, ...(file.web?.search ? { search: file.web.search } : {}) },
    untrustedKeys: restricted,
    ...(flags.values.trust === true ? { trustFlag: true } : {}),
    mcpServers: mcpServers(file, (flags.values.mcp as string[] | undefined) ?? [], cwd),
    hooks: mergeHooks(user.hooks, allowed.hooks),
    agentsMd: flags.values["no-agents-md"] === true ? false : (file.agentsMd ?? true),
    subagents: subagentsFrom(file, str(flags, "subagents"), cwd),
    memory: {
      enabled:
        flags.values["no-memory"] === true || nonEmpty(env.NANOHERMES_NO_MEMORY) !== undefined
          ? false
          : (file.memory?.enabled ?? true),
      distill: file.memory?.distill ?? true,
      topK: file.memory?.topK ?? 5,
    },
    skills: {
      manage: file.skills?.manage ?? true,
      review: nonEmpty(env.NANOHERMES_NO_SKILL_REVIEW) !== undefined ? false : (file.skills?.review ?? true),
      ...(file.skills?.reviewModel ? { reviewModel: file.skills.reviewModel } : {}),
      hints: file.skills?.hints ?? true,
      staleAfterDays: file.skills?.staleAfterDays ?? 30,
      archiveAfterDays: file.skills?.archiveAfterDays ?? 90,
      ...(file.skills?.consolidate ? { consolidate: true } : {}),
    },
    contextWindow: file.contextWindow,
  };
}

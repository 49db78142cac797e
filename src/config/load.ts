// Reads and validates config files, then merges defaults < user file < workspace file < env < flags.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type * as z from "../protocol/zod.js";
import { intFlag, UsageError, type Flags } from "./flags.js";
import { defaultSessionDir, nanohermesHome, userConfigPath, workspaceConfigPath } from "./paths.js";
import { ConfigFileSchema, defaults, thinkingLevels, type ConfigFile, type Settings, type ThinkingLevel } from "./schema.js";

/** A config problem: the message names the file, the key and what is wrong, in one line. */
export class ConfigError extends Error {}

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
  const ws = readConfigFile(workspaceConfigPath(workspace));
  const file: ConfigFile = { ...user, ...ws };

  const thinkingFlag = str(flags, "thinking");
  if (thinkingFlag !== undefined && !(thinkingLevels as readonly string[]).includes(thinkingFlag)) {
    throw new UsageError(`--thinking expects one of ${thinkingLevels.join(", ")}, got "${thinkingFlag}"`);
  }
  const apiKeyEnv = file.apiKeyEnv ?? "OPENAI_API_KEY";
  const sessionDir = file.sessionDir
    ? isAbsolute(file.sessionDir)
      ? file.sessionDir
      : resolve(home, file.sessionDir)
    : defaultSessionDir(home);

  return {
    workspace,
    home,
    model: str(flags, "model") ?? nonEmpty(env.NANOHERMES_MODEL) ?? file.model ?? defaults.model,
    fallbackModel: str(flags, "fallback-model") ?? nonEmpty(env.NANOHERMES_FALLBACK_MODEL) ?? file.fallbackModel,
    baseUrl: str(flags, "base-url") ?? nonEmpty(env.OPENAI_BASE_URL) ?? file.baseUrl,
    apiKey: nonEmpty(env[apiKeyEnv]),
    maxRetries: intFlag(flags, "max-retries", 0, 10) ?? file.maxRetries ?? defaults.maxRetries,
    retryBaseMs: intFlag(flags, "retry-base-ms", 0, 60_000) ?? file.retryBaseMs ?? defaults.retryBaseMs,
    maxIterations: intFlag(flags, "max-iterations", 1, 10_000) ?? file.maxIterations ?? defaults.maxIterations,
    requestTimeoutMs: file.requestTimeoutMs ?? defaults.requestTimeoutMs,
    thinking: (thinkingFlag as ThinkingLevel | undefined) ?? file.thinking ?? defaults.thinking,
    stream: flags.values["no-stream"] === true ? false : (file.stream ?? defaults.stream),
    sessionDir,
    approval: file.approval,
    mode: file.mode ?? "default",
    theme: file.theme,
    keys: file.keys ?? {},
    notify: { bell: file.notify?.bell ?? true, osc: file.notify?.osc ?? true },
  };
}

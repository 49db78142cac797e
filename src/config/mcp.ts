// MCP server configuration: the `mcpServers` (Claude Desktop) or `servers` object of config.json
// or of an `--mcp FILE`, validated, with `${VAR}` expanded from the environment.
import { isAbsolute, resolve } from "node:path";
import * as z from "../protocol/zod.js";
import { checked, readJson } from "./json-file.js";

const stringMap = z.record(z.string(), z.string());

/** One server as users write it: `command` (stdio) or `url` (streamable HTTP, SSE fallback). */
export const McpServerConfigSchema = z.strictObject({
  type: z
    .optional(z.enum(["stdio", "http", "streamable-http", "streamableHttp", "sse"]))
    .check(z.describe("Transport; inferred from command/url when absent.")),
  command: z.optional(z.string().check(z.minLength(1))),
  args: z.optional(z.array(z.string())),
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the user writes ${VAR} in config.json; this text says so
  env: z.optional(stringMap).check(z.describe("Extra environment for a stdio server; ${VAR} is expanded.")),
  cwd: z.optional(z.string().check(z.minLength(1))),
  url: z.optional(z.url()),
  // biome-ignore lint/suspicious/noTemplateCurlyInString: as for env
  headers: z.optional(stringMap).check(z.describe("HTTP headers (e.g. Authorization); ${VAR} is expanded.")),
  disabled: z.optional(z.boolean()),
  trust: z.optional(z.boolean()).check(z.describe("Run this server's tools without asking (default false).")),
  timeout: z
    .optional(z.int().check(z.minimum(1_000), z.maximum(3_600_000)))
    .check(z.describe("Per-call timeout in ms (default 600000).")),
  startupTimeout: z
    .optional(z.int().check(z.minimum(500), z.maximum(300_000)))
    .check(z.describe("Connect timeout in ms (default 30000).")),
});

export const McpServersSchema = z.record(z.string(), McpServerConfigSchema);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

/** A server ready to connect: transport decided, variables expanded, paths absolute. */
export type McpServerSpec =
  | {
      name: string;
      transport: "stdio";
      command: string;
      args: string[];
      env: Record<string, string>;
      /** Only when configured: a server otherwise starts outside every writable root (sandbox/launchers.ts). */
      cwd?: string;
      trust: boolean;
      timeoutMs: number;
      startupTimeoutMs: number;
    }
  | {
      name: string;
      transport: "http" | "sse";
      url: string;
      headers: Record<string, string>;
      trust: boolean;
      timeoutMs: number;
      startupTimeoutMs: number;
    };

export const DEFAULT_CALL_TIMEOUT_MS = 600_000;
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;

/** Server names become part of tool names: letters, digits, `_` and `-` only. */
const NAME = /^[A-Za-z0-9_-]{1,48}$/;

/** Replaces `${VAR}` and `${VAR:-default}`; an unset variable without a default is an error. */
export function expandVars(text: string, env: NodeJS.ProcessEnv, where: string): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== "") return value;
      if (fallback !== undefined) return fallback;
      throw new Error(`${where}: \${${name}} is not set in the environment`);
    },
  );
}

function expandMap(
  map: Record<string, string> | undefined,
  env: NodeJS.ProcessEnv,
  where: string,
): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, expandVars(v, env, `${where}.${k}`)]));
}

/**
 * Resolves configured servers into specs. Contract: never throws; a server that cannot be used
 * (bad name, neither command nor url, a missing variable) is left out with a problem line.
 */
export function resolveServers(
  servers: Record<string, McpServerConfig>,
  opts: { workspace: string; env: NodeJS.ProcessEnv },
): { specs: McpServerSpec[]; problems: string[] } {
  const specs: McpServerSpec[] = [];
  const problems: string[] = [];
  for (const [name, cfg] of Object.entries(servers)) {
    if (cfg.disabled) continue;
    if (!NAME.test(name)) {
      problems.push(
        `MCP server "${name}": names may use letters, digits, _ and - (at most 48), as they become part of tool names`,
      );
      continue;
    }
    const common = {
      name,
      trust: cfg.trust ?? false,
      timeoutMs: cfg.timeout ?? DEFAULT_CALL_TIMEOUT_MS,
      startupTimeoutMs: cfg.startupTimeout ?? DEFAULT_STARTUP_TIMEOUT_MS,
    };
    try {
      const wantsHttp = cfg.type !== undefined && cfg.type !== "stdio";
      if (cfg.command !== undefined && !wantsHttp) {
        const cwd = cfg.cwd ? expandVars(cfg.cwd, opts.env, `${name}.cwd`) : undefined;
        specs.push({
          ...common,
          transport: "stdio",
          command: expandVars(cfg.command, opts.env, `${name}.command`),
          args: (cfg.args ?? []).map((a, i) => expandVars(a, opts.env, `${name}.args[${i}]`)),
          env: expandMap(cfg.env, opts.env, `${name}.env`),
          ...(cwd === undefined ? {} : { cwd: isAbsolute(cwd) ? cwd : resolve(opts.workspace, cwd) }),
        });
      } else if (cfg.url !== undefined && cfg.type !== "stdio") {
        specs.push({
          ...common,
          transport: cfg.type === "sse" ? "sse" : "http",
          url: expandVars(cfg.url, opts.env, `${name}.url`),
          headers: expandMap(cfg.headers, opts.env, `${name}.headers`),
        });
      } else {
        problems.push(
          `MCP server "${name}": needs "command" (stdio) or "url" (HTTP)${cfg.type ? ` matching type "${cfg.type}"` : ""}`,
        );
      }
    } catch (error) {
      problems.push(`MCP server "${name}": ${(error as Error).message}`);
    }
  }
  return { specs, problems };
}

/** Reads an `--mcp FILE`: `{"mcpServers": {...}}`, `{"servers": {...}}`, or the bare object. Throws a one-line error. */
export function readMcpFile(file: string): Record<string, McpServerConfig> {
  const data = readJson(file, "MCP config");
  const obj = data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  if (!obj) throw new Error(`invalid MCP config ${file}: expected a JSON object`);
  const raw =
    obj.mcpServers ??
    obj.servers ??
    (Object.keys(obj).length > 0 &&
    Object.values(obj).every((v) => v && typeof v === "object" && ("command" in v || "url" in v))
      ? obj
      : {});
  return checked(McpServersSchema, raw, "MCP config", file);
}

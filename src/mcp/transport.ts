// How a configured MCP server is reached: a stdio server is launched with a short inherited
// environment, never from where sandboxed commands can write, its stderr into a log file; an HTTP
// or SSE server is reached with its configured headers.
import { createWriteStream, mkdirSync, statSync, truncateSync, type WriteStream } from "node:fs";
import { dirname, resolve } from "node:path";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerSpec } from "../config/mcp.js";
import { launcherCwd, launcherPath, launcherProblem } from "../sandbox/launchers.js";

/** Variables a stdio server inherits besides its own `env`: no API keys, no tokens. */
const INHERITED_ENV = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TMPDIR",
  "TZ",
  "XDG_RUNTIME_DIR",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
];
/** A server log past this size starts over when the server next starts. */
const LOG_LIMIT = 5 * 1024 * 1024;

export function serverEnv(
  spec: { env: Record<string, string> },
  base: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = base[key];
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return { ...env, ...spec.env };
}

/** Where a stdio server may not come from. */
export interface LaunchScope {
  /** The workspace, against which a relative server program is judged. */
  workspace: string | undefined;
  /** Where sandboxed commands can write, resolved. */
  roots: string[];
}

/** Opens (appending, mode 600) a server's log file, with a line saying it starts; null when it cannot. */
export function openServerLog(file: string, name: string): WriteStream | null {
  try {
    mkdirSync(dirname(file), { recursive: true });
    if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > LOG_LIMIT) truncateSync(file, 0);
    const stream = createWriteStream(file, { flags: "a", mode: 0o600 });
    stream.on("error", () => {});
    stream.write(`--- ${new Date().toISOString()} starting ${name}\n`);
    return stream;
  } catch {
    return null;
  }
}

/**
 * The transport for `spec`. A stdio server that would start from a writable folder throws an
 * EACCES error saying why (not worth retrying); `stderrLog` is asked for the log stream only
 * when a stdio server is about to start.
 */
export function serverTransport(
  spec: McpServerSpec,
  scope: LaunchScope,
  stderrLog: () => WriteStream | null,
): Transport {
  if (spec.transport === "stdio") {
    // The server runs with the user's rights: nothing it starts may come from where a sandboxed
    // command can write (a planted node_modules package that `npx` would pick, a workspace script).
    const roots = scope.roots;
    const env = serverEnv(spec);
    const launch = { workspace: scope.workspace ?? spec.cwd ?? process.cwd(), roots, env };
    const problem =
      spec.cwd !== undefined && roots.some((r) => resolve(spec.cwd!) === r || resolve(spec.cwd!).startsWith(`${r}/`))
        ? `its cwd ${spec.cwd} lies in a folder sandboxed commands can write, where npx and node would pick up planted packages; give it a cwd outside the workspace`
        : launcherProblem(spec.command, spec.args, launch);
    if (problem !== null)
      throw Object.assign(new Error(`refused to start MCP server ${spec.name}: ${problem}`), { code: "EACCES" });
    const transport = new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      env: roots.length > 0 ? { ...env, PATH: launcherPath(env.PATH, roots) } : env,
      cwd: spec.cwd ?? launcherCwd(roots),
      stderr: "pipe",
    });
    // Server chatter goes to its log file, never onto the screen.
    const stream = stderrLog();
    transport.stderr?.on("data", (chunk: Buffer) => stream?.write(chunk));
    return transport;
  }
  const init = { headers: spec.headers };
  return spec.transport === "sse"
    ? new SSEClientTransport(new URL(spec.url), {
        requestInit: init,
        eventSourceInit: {
          fetch: (url, i) =>
            fetch(url, { ...i, headers: { ...spec.headers, ...(i?.headers as Record<string, string>) } }),
        },
      })
    : new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: init });
}

/** The older HTTP+SSE transport, tried when a server refuses the streamable POST. */
export function legacySseTransport(spec: { url: string; headers: Record<string, string> }): Transport {
  return new SSEClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers } });
}

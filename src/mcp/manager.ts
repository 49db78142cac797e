// Connections to the configured MCP servers: started in parallel in the background, each with a
// connect timeout, its stderr in a log file, its tool list kept fresh, restarted with backoff.
import { createWriteStream, mkdirSync, statSync, truncateSync, type WriteStream } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { log } from "../config/log.js";
import type { McpServerSpec } from "../config/mcp.js";
import { launcherCwd, launcherPath, launcherProblem } from "../sandbox/launchers.js";

export type McpState = "connecting" | "ready" | "restarting" | "failed" | "stopped";

/** What `/mcp`, the title bar and the `mcp.updated` event show of one server. */
export interface McpServerStatus {
  name: string;
  transport: "stdio" | "http" | "sse";
  state: McpState;
  tools: number;
  error?: string;
  /** Connections made after the first one. */
  restarts: number;
  logFile?: string;
}

export interface McpToolEntry {
  server: string;
  trusted: boolean;
  tool: Tool;
}

/** Delay before reconnect attempt n (1-based): 1 s, 2 s, 4 s ... capped at 30 s. */
export const backoffMs = (attempt: number, baseMs = 1_000) => Math.min(30_000, baseMs * 2 ** (attempt - 1));
/** Consecutive failed attempts after which a server is left failed until the user retries (/mcp). */
export const MAX_ATTEMPTS = 6;
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

class TimeoutError extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const describe = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split("\n", 1)[0]!.slice(0, 300);

/** One server: its client, state and tools. Contract: never throws out of its timers or handlers. */
class Connection {
  state: McpState = "connecting";
  error: string | undefined;
  client: Client | null = null;
  tools: Tool[] = [];
  restarts = 0;
  private attempts = 0;
  private connectedOnce = false;
  private closing = false;
  private timer: NodeJS.Timeout | null = null;
  private logStream: WriteStream | null = null;
  private settledOnce: Promise<void>;
  private settle!: () => void;
  private readyWaiters: (() => void)[] = [];

  constructor(
    readonly spec: McpServerSpec,
    private readonly owner: {
      logDir: string | null;
      version: string;
      retryBaseMs: number;
      maxAttempts: number;
      changed(): void;
      workspace: string | undefined;
      roots: string[];
    },
  ) {
    this.settledOnce = new Promise((resolve) => (this.settle = resolve));
  }

  get logFile(): string | undefined {
    return this.spec.transport === "stdio" && this.owner.logDir
      ? join(this.owner.logDir, `mcp-${this.spec.name}.log`)
      : undefined;
  }

  /** Resolves once the first connection attempt succeeded or failed. */
  firstAttempt(): Promise<void> {
    return this.settledOnce;
  }

  /** Resolves true when ready, false when `ms` passed or the server failed for good. */
  waitReady(ms: number, signal?: AbortSignal): Promise<boolean> {
    if (this.state === "ready") return Promise.resolve(true);
    if (this.state === "failed" || this.state === "stopped") return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.readyWaiters = this.readyWaiters.filter((w) => w !== onReady);
        resolve(value);
      };
      const onReady = () => done(this.state === "ready");
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.readyWaiters.push(onReady);
    });
  }

  private wake(): void {
    for (const waiter of this.readyWaiters.splice(0)) waiter();
  }

  private setState(state: McpState, error?: string): void {
    this.state = state;
    this.error = error;
    if (state === "ready" || state === "failed" || state === "stopped") this.wake();
    this.owner.changed();
  }

  private openLog(): WriteStream | null {
    const file = this.logFile;
    if (!file) return null;
    try {
      mkdirSync(this.owner.logDir!, { recursive: true });
      if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > LOG_LIMIT) truncateSync(file, 0);
      const stream = createWriteStream(file, { flags: "a", mode: 0o600 });
      stream.on("error", () => {});
      stream.write(`--- ${new Date().toISOString()} starting ${this.spec.name}\n`);
      return stream;
    } catch {
      return null;
    }
  }

  private transport(): Transport {
    const spec = this.spec;
    if (spec.transport === "stdio") {
      // The server runs with the user's rights: nothing it starts may come from where a sandboxed
      // command can write (a planted node_modules package that `npx` would pick, a workspace script).
      const roots = this.owner.roots;
      const env = serverEnv(spec);
      const launch = { workspace: this.owner.workspace ?? spec.cwd ?? process.cwd(), roots, env };
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
      this.logStream ??= this.openLog();
      const stream = this.logStream;
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

  private async connectWith(transport: Transport): Promise<Client> {
    const client = new Client({ name: "nanohermes", version: this.owner.version }, { capabilities: {} });
    try {
      await withTimeout(client.connect(transport), this.spec.startupTimeoutMs, "connecting");
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
    return client;
  }

  async connect(): Promise<void> {
    if (this.closing) return;
    this.attempts++;
    let client: Client;
    try {
      try {
        client = await this.connectWith(this.transport());
      } catch (error) {
        // Servers that only speak the older HTTP+SSE transport refuse the streamable POST.
        if (this.spec.transport !== "http" || error instanceof TimeoutError || this.closing) throw error;
        client = await this.connectWith(
          new SSEClientTransport(new URL(this.spec.url), { requestInit: { headers: this.spec.headers } }),
        );
      }
      if (this.closing) {
        await client.close().catch(() => {});
        return;
      }
      client.onclose = () => this.lost(client, "the server closed the connection");
      client.onerror = (error) => log("debug", `MCP ${this.spec.name}: ${describe(error)}`);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.refreshTools(client));
      this.client = client;
      this.tools = await this.listTools(client);
      if (this.client !== client) return;
      if (this.connectedOnce) this.restarts++;
      this.connectedOnce = true;
      this.attempts = 0;
      this.setState("ready");
    } catch (error) {
      const message = describe(error);
      this.logStream?.write(`--- connect failed: ${message}\n`);
      log("warn", `MCP server ${this.spec.name}: ${message}`);
      this.client = null;
      this.tools = [];
      // A program that is not there (or not executable) will not appear by retrying.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "EACCES")
        this.setState(
          "failed",
          `cannot start ${this.spec.transport === "stdio" ? this.spec.command : "the server"}: ${message}`,
        );
      else this.scheduleRetry(message);
    } finally {
      this.settle();
    }
  }

  private async listTools(client: Client): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await withTimeout(
        client.listTools(cursor ? { cursor } : undefined),
        this.spec.startupTimeoutMs,
        "listing tools",
      );
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor && tools.length < 1_000);
    return tools;
  }

  private async refreshTools(client: Client): Promise<void> {
    try {
      const tools = await this.listTools(client);
      if (this.client !== client) return;
      this.tools = tools;
      this.owner.changed();
    } catch (error) {
      log("warn", `MCP ${this.spec.name}: refreshing tools`, error);
    }
  }

  private lost(client: Client, why: string): void {
    if (this.client !== client || this.closing) return;
    this.client = null;
    this.tools = [];
    this.logStream?.write(`--- connection lost: ${why}\n`);
    this.scheduleRetry(why);
  }

  private scheduleRetry(why: string): void {
    if (this.closing) return;
    if (this.attempts >= this.owner.maxAttempts) {
      this.setState("failed", `${why} (gave up after ${this.attempts} attempts; /mcp retries)`);
      return;
    }
    const delay = backoffMs(this.attempts, this.owner.retryBaseMs);
    this.setState(
      this.connectedOnce ? "restarting" : "connecting",
      `${why}; retrying in ${Math.round(delay / 1000)} s`,
    );
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, delay);
    this.timer.unref();
  }

  /** Reconnects now (the user asked): resets the attempt count. */
  async restart(): Promise<void> {
    if (this.closing) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const old = this.client;
    this.client = null;
    this.tools = [];
    this.attempts = 0;
    this.setState(this.connectedOnce ? "restarting" : "connecting");
    await old?.close().catch(() => {});
    await this.connect();
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    this.tools = [];
    this.state = "stopped";
    this.wake();
    await client?.close().catch(() => {});
    this.logStream?.end();
    this.settle();
  }

  status(): McpServerStatus {
    const logFile = this.logFile;
    return {
      name: this.spec.name,
      transport: this.spec.transport,
      state: this.state,
      tools: this.tools.length,
      restarts: this.restarts,
      ...(this.error ? { error: this.error } : {}),
      ...(logFile ? { logFile } : {}),
    };
  }
}

export interface McpManagerOptions {
  /** The workspace, against which a relative server program is judged. */
  workspace?: string;
  /** Where sandboxed commands can write: servers start outside them and no program may come from there. */
  roots?: string[];
  /** Where stdio servers' stderr logs go (`~/.nanohermes/logs`); none: dropped. */
  logDir: string | null;
  version: string;
  /** Called whenever a server's state or tool list changed. */
  onChange?: (statuses: McpServerStatus[]) => void;
  /** Reconnect backoff base (default 1 s) and attempts before giving up (default MAX_ATTEMPTS). */
  retry?: { baseMs: number; maxAttempts: number };
}

/**
 * Contract: one per process, shared by every task. `start()` returns at once; tools appear as
 * servers become ready. Nothing here throws into the caller except explicit calls on an
 * unavailable server, which reject with a one-line reason.
 */
export class McpManager {
  private readonly connections = new Map<string, Connection>();
  /** Bumped whenever the set of tools may have changed. */
  version = 0;

  constructor(
    specs: McpServerSpec[],
    private readonly opts: McpManagerOptions,
  ) {
    const owner = {
      logDir: opts.logDir,
      version: opts.version,
      retryBaseMs: opts.retry?.baseMs ?? 1_000,
      maxAttempts: opts.retry?.maxAttempts ?? MAX_ATTEMPTS,
      changed: () => this.changed(),
      workspace: opts.workspace,
      roots: (opts.roots ?? []).map((r) => resolve(r)),
    };
    for (const spec of specs) this.connections.set(spec.name, new Connection(spec, owner));
  }

  get size(): number {
    return this.connections.size;
  }

  serverNames(): string[] {
    return [...this.connections.keys()];
  }

  private changed(): void {
    this.version++;
    this.opts.onChange?.(this.statuses());
  }

  start(): void {
    for (const connection of this.connections.values()) void connection.connect();
  }

  /** Waits for every server's first attempt, at most `ms` (one-shot runs, before the first request). */
  async settled(ms: number): Promise<void> {
    const all = Promise.all([...this.connections.values()].map((c) => c.firstAttempt()));
    await withTimeout(all, ms, "waiting for MCP servers").catch(() => {});
  }

  statuses(): McpServerStatus[] {
    return [...this.connections.values()].map((c) => c.status());
  }

  tools(): McpToolEntry[] {
    return [...this.connections.values()].flatMap((c) =>
      c.state === "ready" ? c.tools.map((tool) => ({ server: c.spec.name, trusted: c.spec.trust, tool })) : [],
    );
  }

  /** The connected client of `server`, waiting a little for one that is (re)connecting. */
  async client(server: string, signal?: AbortSignal): Promise<{ client: Client; timeoutMs: number }> {
    const connection = this.connections.get(server);
    if (!connection)
      throw new Error(`no MCP server "${server}" is configured (servers: ${this.serverNames().join(", ") || "none"})`);
    if (
      !(await connection.waitReady(Math.min(10_000, connection.spec.startupTimeoutMs), signal)) ||
      !connection.client
    ) {
      throw new Error(
        `MCP server "${server}" is not available (${connection.state}${connection.error ? `: ${connection.error}` : ""})`,
      );
    }
    return { client: connection.client, timeoutMs: connection.spec.timeoutMs };
  }

  async callTool(
    server: string,
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onProgress?: (text: string) => void; traceparent?: string },
  ): Promise<CallToolResult> {
    const { client, timeoutMs } = await this.client(server, options.signal);
    try {
      // The call's span, for a server that traces too (the MCP convention: W3C trace context in _meta).
      const meta = options.traceparent ? { _meta: { traceparent: options.traceparent } } : {};
      const result = await client.callTool({ name, arguments: args, ...meta }, undefined, {
        signal: options.signal,
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: timeoutMs * 6,
        ...(options.onProgress
          ? {
              onprogress: (p: { progress: number; total?: number; message?: string }) =>
                options.onProgress!(
                  `progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ""}${p.message ? ` ${p.message}` : ""}\n`,
                ),
            }
          : {}),
      });
      return result as CallToolResult;
    } catch (error) {
      if (options.signal.aborted) throw error;
      const connection = this.connections.get(server);
      const gone = connection && connection.client !== client;
      throw new Error(
        gone
          ? `MCP server "${server}" closed the connection during the call (${describe(error)}); it is being restarted, try again shortly`
          : describe(error),
      );
    }
  }

  async restart(server?: string): Promise<void> {
    const targets = server
      ? [this.connections.get(server)].filter((c): c is Connection => c !== undefined)
      : [...this.connections.values()];
    await Promise.all(targets.map((c) => c.restart()));
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }
}

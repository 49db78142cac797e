// One MCP server's connection: connect with a timeout, keep its tool list fresh, reconnect with
// backoff when it is lost or fails to start, and say its state (what `/mcp` and the title bar show).
import type { WriteStream } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { log } from "../config/log.js";
import type { McpServerSpec } from "../config/mcp.js";
import { legacySseTransport, openServerLog, serverTransport, type LaunchScope } from "./transport.js";

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

/** Delay before reconnect attempt n (1-based): 1 s, 2 s, 4 s ... capped at 30 s. */
export const backoffMs = (attempt: number, baseMs = 1_000) => Math.min(30_000, baseMs * 2 ** (attempt - 1));
/** Consecutive failed attempts after which a server is left failed until the user retries (/mcp). */
export const MAX_ATTEMPTS = 6;

/** What a connection shares with the manager that owns it. */
export interface ConnectionOwner extends LaunchScope {
  /** Where stdio servers' stderr logs go; null: dropped. */
  logDir: string | null;
  /** NanoHermes's version, told to the server. */
  version: string;
  retryBaseMs: number;
  maxAttempts: number;
  /** Called whenever the state or the tool list changed. */
  changed(): void;
}

class TimeoutError extends Error {}

/** `promise`, or a TimeoutError naming `what` once `ms` have passed. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** An error's first line, at most 300 characters: what the status line and the model are told. */
export const errorLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split("\n", 1)[0]!.slice(0, 300);

/** One server: its client, state and tools. Contract: never throws out of its timers or handlers. */
export class Connection {
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
    private readonly owner: ConnectionOwner,
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

  private transport(): Transport {
    return serverTransport(this.spec, this.owner, () => {
      const file = this.logFile;
      if (file) this.logStream ??= openServerLog(file, this.spec.name);
      return this.logStream;
    });
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
        client = await this.connectWith(legacySseTransport(this.spec));
      }
      if (this.closing) {
        await client.close().catch(() => {});
        return;
      }
      client.onclose = () => this.lost(client, "the server closed the connection");
      client.onerror = (error) => log("debug", `MCP ${this.spec.name}: ${errorLine(error)}`);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.refreshTools(client));
      this.client = client;
      this.tools = await this.listTools(client);
      if (this.client !== client) return;
      if (this.connectedOnce) this.restarts++;
      this.connectedOnce = true;
      this.attempts = 0;
      this.setState("ready");
    } catch (error) {
      const message = errorLine(error);
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

// The configured MCP servers, one Connection each (connection.ts): started in parallel in the
// background, their tools listed together, tool calls made on the server named.
import { resolve } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerSpec } from "../config/mcp.js";
import { Connection, errorLine, MAX_ATTEMPTS, type McpServerStatus, withTimeout } from "./connection.js";

export type { McpServerStatus } from "./connection.js";

export interface McpToolEntry {
  server: string;
  trusted: boolean;
  tool: Tool;
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
          ? `MCP server "${server}" closed the connection during the call (${errorLine(error)}); it is being restarted, try again shortly`
          : errorLine(error),
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

// The sessions of one ACP connection: each created for its workspace (the settings read as if
// NanoHermes were started there) with the client's MCP servers beside the configured ones, found
// again by id in the session folder (session/load, session/resume), listed from the task index.
import { existsSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { McpServer, SessionInfo } from "@agentclientprotocol/sdk";
import { loadExtensions, noExtensions, type Extensions } from "../agent/extensions.js";
import type { ModelClient } from "../agent/model-client.js";
import { missingCredentials, setupHint } from "../config/credentials.js";
import type { Flags } from "../config/flags.js";
import type { Observers } from "../telemetry/observers.js";
import { loadSettings } from "../config/load.js";
import type { McpServerConfig } from "../config/mcp.js";
import type { Settings } from "../config/schema.js";
import { byCodeUnit } from "../protocol/order.js";
import { newSessionId, sessionFileFor } from "../session/store.js";
import { readTaskIndex, taskIndexWritten } from "../session/task-index.js";
import { AuthRequiredError, UnknownSessionError } from "./errors.js";
import { AcpSession, type ClientPort } from "./session.js";

/** Session ids are file names in the session folder: nothing that could leave it. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const PAGE = 100;

/** ACP's MCP server descriptions in the form config.json uses. */
export function mcpConfigOf(servers: readonly McpServer[]): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  for (const s of servers) {
    if ("type" in s && (s.type === "http" || s.type === "sse"))
      out[s.name] = {
        type: s.type,
        url: s.url,
        headers: Object.fromEntries(s.headers.map((h) => [h.name, h.value])),
      };
    else if ("command" in s)
      out[s.name] = { command: s.command, args: s.args, env: Object.fromEntries(s.env.map((e) => [e.name, e.value])) };
  }
  return out;
}

export interface AcpSessionsOptions {
  flags: Flags;
  env: NodeJS.ProcessEnv;
  client: ClientPort;
  modelClient?: ModelClient;
  observers?: Observers | null;
}

export class AcpSessions {
  private readonly sessions = new Map<string, { session: AcpSession; extensions: Promise<Extensions> }>();

  constructor(private readonly opts: AcpSessionsOptions) {}

  /**
   * Settings for a session in `cwd`, as `nanohermes -C cwd` would read them. Contract: throws
   * ConfigError / UsageError for a bad folder or config, AuthRequiredError without a provider key.
   */
  settingsFor(cwd: string, servers: readonly McpServer[]): Settings {
    const flags: Flags = { ...this.opts.flags, values: { ...this.opts.flags.values, cwd } };
    const settings = loadSettings({ flags, env: this.opts.env });
    if (!this.opts.modelClient && missingCredentials(settings))
      throw new AuthRequiredError(setupHint(settings).join(" "));
    return { ...settings, mcpServers: { ...settings.mcpServers, ...mcpConfigOf(servers) } };
  }

  get(id: string): AcpSession {
    const found = this.sessions.get(id);
    if (!found) throw new UnknownSessionError(id);
    return found.session;
  }

  /** session/new: a session with a new file in the session folder. */
  async create(cwd: string, servers: readonly McpServer[]): Promise<AcpSession> {
    const settings = this.settingsFor(cwd, servers);
    return this.start(newSessionId(), settings);
  }

  /**
   * session/load and session/resume: the saved session `id`, opened (its lock taken) for this
   * connection. A session open here already is served as it is.
   */
  async open(id: string, cwd: string, servers: readonly McpServer[]): Promise<AcpSession> {
    const open = this.sessions.get(id);
    if (open) return open.session;
    if (!SESSION_ID.test(id)) throw new UnknownSessionError(id);
    const settings = this.settingsFor(cwd, servers);
    if (!existsSync(sessionFileFor(settings.sessionDir, id))) throw new UnknownSessionError(id);
    const session = await this.start(id, settings);
    try {
      await session.open();
    } catch (error) {
      await this.close(id);
      throw error;
    }
    return session;
  }

  private async start(id: string, settings: Settings): Promise<AcpSession> {
    // MCP servers connect in the background; the first turn waits for the extensions.
    const extensions = loadExtensions(settings, { emit: () => {}, env: this.opts.env }).catch(() => noExtensions());
    const session = new AcpSession({
      id,
      sessionFile: sessionFileFor(settings.sessionDir, id),
      settings,
      extensions,
      client: this.opts.client,
      observers: this.opts.observers ?? null,
      ...(this.opts.modelClient ? { modelClient: this.opts.modelClient } : {}),
    });
    this.sessions.set(id, { session, extensions });
    return session;
  }

  /** session/list: the sessions of the task index that live in the session folder, newest first. */
  async list(cwd: string | undefined, cursor: string | undefined): Promise<{ sessions: SessionInfo[]; next?: string }> {
    const settings = loadSettings({ flags: this.opts.flags, env: this.opts.env });
    const entries = (await readTaskIndex(settings.home))
      .filter((e) => (cwd === undefined || e.workspace === cwd) && dirname(e.sessionFile) === settings.sessionDir)
      .sort((a, b) => byCodeUnit(b.updatedAt, a.updatedAt));
    const from = cursor && /^\d+$/.test(cursor) ? Number(cursor) : 0;
    const page = entries.slice(from, from + PAGE).map((e) => ({
      sessionId: basename(e.sessionFile, ".json"),
      cwd: e.workspace,
      title: e.title,
      updatedAt: e.updatedAt,
    }));
    return from + PAGE < entries.length ? { sessions: page, next: String(from + PAGE) } : { sessions: page };
  }

  /** session/close: the turn stopped, the session saved, its MCP servers stopped. */
  async close(id: string): Promise<void> {
    const found = this.sessions.get(id);
    if (!found) return;
    this.sessions.delete(id);
    await found.session.close();
    await (await found.extensions).close();
    // The turn's entry in the task index is written before the close is answered (or the process exits).
    await taskIndexWritten(found.session.settings.home);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }
}

// Wires an Agent for a task: settings, tools, model client, system prompt and session file.
// Every front end (one-shot, TUI, daemon) builds its agents here.
import type { Settings } from "../config/schema.js";
import type { BusEvent, PermissionMode } from "../protocol/events.js";
import { loadSession, newSessionId, sessionFileFor } from "../session/store.js";
import { builtinTools } from "../tools/index.js";
import { ToolRegistry, type Authorize } from "../tools/registry.js";
import { Agent } from "./agent.js";
import { OpenAIModelClient, type ModelClient } from "./model-client.js";
import { buildSystemPrompt } from "./prompt.js";
import { commandSandbox, writeBoundary } from "./confinement.js";
import { noExtensions, type Extensions } from "./extensions.js";

export interface EngineOptions {
  settings: Settings;
  taskId: string;
  emit(event: BusEvent): void;
  /** Resume/save here; default: a new file in the session folder. */
  sessionFile?: string;
  client?: ModelClient;
  mode?: PermissionMode;
  authorize?: Authorize;
  takeSteering?: () => string[];
  /** MCP servers, skills, hooks and AGENTS.md, shared by every task of the process. */
  extensions?: Extensions;
}

export async function createAgent(options: EngineOptions): Promise<Agent> {
  const { settings, taskId, emit } = options;
  const ext = options.extensions ?? noExtensions();
  const tools = new ToolRegistry([...builtinTools(), ...ext.tools], ext.sources);
  const sessionFile = options.sessionFile ?? sessionFileFor(settings.sessionDir, newSessionId());
  const loaded = await loadSession(sessionFile, settings.workspace, settings.model);
  if (loaded.warning) emit({ type: "notice", taskId, level: "warn", text: loaded.warning });
  const sandbox = commandSandbox(settings);
  const client = options.client ?? new OpenAIModelClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, timeoutMs: settings.requestTimeoutMs });
  const agent = new Agent({
    taskId,
    settings,
    client,
    tools,
    emit,
    session: loaded.data,
    sessionFile,
    systemPrompt: systemPromptFor(settings, options.mode ?? "default", ext),
    ...(options.authorize ? { authorize: options.authorize } : {}),
    ...(options.takeSteering ? { takeSteering: options.takeSteering } : {}),
    sandbox,
    boundary: writeBoundary(settings),
    web: settings.web,
    hooks: ext.hooks,
  });
  emit({
    type: "session.started",
    taskId,
    sessionId: loaded.data.id,
    sessionFile,
    workspace: settings.workspace,
    model: settings.model,
    resumed: loaded.resumed,
    messages: agent.messages.length,
  });
  return agent;
}

/** The system prompt for a task in `mode` (rebuilt when the mode changes). */
export function systemPromptFor(settings: Settings, mode: PermissionMode, ext: Extensions = noExtensions()): string {
  return buildSystemPrompt({
    workspace: settings.workspace,
    toolNames: [...builtinTools(), ...ext.tools].map((t) => t.name),
    mode,
    skills: ext.prompt.skills,
    agentsMd: ext.prompt.agentsMd,
    mcpServers: ext.prompt.mcpServers,
  });
}

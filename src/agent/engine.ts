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
}

export async function createAgent(options: EngineOptions): Promise<Agent> {
  const { settings, taskId, emit } = options;
  const tools = new ToolRegistry(builtinTools());
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
    systemPrompt: buildSystemPrompt({ workspace: settings.workspace, toolNames: tools.names(), ...(options.mode ? { mode: options.mode } : {}) }),
    ...(options.authorize ? { authorize: options.authorize } : {}),
    ...(options.takeSteering ? { takeSteering: options.takeSteering } : {}),
    sandbox,
    boundary: writeBoundary(settings),
    web: settings.web,
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
export function systemPromptFor(settings: Settings, mode: PermissionMode): string {
  return buildSystemPrompt({ workspace: settings.workspace, toolNames: builtinTools().map((t) => t.name), mode });
}

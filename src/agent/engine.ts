// Wires an Agent for a task: settings, tools, model client, system prompt and session file.
// Every front end (one-shot, TUI, daemon) builds its agents here.
import type { Settings } from "../config/schema.js";
import type { BusEvent } from "../protocol/events.js";
import { loadSession, newSessionId, sessionFileFor } from "../session/store.js";
import { builtinTools } from "../tools/index.js";
import { ToolRegistry } from "../tools/registry.js";
import { Agent } from "./agent.js";
import { OpenAIModelClient, type ModelClient } from "./model-client.js";
import { buildSystemPrompt } from "./prompt.js";

export interface EngineOptions {
  settings: Settings;
  taskId: string;
  emit(event: BusEvent): void;
  /** Resume/save here; default: a new file in the session folder. */
  sessionFile?: string;
  client?: ModelClient;
}

export async function createAgent(options: EngineOptions): Promise<Agent> {
  const { settings, taskId, emit } = options;
  const tools = new ToolRegistry(builtinTools());
  const sessionFile = options.sessionFile ?? sessionFileFor(settings.sessionDir, newSessionId());
  const loaded = await loadSession(sessionFile, settings.workspace, settings.model);
  if (loaded.warning) emit({ type: "notice", taskId, level: "warn", text: loaded.warning });
  const client = options.client ?? new OpenAIModelClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, timeoutMs: settings.requestTimeoutMs });
  const agent = new Agent({
    taskId,
    settings,
    client,
    tools,
    emit,
    session: loaded.data,
    sessionFile,
    systemPrompt: buildSystemPrompt({ workspace: settings.workspace, toolNames: tools.names() }),
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

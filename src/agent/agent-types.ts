// What an Agent is built from and what a turn gives back: the engine's contract with the task
// manager, the one-shot runner, the daemon and subagents.
import type { Settings } from "../config/schema.js";
import type { HookRunner } from "../hooks/hooks.js";
import type { BusEvent, TurnEndReason } from "../protocol/events.js";
import type { HistoryItem } from "../protocol/history.js";
import type { ChatMessage } from "../protocol/messages.js";
import type { SessionData } from "../session/store.js";
import type { CommandSandbox, EditorFiles, WebOptions } from "../tools/define.js";
import type { WriteBoundary } from "../tools/paths.js";
import type { ToolGate, ToolRegistry } from "../tools/registry.js";
import type { CheckpointStore } from "./checkpointing.js";
import type { ModelClient } from "./model-client.js";
import type { UsageTotals } from "./providers/usage.js";
import type { FallbackRoute } from "./retry.js";

export type AgentSettings = Pick<
  Settings,
  | "workspace"
  | "model"
  | "fallbackModel"
  | "maxRetries"
  | "retryBaseMs"
  | "maxIterations"
  | "thinking"
  | "stream"
  | "models"
  | "provider"
> &
  Partial<Pick<Settings, "turnTimeoutMs" | "api">>;

export interface AgentOptions {
  taskId: string;
  agentId?: string;
  settings: AgentSettings;
  client: ModelClient;
  /** Where a failed request goes next (providers/client.ts); absent: settings.fallbackModel on `client`. */
  fallbacks?: FallbackRoute[];
  tools: ToolRegistry;
  emit(event: BusEvent): void;
  /** The session this agent reads and extends; saved to `sessionFile` after every turn. */
  session: SessionData;
  sessionFile: string | null;
  systemPrompt: string;
  /** Every tool call passes it (agent/gate.ts); there is no agent without one. */
  gate: ToolGate;
  /** Steering messages waiting for the next step boundary (the task manager's queue). */
  takeSteering?: () => string[];
  /** Where file tools may write and how commands are confined. */
  boundary?: WriteBoundary;
  sandbox?: CommandSandbox;
  web?: WebOptions;
  /** The editor's view of files (ACP), for read_file. */
  editorFiles?: EditorFiles;
  hooks?: HookRunner | null;
  /** A call's span as a W3C traceparent while telemetry is on (tools pass it on: MCP `_meta`). */
  traceparent?: (callId: string) => string | undefined;
  /** Characters of history before older messages are folded into a summary (default 120,000). */
  contextBudget?: number;
  /** Long-term memory: what to put next to each new prompt, and what to learn from a completed turn. */
  memory?: MemoryHooks | null;
  /** Skills around each turn: the relevant-skills hint, evidence, the background review. */
  skills?: SkillHooks | null;
  /** File checkpoints of this session, for /rewind. */
  checkpoints?: CheckpointStore | null;
  /** Whose turn a change belongs to (a subagent's changes belong to its parent's turn). */
  checkpointTurn?: () => number;
}

/** Contract: neither rejects; failures are logged and mean "nothing retrieved / nothing saved". */
export interface MemoryHooks {
  /** The block for this prompt (marked with MEMORY_BLOCK_START) and the ids of the entries in it; "" for none. */
  retrieve(prompt: string): Promise<{ block: string; ids: string[] }>;
  /** Called after a completed turn only, with its messages; returns one line per entry saved. `signal` ends it early (close). */
  distill(turn: ChatMessage[], signal?: AbortSignal): Promise<string[]>;
}

/** A finished turn, as the skills' background review reads it. */
export interface TurnRecord {
  reason: TurnEndReason;
  prompt: string;
  sessionId: string;
  /** The turn's typed history items (its prompt first). */
  items: HistoryItem[];
  /** The turn's messages (its prompt first). */
  messages: ChatMessage[];
}

/** Contract: none rejects or throws; failures are logged and mean "no hint / no proposal". */
export interface SkillHooks {
  /** The one line added to this prompt's user message ("relevant skills: a, b"), or "" for none. */
  hint(prompt: string, sessionId: string): Promise<string>;
  /** A turn ended: evidence is written and a background review may be queued; returns at once. */
  afterTurn(turn: TurnRecord): void;
  /** Waits up to `waitMs` for queued reviews and evidence, then stops waiting. */
  settle(waitMs: number): Promise<void>;
}

export interface TurnResult {
  reason: TurnEndReason;
  response: string;
  error?: string;
  /** Set when the session could not be saved at the end of the turn: the history on disk is behind. */
  saveError?: string;
  /** Set when a completed turn's answer is suspect: cut at the output limit, or empty. */
  warning?: string;
  steps: number;
  usage: UsageTotals;
}

// The model adapter's contract: one request (streamed or whole) to a model endpoint, whatever its
// wire (providers/). Contract: `complete` never throws; failures come back as values the retry loop can judge.
import type { ChatMessage, ReasoningItem } from "../protocol/messages.js";
import type { OpenAITool } from "../tools/registry.js";
import type { ThinkingLevel } from "../config/schema.js";
import type { WaitInfo } from "./watchdog.js";
import type { ReplyCaps, ReplyCut } from "./reply-caps.js";

export interface ModelRequest {
  model: string;
  messages: ChatMessage[];
  tools: OpenAITool[];
  stream: boolean;
  thinking: ThinkingLevel;
  signal: AbortSignal;
}

export interface AssembledToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ModelReply {
  content: string;
  reasoning: string;
  toolCalls: AssembledToolCall[];
  finishReason: string | undefined;
  usage: ReplyUsage | undefined;
  /** Provider state to send back with the next request (encrypted reasoning, signed thinking). */
  reasoningItems?: ReasoningItem[];
  /** Set when the reply passed a cap (reply-caps.ts): the stream was cut there, so its tool calls are incomplete. */
  cut?: ReplyCut;
}

export interface ReplyUsage {
  /** Input tokens in all, cached ones included. */
  prompt: number;
  completion: number;
  /** Of `prompt`, read from the provider's prompt cache. */
  cachedPrompt?: number;
  /** Of `prompt`, written to the provider's prompt cache (Anthropic). */
  cacheWrite?: number;
  /** Of `completion`, spent on reasoning. */
  reasoning?: number;
}

export interface ModelFailure {
  /** HTTP status; absent for network errors, timeouts and malformed replies. */
  status: number | undefined;
  message: string;
  /** The request was aborted by a stop; nothing of it may be kept. */
  aborted: boolean;
  /** From a Retry-After header, when the server sent one. */
  retryAfterMs: number | undefined;
  /** Set when sending it again would only repeat the failure (the overall deadline passed). */
  final?: boolean;
}

export type ModelOutcome = { ok: true; reply: ModelReply } | { ok: false; error: ModelFailure };

export interface StreamHandlers {
  onText(text: string): void;
  onReasoning(text: string): void;
  /** Called every `waitNoticeMs` while no content has arrived for that long. */
  onWaiting?(info: WaitInfo): void;
}

/** A failed outcome: no HTTP status and not a stop unless `extra` says so. */
export function modelFailure(message: string, extra: Partial<ModelFailure> = {}): ModelOutcome {
  return { ok: false, error: { status: undefined, message, aborted: false, retryAfterMs: undefined, ...extra } };
}

export interface ModelClient {
  complete(request: ModelRequest, handlers: StreamHandlers): Promise<ModelOutcome>;
}

export interface ClientOptions {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** An attempt ends when no content, reasoning or tool-call byte arrived for this long. */
  timeoutMs: number;
  /** An attempt ends this long after it was sent, whatever arrives (default: no deadline beyond the idle limit). */
  deadlineMs?: number;
  /** While waiting, `onWaiting` is called this often (default 15 s). */
  waitNoticeMs?: number;
  /** Default REPLY_CAPS. */
  caps?: Partial<ReplyCaps>;
  /** Sent with every request besides the key (Azure's `api-key`, OpenRouter's `X-Title`). */
  headers?: Record<string, string>;
  /** Added to every request's query (Azure's `api-version`). */
  query?: Record<string, string>;
}

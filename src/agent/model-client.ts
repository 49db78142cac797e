// The model adapter: one chat-completions request (streamed or whole) to an OpenAI-compatible endpoint.
// Contract: `complete` never throws; failures come back as values the retry loop can judge.
import type { IncomingMessage } from "node:http";
import type { ChatMessage, ReasoningItem } from "../protocol/messages.js";
import type { OpenAITool } from "../tools/registry.js";
import type { ThinkingLevel } from "../config/schema.js";
import { VERSION } from "../version.js";
import { errorMessage, post, readBody, sseData, WireError } from "./http-wire.js";
import { RequestWatchdog, type WaitInfo } from "./watchdog.js";
import { REPLY_CAPS, type ReplyCaps, type ReplyCut } from "./reply-caps.js";

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
}

/** Messages as a chat-completions endpoint wants them: reasoning kept for the transcript, and other wires' reasoning items, are not sent back. */
export function wireMessages(messages: ChatMessage[]): ChatMessage[] {
  return messages.map((m) => {
    if (m.role !== "assistant" || (m.reasoning_content === undefined && m.reasoning_items === undefined)) return m;
    const { reasoning_content: _dropped, reasoning_items: _other, ...rest } = m;
    return rest;
  });
}

/** Text a provider may put in a delta under either name. */
function reasoningOf(delta: Record<string, unknown>): string {
  const r = delta.reasoning_content ?? delta.reasoning;
  return typeof r === "string" ? r : "";
}

interface DeltaToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** Assembles tool calls from stream deltas: keyed by index, or by id when a provider omits it. */
export class ToolCallAssembler {
  private readonly calls: AssembledToolCall[] = [];
  private readonly byIndex = new Map<number, AssembledToolCall>();

  add(delta: DeltaToolCall): void {
    let call = delta.index !== undefined ? this.byIndex.get(delta.index) : undefined;
    if (!call && delta.index === undefined && delta.id) call = this.calls.find((c) => c.id === delta.id);
    if (!call && delta.index === undefined && !delta.id) call = this.calls[this.calls.length - 1];
    if (!call) {
      call = { id: delta.id ?? "", name: "", arguments: "" };
      this.calls.push(call);
      if (delta.index !== undefined) this.byIndex.set(delta.index, call);
    }
    if (delta.id && !call.id) call.id = delta.id;
    const name = delta.function?.name;
    if (name) call.name = name.startsWith(call.name) ? name : call.name + name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
  }

  result(): AssembledToolCall[] {
    return this.calls.map((c, i) => ({ ...c, id: c.id || `call_${i + 1}` }));
  }
}

interface WireChoice {
  delta?: Record<string, unknown> & { content?: unknown; tool_calls?: DeltaToolCall[] };
  message?: Record<string, unknown> & { content?: unknown; tool_calls?: { id?: string; type?: string; function?: { name?: string; arguments?: string } }[] };
  finish_reason?: string | null;
}

interface WireCompletion {
  choices?: WireChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: unknown;
}

function usageOf(u: WireCompletion["usage"]): ModelReply["usage"] {
  return u ? { prompt: u.prompt_tokens ?? 0, completion: u.completion_tokens ?? 0 } : undefined;
}

const fail = (message: string): ModelOutcome => ({ ok: false, error: { status: undefined, message, aborted: false, retryAfterMs: undefined } });

function parseJson(text: string): WireCompletion | null {
  try {
    const data: unknown = JSON.parse(text);
    return data && typeof data === "object" ? (data as WireCompletion) : null;
  } catch {
    return null;
  }
}

/** Any OpenAI-compatible chat-completions endpoint, over node:http(s). */
export class OpenAIModelClient implements ModelClient {
  constructor(private readonly options: ClientOptions) {}

  async complete(request: ModelRequest, handlers: StreamHandlers): Promise<ModelOutcome> {
    const body: Record<string, unknown> = {
      model: request.model,
      messages: wireMessages(request.messages),
      stream: request.stream,
    };
    if (request.stream) body.stream_options = { include_usage: true };
    if (request.tools.length > 0) body.tools = request.tools;
    if (request.thinking !== "off") body.reasoning_effort = request.thinking;
    // Only content counts as progress: keep-alive comments, empty deltas and headers do not.
    const watch = new RequestWatchdog(request.signal, {
      idleMs: this.options.timeoutMs,
      deadlineMs: this.options.deadlineMs ?? Number.MAX_SAFE_INTEGER,
      noticeMs: this.options.waitNoticeMs ?? 15_000,
      ...(handlers.onWaiting ? { onWait: handlers.onWaiting } : {}),
    });
    try {
      const res = await post({
        baseUrl: this.options.baseUrl,
        apiKey: this.options.apiKey,
        body,
        signal: watch.signal,
        idleTimeoutMs: this.options.timeoutMs,
        userAgent: `nanohermes/${VERSION}`,
      });
      const outcome = request.stream ? await this.streamed(res, watch, handlers) : await this.whole(res, watch);
      return this.expired(watch, request.signal) ?? outcome;
    } catch (error) {
      const expired = this.expired(watch, request.signal);
      if (expired) return expired;
      if (error instanceof WireError) {
        return { ok: false, error: { status: error.status, message: error.message, aborted: error.aborted || request.signal.aborted, retryAfterMs: error.retryAfterMs } };
      }
      return { ok: false, error: { status: undefined, message: String(error), aborted: request.signal.aborted, retryAfterMs: undefined } };
    } finally {
      watch.dispose();
    }
  }

  /** The failure of an attempt that ran past a limit (never a stop: that one is the caller's). */
  private expired(watch: RequestWatchdog, signal: AbortSignal): ModelOutcome | null {
    const message = watch.describe();
    if (!message || signal.aborted) return null;
    return { ok: false, error: { status: undefined, message, aborted: false, retryAfterMs: undefined, ...(watch.expired === "deadline" ? { final: true } : {}) } };
  }

  private async whole(res: IncomingMessage, watch: RequestWatchdog): Promise<ModelOutcome> {
    // A whole reply has no deltas: every byte of its body is the answer arriving.
    const text = await readBody(res, watch.signal, () => watch.activity());
    const data = parseJson(text);
    if (!data) return fail(`the reply was not valid JSON: ${errorMessage(text).slice(0, 120)}`);
    if (data.error) return fail(`the endpoint sent an error: ${errorMessage(text)}`);
    const choice = data.choices?.[0];
    const msg = choice?.message;
    if (!choice || !msg) return fail("the reply was not a chat completion (no choices)");
    const toolCalls = (msg.tool_calls ?? [])
      .filter((c) => (c.type ?? "function") === "function" && c.function?.name)
      .map((c, i) => ({ id: c.id || `call_${i + 1}`, name: c.function!.name!, arguments: c.function!.arguments ?? "" }));
    const reply: ModelReply = {
      content: typeof msg.content === "string" ? msg.content : "",
      reasoning: reasoningOf(msg),
      toolCalls,
      finishReason: choice.finish_reason ?? undefined,
      usage: usageOf(data.usage),
    };
    // The same caps as a stream: a whole reply that passes one is cut there, its calls incomplete.
    const caps = { ...REPLY_CAPS, ...this.options.caps };
    if (reply.content.length > caps.answerChars) {
      reply.content = reply.content.slice(0, caps.answerChars);
      reply.cut = { what: "answer", limit: caps.answerChars };
    } else if (reply.reasoning.length > caps.reasoningChars) {
      reply.reasoning = reply.reasoning.slice(0, caps.reasoningChars);
      reply.cut = { what: "reasoning", limit: caps.reasoningChars };
    } else if (toolCalls.some((c) => c.arguments.length + c.name.length > caps.argumentsChars)) {
      for (const c of toolCalls) c.arguments = c.arguments.slice(0, caps.argumentsChars);
      reply.cut = { what: "arguments", limit: caps.argumentsChars };
    }
    if (reply.cut) reply.finishReason = "length";
    return { ok: true, reply };
  }

  private async streamed(res: IncomingMessage, watch: RequestWatchdog, handlers: StreamHandlers): Promise<ModelOutcome> {
    const signal = watch.signal;
    let content = "";
    let reasoning = "";
    let finishReason: string | undefined;
    let usage: ModelReply["usage"];
    let chunks = 0;
    const calls = new ToolCallAssembler();
    const caps = { ...REPLY_CAPS, ...this.options.caps };
    const argChars = new Map<number | string, number>();
    let cut: ReplyCut | undefined;
    // Leaving the loop early (a cap) closes the response: the rest is never read.
    for await (const payload of sseData(res, signal)) {
      const chunk = parseJson(payload);
      if (!chunk) return fail(`the stream sent a chunk that is not JSON: ${payload.slice(0, 120)}`);
      if (chunk.error) return fail(`the endpoint sent an error mid-stream: ${errorMessage(payload)}`);
      chunks++;
      if (chunk.usage) usage = usageOf(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta ?? {};
      const think = reasoningOf(delta);
      if (think) {
        watch.activity();
        if (reasoning.length + think.length > caps.reasoningChars) {
          cut = { what: "reasoning", limit: caps.reasoningChars };
          break;
        }
        reasoning += think;
        handlers.onReasoning(think);
      }
      if (typeof delta.content === "string" && delta.content) {
        watch.activity();
        const room = caps.answerChars - content.length;
        if (delta.content.length > room) {
          content += delta.content.slice(0, Math.max(0, room));
          cut = { what: "answer", limit: caps.answerChars };
          break;
        }
        content += delta.content;
        handlers.onText(delta.content);
      }
      for (const tc of delta.tool_calls ?? []) {
        const added = (tc.function?.arguments?.length ?? 0) + (tc.function?.name?.length ?? 0);
        if (added > 0) watch.activity();
        const key = tc.index ?? tc.id ?? "last";
        const total = (argChars.get(key) ?? 0) + added;
        argChars.set(key, total);
        if (total > caps.argumentsChars) cut = { what: "arguments", limit: caps.argumentsChars };
        else calls.add(tc);
      }
      if (cut) break;
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    if (cut && !signal.aborted) return { ok: true, reply: { content, reasoning, toolCalls: calls.result(), finishReason: "length", usage, cut } };
    if (signal.aborted) return { ok: false, error: { status: undefined, message: "aborted", aborted: true, retryAfterMs: undefined } };
    if (chunks === 0) return fail("the stream ended without any data");
    // A dropped connection can end the body cleanly; a reply without finish_reason is incomplete.
    if (finishReason === undefined) return fail("the stream ended before the reply was complete (no finish_reason)");
    return { ok: true, reply: { content, reasoning, toolCalls: calls.result(), finishReason, usage } };
  }
}

// The model adapter: one chat-completions request (streamed or whole) through the official SDK.
// Contract: `complete` never throws; failures come back as values the retry loop can judge.
import type OpenAI from "openai";
import type { ChatMessage } from "../protocol/messages.js";
import type { OpenAITool } from "../tools/registry.js";
import type { ThinkingLevel } from "../config/schema.js";

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
  usage: { prompt: number; completion: number } | undefined;
}

export interface ModelFailure {
  /** HTTP status; absent for network errors, timeouts and malformed replies. */
  status: number | undefined;
  message: string;
  /** The request was aborted by a stop; nothing of it may be kept. */
  aborted: boolean;
  /** From a Retry-After header, when the server sent one. */
  retryAfterMs: number | undefined;
}

export type ModelOutcome = { ok: true; reply: ModelReply } | { ok: false; error: ModelFailure };

export interface StreamHandlers {
  onText(text: string): void;
  onReasoning(text: string): void;
}

export interface ModelClient {
  complete(request: ModelRequest, handlers: StreamHandlers): Promise<ModelOutcome>;
}

export interface ClientOptions {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  timeoutMs: number;
}

/** Messages as the endpoint wants them: reasoning kept for the transcript is not sent back. */
export function wireMessages(messages: ChatMessage[]): ChatMessage[] {
  return messages.map((m) => {
    if (m.role !== "assistant" || m.reasoning_content === undefined) return m;
    const { reasoning_content: _dropped, ...rest } = m;
    return rest;
  });
}

function retryAfter(headers: unknown): number | undefined {
  const get = (headers as { get?: (k: string) => string | null } | undefined)?.get;
  const raw = typeof get === "function" ? get.call(headers, "retry-after") : undefined;
  if (!raw) return undefined;
  const secs = Number(raw);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

function failure(error: unknown, signal: AbortSignal): ModelFailure {
  const e = error as { status?: unknown; message?: unknown; headers?: unknown; name?: unknown };
  const status = typeof e?.status === "number" ? e.status : undefined;
  const aborted = signal.aborted || e?.name === "APIUserAbortError" || e?.name === "AbortError";
  let message = typeof e?.message === "string" && e.message ? e.message : String(error);
  if (error instanceof SyntaxError) message = `the reply was not valid JSON (${message})`;
  message = message.split("\n")[0]!.slice(0, 500);
  return { status, message, aborted, retryAfterMs: retryAfter(e?.headers) };
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

export class OpenAIModelClient implements ModelClient {
  private sdk: Promise<OpenAI> | null = null;

  constructor(private readonly options: ClientOptions) {}

  /** The SDK is loaded on the first request, so start-up and `--help` do not pay for it. */
  private client(): Promise<OpenAI> {
    this.sdk ??= Promise.all([import("openai"), import("node:v8")]).then(
      ([{ default: OpenAISdk }, v8]) => {
        // fetch parses HTTP with a WebAssembly module; V8's background tier-up of it costs
        // ~120 ms of CPU and holds up process exit. The baseline compiler is plenty for it.
        v8.setFlagsFromString("--liftoff-only");
        return OpenAISdk;
      },
    ).then(
      (OpenAISdk) =>
        new OpenAISdk({
          apiKey: this.options.apiKey ?? "none",
          baseURL: this.options.baseUrl ?? null,
          maxRetries: 0,
          timeout: this.options.timeoutMs,
        }),
    );
    return this.sdk;
  }

  async complete(request: ModelRequest, handlers: StreamHandlers): Promise<ModelOutcome> {
    const body: Record<string, unknown> = {
      model: request.model,
      messages: wireMessages(request.messages),
    };
    if (request.tools.length > 0) body.tools = request.tools;
    if (request.thinking !== "off") body.reasoning_effort = request.thinking;
    try {
      const client = await this.client();
      if (!request.stream) return await this.whole(client, body, request.signal);
      return await this.streamed(client, body, request.signal, handlers);
    } catch (error) {
      return { ok: false, error: failure(error, request.signal) };
    }
  }

  private async whole(client: OpenAI, body: Record<string, unknown>, signal: AbortSignal): Promise<ModelOutcome> {
    const params = { ...body, stream: false } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;
    const res = await client.chat.completions.create(params, { signal });
    // A body that is not JSON comes back as a string rather than an error.
    const choice = typeof res === "object" && res !== null ? res.choices?.[0] : undefined;
    if (!choice) {
      const got = typeof res === "string" ? `: ${(res as string).slice(0, 120)}` : " (no choices)";
      return { ok: false, error: { status: undefined, message: `the reply was not a chat completion${got}`, aborted: false, retryAfterMs: undefined } };
    }
    const msg = choice.message as unknown as Record<string, unknown> & OpenAI.ChatCompletionMessage;
    const toolCalls = (msg.tool_calls ?? [])
      .filter((c): c is OpenAI.ChatCompletionMessageFunctionToolCall => c.type === "function")
      .map((c, i) => ({ id: c.id || `call_${i + 1}`, name: c.function.name, arguments: c.function.arguments ?? "" }));
    return {
      ok: true,
      reply: {
        content: typeof msg.content === "string" ? msg.content : "",
        reasoning: reasoningOf(msg),
        toolCalls,
        finishReason: choice.finish_reason ?? undefined,
        usage: res.usage ? { prompt: res.usage.prompt_tokens ?? 0, completion: res.usage.completion_tokens ?? 0 } : undefined,
      },
    };
  }

  private async streamed(client: OpenAI, body: Record<string, unknown>, signal: AbortSignal, handlers: StreamHandlers): Promise<ModelOutcome> {
    const params = { ...body, stream: true, stream_options: { include_usage: true } } as unknown as OpenAI.ChatCompletionCreateParamsStreaming;
    const stream = await client.chat.completions.create(params, { signal });
    let content = "";
    let reasoning = "";
    let finishReason: string | undefined;
    let usage: ModelReply["usage"];
    let chunks = 0;
    const calls = new ToolCallAssembler();
    for await (const chunk of stream) {
      chunks++;
      if (chunk.usage) usage = { prompt: chunk.usage.prompt_tokens ?? 0, completion: chunk.usage.completion_tokens ?? 0 };
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = (choice.delta ?? {}) as Record<string, unknown> & OpenAI.ChatCompletionChunk.Choice.Delta;
      const think = reasoningOf(delta);
      if (think) {
        reasoning += think;
        handlers.onReasoning(think);
      }
      if (typeof delta.content === "string" && delta.content) {
        content += delta.content;
        handlers.onText(delta.content);
      }
      for (const tc of delta.tool_calls ?? []) calls.add(tc);
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    // The SDK may end the iteration quietly when the request is aborted: that is a stop, not a reply.
    if (signal.aborted) return { ok: false, error: { status: undefined, message: "aborted", aborted: true, retryAfterMs: undefined } };
    if (chunks === 0) return { ok: false, error: { status: undefined, message: "the stream ended without any data", aborted: false, retryAfterMs: undefined } };
    if (finishReason === undefined) {
      // A dropped connection can end the body cleanly; a reply without finish_reason is incomplete.
      return { ok: false, error: { status: undefined, message: "the stream ended before the reply was complete (no finish_reason)", aborted: false, retryAfterMs: undefined } };
    }
    return { ok: true, reply: { content, reasoning, toolCalls: calls.result(), finishReason, usage } };
  }
}

// The chat-completions wire through the openai SDK: one request (streamed or whole), the
// `reasoning_content` / `reasoning` split, the reply caps and the watchdog.
// Contract: `complete` never throws; failures come back as values the retry loop can judge.
import type OpenAI from "openai";
import type { ChatMessage } from "../../protocol/messages.js";
import type {
  ClientOptions,
  ModelClient,
  ModelOutcome,
  ModelReply,
  ModelRequest,
  StreamHandlers,
} from "../model-client.js";
import { capWholeReply, REPLY_CAPS, type ReplyCut } from "../reply-caps.js";
import type { RequestWatchdog } from "../watchdog.js";
import { ToolCallAssembler } from "./tool-call-assembler.js";
import {
  abortedOutcome,
  connectionReturned,
  loadSdk,
  errorMessage,
  expiredOutcome,
  failure,
  failureOf,
  parseJsonObject,
  readWhole,
  sdkLoader,
  tailGuard,
  watchdogFor,
} from "./openai-sdk.js";

/**
 * Messages as a chat-completions endpoint wants them: reasoning kept for the transcript, and other
 * wires' reasoning items, are not sent back; nor is the steering mark of a user message.
 */
export function wireMessages(messages: ChatMessage[]): ChatMessage[] {
  return messages.map((m) => {
    if (m.role === "user" && m.steer !== undefined) {
      const { steer: _ours, ...rest } = m;
      return rest;
    }
    if (m.role !== "assistant" || (m.reasoning_content === undefined && m.reasoning_items === undefined)) return m;
    const { reasoning_content: _dropped, reasoning_items: _other, ...rest } = m;
    return rest;
  });
}

/** Text a provider may put in a delta under either name (DeepSeek/vLLM: reasoning_content; OpenRouter: reasoning). */
function reasoningOf(delta: object): string {
  const d = delta as { reasoning_content?: unknown; reasoning?: unknown };
  const r = d.reasoning_content ?? d.reasoning;
  return typeof r === "string" ? r : "";
}

interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

function usageOf(u: WireUsage | null | undefined): ModelReply["usage"] {
  if (!u) return undefined;
  const cached = u.prompt_tokens_details?.cached_tokens;
  const reasoning = u.completion_tokens_details?.reasoning_tokens;
  return {
    prompt: u.prompt_tokens ?? 0,
    completion: u.completion_tokens ?? 0,
    ...(cached ? { cachedPrompt: cached } : {}),
    ...(reasoning ? { reasoning } : {}),
  };
}

/** Any OpenAI-compatible chat-completions endpoint. */
export class OpenAIChatClient implements ModelClient {
  private readonly sdk: () => Promise<OpenAI>;

  constructor(private readonly options: ClientOptions) {
    this.sdk = sdkLoader(options);
  }

  async complete(request: ModelRequest, handlers: StreamHandlers): Promise<ModelOutcome> {
    const body: OpenAI.Chat.ChatCompletionCreateParams = {
      model: request.model,
      messages: wireMessages(request.messages) as OpenAI.Chat.ChatCompletionMessageParam[],
      stream: request.stream,
      ...(request.stream ? { stream_options: { include_usage: true } } : {}),
      ...(request.tools.length > 0 ? { tools: request.tools } : {}),
      ...(request.thinking !== "off" ? { reasoning_effort: request.thinking } : {}),
    };
    // Loading the SDK (the first request only) is not the model's time: the clock starts after it.
    const sdk = await loadSdk(this.sdk);
    if ("ok" in sdk) return sdk;
    const watch = watchdogFor(this.options, request.signal, handlers);
    try {
      const outcome = request.stream
        ? await this.streamed(sdk, { ...body, stream: true }, watch, handlers)
        : await this.whole(sdk, { ...body, stream: false }, watch);
      return expiredOutcome(watch, request.signal) ?? outcome;
    } catch (error) {
      return failureOf(error, watch, request.signal);
    } finally {
      watch.dispose();
    }
  }

  private async whole(
    sdk: OpenAI,
    body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
    watch: RequestWatchdog,
  ): Promise<ModelOutcome> {
    const response = await sdk.chat.completions.create(body, { signal: watch.signal }).asResponse();
    const text = await readWhole(response, watch);
    if (typeof text !== "string") return text;
    const data = parseJsonObject(text) as (OpenAI.Chat.ChatCompletion & { error?: unknown }) | null;
    if (!data) return failure(`the reply was not valid JSON: ${errorMessage(text).slice(0, 120)}`);
    if (data.error) return failure(`the endpoint sent an error: ${errorMessage(text)}`);
    const choice = data.choices?.[0];
    const msg = choice?.message;
    if (!choice || !msg) return failure("the reply was not a chat completion (no choices)");
    const toolCalls = (msg.tool_calls ?? []).flatMap((c, i) =>
      (c.type ?? "function") === "function" && "function" in c && c.function?.name
        ? [{ id: c.id || `call_${i + 1}`, name: c.function.name, arguments: c.function.arguments ?? "" }]
        : [],
    );
    const reply: ModelReply = {
      content: typeof msg.content === "string" ? msg.content : "",
      reasoning: reasoningOf(msg),
      toolCalls,
      finishReason: choice.finish_reason ?? undefined,
      usage: usageOf(data.usage),
    };
    return { ok: true, reply: capWholeReply(reply, { ...REPLY_CAPS, ...this.options.caps }) };
  }

  private async streamed(
    sdk: OpenAI,
    body: OpenAI.Chat.ChatCompletionCreateParamsStreaming,
    watch: RequestWatchdog,
    handlers: StreamHandlers,
  ): Promise<ModelOutcome> {
    const stream = await sdk.chat.completions.create(body, { signal: watch.signal });
    let content = "";
    let reasoning = "";
    let finishReason: string | undefined;
    let usage: ModelReply["usage"];
    let chunks = 0;
    const calls = new ToolCallAssembler();
    const caps = { ...REPLY_CAPS, ...this.options.caps };
    const argChars = new Map<number | string, number>();
    let cut: ReplyCut | undefined;
    // The SDK reads on past [DONE] to the end of the body, which leaves the keep-alive connection
    // for the next step; a server that never ends it is cut a second after the finish.
    const tail = tailGuard(() => stream.controller.abort());
    try {
      // Leaving the loop early (a cap) aborts the response: the rest is never read.
      for await (const chunk of stream) {
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
        if (choice.finish_reason) {
          finishReason = choice.finish_reason;
          tail.arm();
        }
      }
    } finally {
      tail.dispose();
    }
    await connectionReturned();
    const signal = watch.signal;
    if (cut && !signal.aborted)
      return { ok: true, reply: { content, reasoning, toolCalls: calls.result(), finishReason: "length", usage, cut } };
    // The SDK ends its iteration quietly on an abort: a watchdog limit or a stop, judged by the caller.
    if (signal.aborted) return abortedOutcome();
    if (chunks === 0) return failure("the stream ended without any data");
    // A dropped connection can end the body cleanly; a reply without finish_reason is incomplete.
    if (finishReason === undefined) return failure("the stream ended before the reply was complete (no finish_reason)");
    return { ok: true, reply: { content, reasoning, toolCalls: calls.result(), finishReason, usage } };
  }
}

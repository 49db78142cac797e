// A Responses API reply assembled into a ModelReply: stream events one by one (text, function-call
// arguments, reasoning summaries, finished output items, the final status and usage), or the
// output items of a whole response. Caps are checked as pieces arrive.
import type { ReasoningItem } from "../../protocol/messages.js";
import type { AssembledToolCall, ModelReply, StreamHandlers } from "../model-client.js";
import type { ReplyCaps, ReplyCut } from "../reply-caps.js";

/** The fields of a stream event or output item we read; the rest is ignored. */
export interface WireEvent {
  type: string;
  delta?: string;
  output_index?: number;
  item_id?: string;
  summary_index?: number;
  arguments?: string;
  message?: string;
  code?: string | null;
  item?: WireItem;
  response?: WireResponse;
}

export interface WireItem {
  type: string;
  id?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  encrypted_content?: string | null;
  summary?: { text: string }[];
  content?: { type: string; text?: string; refusal?: string }[];
}

export interface WireResponse {
  status?: string;
  output?: WireItem[];
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    input_tokens_details?: { cached_tokens?: number } | null;
    output_tokens_details?: { reasoning_tokens?: number } | null;
  } | null;
  incomplete_details?: { reason?: string } | null;
  error?: { code?: string; message?: string } | null;
}

/** What ends the reply: done (with the engine's finish reason), or failed with a message. */
export type Ending = { done: true; finishReason: string } | { done: false; failed: string };

/**
 * Contract: feed events with `event()` until it returns an Ending or a cut is set, then take
 * `reply()`. `onActivity` hears of every content, reasoning or argument piece.
 */
export class ResponsesAssembler {
  content = "";
  reasoning = "";
  cut: ReplyCut | undefined;
  ending: Ending | undefined;
  private usage: ModelReply["usage"];
  private readonly calls = new Map<number | string, AssembledToolCall>();
  private readonly items: ReasoningItem[] = [];

  constructor(
    private readonly caps: ReplyCaps,
    private readonly handlers: Pick<StreamHandlers, "onText" | "onReasoning">,
    private readonly onActivity: () => void,
  ) {}

  event(e: WireEvent): void {
    switch (e.type) {
      case "response.output_text.delta":
        return this.text(e.delta ?? "");
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        return this.think(e.delta ?? "");
      case "response.reasoning_summary_part.added":
        // Summary parts are paragraphs: keep them apart as the model wrote them.
        if ((e.summary_index ?? 0) > 0 && this.reasoning) this.think("\n\n");
        return;
      case "response.output_item.added":
        if (e.item?.type === "function_call") this.callAt(e.output_index ?? e.item.id ?? "", e.item);
        return;
      case "response.function_call_arguments.delta":
        return this.argumentPiece(e.output_index ?? e.item_id ?? "", e.delta ?? "");
      case "response.function_call_arguments.done":
        if (e.arguments !== undefined) this.setArguments(e.output_index ?? e.item_id ?? "", e.arguments);
        return;
      case "response.output_item.done":
        if (e.item) this.itemDone(e.output_index ?? e.item.id ?? "", e.item);
        return;
      case "response.completed":
      case "response.incomplete":
      case "response.failed":
        return this.finish(e.response ?? {});
      case "error":
        this.ending = {
          done: false,
          failed: `the endpoint sent an error mid-stream: ${e.message ?? e.code ?? "unknown error"}`,
        };
        return;
      default:
        // response.created, in_progress, content_part.*, *.done summaries: nothing new in them.
        return;
    }
  }

  /** A whole (non-streamed) response: its output items and status, without the deltas. */
  whole(response: WireResponse): void {
    for (const [i, item] of (response.output ?? []).entries()) {
      if (item.type === "message")
        for (const part of item.content ?? []) if (part.type === "output_text") this.content += part.text ?? "";
      if (item.type === "reasoning") this.reasoning += (item.summary ?? []).map((s) => s.text).join("\n\n");
      if (item.type === "function_call")
        this.calls.set(i, { id: item.call_id ?? "", name: item.name ?? "", arguments: item.arguments ?? "" });
      this.itemDone(i, item);
    }
    this.finish(response);
  }

  reply(): ModelReply {
    const toolCalls = [...this.calls.values()].map((c, i) => ({ ...c, id: c.id || `call_${i + 1}` }));
    const finishReason = this.cut ? "length" : this.ending?.done ? this.ending.finishReason : undefined;
    return {
      content: this.content,
      reasoning: this.reasoning,
      toolCalls,
      finishReason,
      usage: this.usage,
      ...(this.items.length ? { reasoningItems: this.items } : {}),
      ...(this.cut ? { cut: this.cut } : {}),
    };
  }

  private text(delta: string): void {
    if (!delta) return;
    this.onActivity();
    const room = this.caps.answerChars - this.content.length;
    if (delta.length > room) {
      this.content += delta.slice(0, Math.max(0, room));
      this.cut = { what: "answer", limit: this.caps.answerChars };
      return;
    }
    this.content += delta;
    this.handlers.onText(delta);
  }

  private think(delta: string): void {
    if (!delta) return;
    this.onActivity();
    if (this.reasoning.length + delta.length > this.caps.reasoningChars) {
      this.cut = { what: "reasoning", limit: this.caps.reasoningChars };
      return;
    }
    this.reasoning += delta;
    this.handlers.onReasoning(delta);
  }

  private callAt(key: number | string, item: WireItem): AssembledToolCall {
    let call = this.calls.get(key);
    if (!call) {
      call = { id: item.call_id ?? "", name: item.name ?? "", arguments: item.arguments ?? "" };
      this.calls.set(key, call);
      if (call.name) this.onActivity();
    }
    return call;
  }

  private argumentPiece(key: number | string, delta: string): void {
    const call = this.callAt(key, { type: "function_call" });
    if (!delta) return;
    this.onActivity();
    if (call.arguments.length + call.name.length + delta.length > this.caps.argumentsChars) {
      this.cut = { what: "arguments", limit: this.caps.argumentsChars };
      return;
    }
    call.arguments += delta;
  }

  private setArguments(key: number | string, args: string): void {
    const call = this.callAt(key, { type: "function_call" });
    if (args.length + call.name.length > this.caps.argumentsChars)
      this.cut = { what: "arguments", limit: this.caps.argumentsChars };
    else call.arguments = args;
  }

  private itemDone(key: number | string, item: WireItem): void {
    if (item.type === "function_call") {
      // The finished item is authoritative: a provider that sent no deltas still gives its call.
      const call = this.callAt(key, item);
      if (item.call_id) call.id = item.call_id;
      if (item.name) call.name = item.name;
      if (item.arguments !== undefined) this.setArguments(key, item.arguments);
    } else if (item.type === "reasoning" && item.id && item.encrypted_content) {
      const summary = (item.summary ?? []).map((s) => s.text);
      this.items.push({
        type: "openai.reasoning",
        id: item.id,
        encrypted_content: item.encrypted_content,
        ...(summary.length ? { summary } : {}),
      });
    } else if (item.type === "message" && this.content === "") {
      // No text deltas came (some compatible servers): the finished message carries the answer.
      for (const part of item.content ?? []) if (part.type === "output_text" && part.text) this.text(part.text);
    }
  }

  private finish(response: WireResponse): void {
    const u = response.usage;
    if (u) {
      const cached = u.input_tokens_details?.cached_tokens;
      const reasoning = u.output_tokens_details?.reasoning_tokens;
      this.usage = {
        prompt: u.input_tokens ?? 0,
        completion: u.output_tokens ?? 0,
        ...(cached ? { cachedPrompt: cached } : {}),
        ...(reasoning ? { reasoning } : {}),
      };
    }
    if (response.status === "failed") {
      this.ending = {
        done: false,
        failed: `the model failed: ${response.error?.message ?? response.error?.code ?? "no reason given"}`,
      };
    } else if (response.status === "incomplete") {
      const reason = response.incomplete_details?.reason;
      this.ending = { done: true, finishReason: reason === "content_filter" ? "content_filter" : "length" };
    } else {
      this.ending = { done: true, finishReason: this.calls.size > 0 ? "tool_calls" : "stop" };
    }
  }
}

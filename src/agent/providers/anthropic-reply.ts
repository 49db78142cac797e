// One Anthropic Messages reply assembled into a ModelReply: streamed events (text, tool_use with
// input_json_delta, signed thinking, redacted thinking) or a whole message, under the reply caps.
// Pure: only SDK types are imported.
import type {
  ContentBlock,
  Message,
  MessageDeltaUsage,
  RawMessageStreamEvent,
  Usage,
} from "@anthropic-ai/sdk/resources/messages";
import type { ReasoningItem } from "../../protocol/messages.js";
import type { AssembledToolCall, ModelReply, ReplyUsage, StreamHandlers } from "../model-client.js";
import type { ReplyCaps, ReplyCut } from "../reply-caps.js";

/**
 * Anthropic's stop reasons as the engine's finish reasons. `refusal` is OpenAI's `content_filter`;
 * `pause_turn` only comes from server-side tools, which NanoHermes never sends, so a paused turn
 * ends as it stands ("stop"); a full context window is an output limit like `max_tokens`.
 */
export function finishReason(stop: string | null | undefined): string {
  switch (stop) {
    case "end_turn":
    case "stop_sequence":
    case "pause_turn":
    case null:
    case undefined:
      return "stop";
    case "tool_use":
      return "tool_calls";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "refusal":
      return "content_filter";
    default:
      return stop;
  }
}

type Block =
  | { kind: "text" }
  | { kind: "thinking"; thinking: string; signature: string }
  | { kind: "redacted"; data: string }
  | { kind: "tool"; call: AssembledToolCall }
  | { kind: "other" };

/** The usage of message_start (Usage) or message_delta (MessageDeltaUsage): null means "unchanged". */
interface AnyUsage {
  input_tokens?: Usage["input_tokens"] | MessageDeltaUsage["input_tokens"];
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens?: number | null;
  output_tokens_details?: MessageDeltaUsage["output_tokens_details"];
}

/**
 * Contract: feed `event()` every stream event in order (or `whole()` one message); it returns a
 * cut when a cap passed, after which the caller stops reading. `complete` says message_stop came.
 * `activity` is called for every content, thinking or tool-input byte (the watchdog's idle clock).
 */
export class AnthropicReplyBuilder {
  content = "";
  reasoning = "";
  complete = false;
  private stop: string | null | undefined;
  private readonly blocks = new Map<number, Block>();
  private readonly order: Block[] = [];
  private usage:
    | { input: number; cacheRead: number; cacheWrite: number; output: number; thinking?: number }
    | undefined;

  constructor(
    private readonly handlers: StreamHandlers,
    private readonly caps: ReplyCaps,
    private readonly activity: () => void,
  ) {}

  event(e: RawMessageStreamEvent): ReplyCut | null {
    switch (e.type) {
      case "message_start":
        this.addUsage(e.message.usage);
        return null;
      case "content_block_start":
        return this.start(e.index, e.content_block);
      case "content_block_delta":
        return this.delta(e.index, e.delta);
      case "content_block_stop":
        return null;
      case "message_delta":
        this.stop = e.delta.stop_reason;
        this.addUsage(e.usage);
        return null;
      case "message_stop":
        this.complete = true;
        return null;
      default:
        // Events added to the API later are skipped, as the SDK's own accumulator does.
        return null;
    }
  }

  /** A non-streamed reply: its blocks in order, then its stop reason and usage. */
  whole(message: Message): ReplyCut | null {
    this.addUsage(message.usage);
    for (const [index, block] of message.content.entries()) {
      const cut = this.start(index, block);
      if (cut) return cut;
      if (block.type === "text") {
        const textCut = this.delta(index, { type: "text_delta", text: block.text });
        if (textCut) return textCut;
      }
      if (block.type === "thinking") {
        const thinkCut = this.delta(index, { type: "thinking_delta", thinking: block.thinking });
        if (thinkCut) return thinkCut;
      }
      if (block.type === "tool_use") {
        const call = this.blocks.get(index);
        if (call?.kind === "tool") call.call.arguments = JSON.stringify(block.input ?? {});
        if (call?.kind === "tool" && call.call.arguments.length + call.call.name.length > this.caps.argumentsChars)
          return { what: "arguments", limit: this.caps.argumentsChars };
      }
    }
    this.stop = message.stop_reason;
    this.complete = true;
    return null;
  }

  reply(cut?: ReplyCut): ModelReply {
    const toolCalls = this.order.flatMap((b) =>
      b.kind === "tool" ? [{ ...b.call, arguments: b.call.arguments || "{}" }] : [],
    );
    // Only whole, signed thinking can be sent back (the signature arrives last): the API checks it.
    const items: ReasoningItem[] = this.order.flatMap((b): ReasoningItem[] => {
      if (b.kind === "thinking" && b.signature)
        return [{ type: "anthropic.thinking", thinking: b.thinking, signature: b.signature }];
      if (b.kind === "redacted") return [{ type: "anthropic.redacted_thinking", data: b.data }];
      return [];
    });
    const reply: ModelReply = {
      content: this.content,
      reasoning: this.reasoning,
      toolCalls,
      finishReason: cut ? "length" : finishReason(this.stop),
      usage: this.replyUsage(),
    };
    // A cut reply keeps its whole signed blocks too: its calls get error results and the loop goes
    // on, and with thinking on the API wants the last assistant step to start with its thinking.
    if (items.length > 0) reply.reasoningItems = items;
    if (cut) reply.cut = cut;
    return reply;
  }

  private start(index: number, block: ContentBlock): ReplyCut | null {
    let state: Block;
    switch (block.type) {
      case "text":
        state = { kind: "text" };
        break;
      case "thinking":
        // A whole message carries the signature on the block; a stream sends it as a delta.
        state = { kind: "thinking", thinking: "", signature: block.signature ?? "" };
        break;
      case "redacted_thinking":
        state = { kind: "redacted", data: block.data };
        break;
      case "tool_use":
        this.activity();
        state = { kind: "tool", call: { id: block.id, name: block.name, arguments: "" } };
        break;
      default:
        state = { kind: "other" };
    }
    this.blocks.set(index, state);
    this.order.push(state);
    return null;
  }

  private delta(
    index: number,
    delta: Extract<RawMessageStreamEvent, { type: "content_block_delta" }>["delta"],
  ): ReplyCut | null {
    const block = this.blocks.get(index);
    switch (delta.type) {
      case "text_delta": {
        if (!delta.text) return null;
        this.activity();
        const room = this.caps.answerChars - this.content.length;
        if (delta.text.length > room) {
          this.content += delta.text.slice(0, Math.max(0, room));
          return { what: "answer", limit: this.caps.answerChars };
        }
        this.content += delta.text;
        this.handlers.onText(delta.text);
        return null;
      }
      case "thinking_delta": {
        if (!delta.thinking) return null;
        this.activity();
        if (this.reasoning.length + delta.thinking.length > this.caps.reasoningChars)
          return { what: "reasoning", limit: this.caps.reasoningChars };
        this.reasoning += delta.thinking;
        if (block?.kind === "thinking") block.thinking += delta.thinking;
        this.handlers.onReasoning(delta.thinking);
        return null;
      }
      case "signature_delta":
        if (block?.kind === "thinking") block.signature += delta.signature;
        return null;
      case "input_json_delta": {
        if (block?.kind !== "tool" || !delta.partial_json) return null;
        this.activity();
        block.call.arguments += delta.partial_json;
        return block.call.arguments.length + block.call.name.length > this.caps.argumentsChars
          ? { what: "arguments", limit: this.caps.argumentsChars }
          : null;
      }
      default:
        // citations_delta and later kinds carry nothing the engine keeps.
        return null;
    }
  }

  private addUsage(u: AnyUsage | null | undefined): void {
    if (!u) return;
    const prev = this.usage ?? { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
    // message_delta repeats the totals so far (output tokens are cumulative); null means "unchanged".
    this.usage = {
      input: u.input_tokens ?? prev.input,
      cacheRead: u.cache_read_input_tokens ?? prev.cacheRead,
      cacheWrite: u.cache_creation_input_tokens ?? prev.cacheWrite,
      output: u.output_tokens ?? prev.output,
      ...(u.output_tokens_details?.thinking_tokens !== undefined
        ? { thinking: u.output_tokens_details.thinking_tokens }
        : prev.thinking !== undefined
          ? { thinking: prev.thinking }
          : {}),
    };
  }

  /** Anthropic counts cached input apart from `input_tokens`; the engine's prompt is all of it. */
  private replyUsage(): ReplyUsage | undefined {
    const u = this.usage;
    if (!u) return undefined;
    const usage: ReplyUsage = { prompt: u.input + u.cacheRead + u.cacheWrite, completion: u.output };
    if (u.cacheRead > 0) usage.cachedPrompt = u.cacheRead;
    if (u.cacheWrite > 0) usage.cacheWrite = u.cacheWrite;
    if (u.thinking !== undefined) usage.reasoning = u.thinking;
    return usage;
  }
}

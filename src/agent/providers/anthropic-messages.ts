// Our chat history as an Anthropic Messages request: system blocks, alternating user/assistant
// turns with tool_use / tool_result blocks, signed thinking sent back, and prompt-cache breakpoints.
// Pure: only SDK types are imported, so this never loads the SDK.
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import type { ChatMessage, ContentPart, ReasoningItem } from "../../protocol/messages.js";
import type { OpenAITool } from "../../tools/registry.js";

export interface AnthropicPayload {
  system: TextBlockParam[];
  messages: MessageParam[];
  tools: Tool[];
}

/** Anthropic allows at most four cache breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * The text of an assistant's first turn when history starts with the assistant (a compacted tail
 * can): the Messages API wants the first message to be the user's.
 */
export const CONTINUE_NOTE = "(earlier conversation summarised above)";

const EPHEMERAL = { type: "ephemeral" } as const;

/**
 * Contract: the result alternates user/assistant (consecutive same-role messages merged), starts
 * with a user turn, holds no empty or whitespace-only text block, and carries at most four
 * `cache_control` breakpoints: the last system block, the last tool, the last two user turns.
 */
export function toAnthropic(history: ChatMessage[], tools: OpenAITool[]): AnthropicPayload {
  const system: TextBlockParam[] = [];
  const messages: MessageParam[] = [];
  for (const m of history) {
    if (m.role === "system") {
      if (m.content.trim()) system.push({ type: "text", text: m.content });
      continue;
    }
    const role = m.role === "assistant" ? "assistant" : "user";
    const blocks =
      m.role === "assistant"
        ? assistantBlocks(m)
        : m.role === "tool"
          ? [toolResult(m.tool_call_id, m.content)]
          : userBlocks(m.content);
    if (blocks.length === 0) continue;
    const last = messages[messages.length - 1];
    if (last && last.role === role) (last.content as ContentBlockParam[]).push(...blocks);
    else messages.push({ role, content: blocks });
  }
  for (const m of messages) if (m.role === "user") m.content = resultsFirst(m.content as ContentBlockParam[]);
  if (messages[0]?.role === "assistant")
    messages.unshift({ role: "user", content: [{ type: "text", text: CONTINUE_NOTE }] });
  const wireTools: Tool[] = tools.map((t) => ({
    name: t.function.name,
    description: t.function.description,
    input_schema: t.function.parameters as Tool["input_schema"],
  }));
  markCache(system, wireTools, messages);
  return { system, messages, tools: wireTools };
}

function assistantBlocks(m: Extract<ChatMessage, { role: "assistant" }>): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  // Signed thinking goes back first and unchanged: the API checks the signature of each block.
  for (const item of m.reasoning_items ?? []) {
    const block = thinkingBlock(item);
    if (block) blocks.push(block);
  }
  if (m.content?.trim()) blocks.push({ type: "text", text: m.content });
  for (const call of m.tool_calls ?? []) {
    blocks.push({
      type: "tool_use",
      id: wireId(call.id),
      name: call.function.name,
      input: toolInput(call.function.arguments),
    });
  }
  return blocks;
}

function thinkingBlock(item: ReasoningItem): ContentBlockParam | null {
  switch (item.type) {
    case "anthropic.thinking":
      return { type: "thinking", thinking: item.thinking, signature: item.signature };
    case "anthropic.redacted_thinking":
      return { type: "redacted_thinking", data: item.data };
    case "openai.reasoning":
      // Another provider's state means nothing here.
      return null;
    default:
      return item satisfies never;
  }
}

/**
 * A call's input as the API wants it: a JSON object. Arguments that are not one (invalid JSON the
 * model sent, or stored arguments cut at their cap) go back as `{}`: the call's tool result already
 * told the model what was wrong, and an invented key would read as an argument it chose.
 */
export function toolInput(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * A call id as the API accepts it (^[a-zA-Z0-9_-]+$): a session begun on another wire may hold ids
 * with other characters. The same mapping on both sides keeps each call paired with its result.
 */
export function wireId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_") || "call";
}

function toolResult(id: string, content: string): ToolResultBlockParam {
  // An empty text block is refused; an empty result is said in words.
  return { type: "tool_result", tool_use_id: wireId(id), content: content.trim() ? content : "(no output)" };
}

function userBlocks(content: string | ContentPart[]): ContentBlockParam[] {
  if (typeof content === "string") return content.trim() ? [{ type: "text", text: content }] : [];
  const blocks: ContentBlockParam[] = [];
  for (const part of content) {
    if (part.type === "text") {
      if (part.text.trim()) blocks.push({ type: "text", text: part.text });
    } else {
      blocks.push(imageBlock(part.image_url.url));
    }
  }
  return blocks;
}

const DATA_URL = /^data:(image\/[a-z0-9.+-]+);base64,(.*)$/is;

/** A data: URL becomes a base64 source; any other URL is fetched by the API itself. */
export function imageBlock(url: string): ImageBlockParam {
  const m = DATA_URL.exec(url);
  if (m) {
    const mediaType = m[1]!.toLowerCase() as Extract<ImageBlockParam["source"], { type: "base64" }>["media_type"];
    return { type: "image", source: { type: "base64", media_type: mediaType, data: m[2]! } };
  }
  return { type: "image", source: { type: "url", url } };
}

/** The API wants a user turn's tool results before anything else in it. */
function resultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  const results = blocks.filter((b) => b.type === "tool_result");
  return results.length === 0 || results.length === blocks.length
    ? blocks
    : [...results, ...blocks.filter((b) => b.type !== "tool_result")];
}

/**
 * Breakpoints where the prefix stops changing: the system prompt and the tools change rarely, and
 * the last two user turns make this request's prefix a cache read for the next one (the one before
 * them covers a step whose write did not land yet).
 */
function markCache(system: TextBlockParam[], tools: Tool[], messages: MessageParam[]): void {
  let left = MAX_CACHE_BREAKPOINTS;
  const lastSystem = system[system.length - 1];
  if (lastSystem) {
    lastSystem.cache_control = EPHEMERAL;
    left--;
  }
  const lastTool = tools[tools.length - 1];
  if (lastTool) {
    lastTool.cache_control = EPHEMERAL;
    left--;
  }
  let userMarks = Math.min(2, left);
  for (let i = messages.length - 1; i >= 0 && userMarks > 0; i--) {
    const m = messages[i]!;
    if (m.role !== "user") continue;
    const blocks = m.content as ContentBlockParam[];
    const block = blocks[blocks.length - 1];
    if (!block || !("type" in block) || block.type === "thinking" || block.type === "redacted_thinking") continue;
    (block as { cache_control?: typeof EPHEMERAL }).cache_control = EPHEMERAL;
    userMarks--;
  }
}

/**
 * True when the request continues a tool loop whose assistant step carries no signed thinking (a
 * reply cut inside its thinking, or one from a model or proxy that sent none). With thinking on,
 * the API refuses such a step ("a final assistant message must start with a thinking block"), so
 * that request goes without thinking; the next user turn starts a new assistant turn with it again.
 */
export function loopLacksThinking(history: ChatMessage[]): boolean {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role === "tool") continue;
    if (m.role !== "assistant" || !m.tool_calls?.length) return false;
    return !(m.reasoning_items ?? []).some(
      (r) => r.type === "anthropic.thinking" || r.type === "anthropic.redacted_thinking",
    );
  }
  return false;
}

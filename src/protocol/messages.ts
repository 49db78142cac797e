// The conversation as the model sees it: OpenAI chat messages, with one zod schema used to check
// session files when they are read back.
import * as z from "./zod.js";

const textPart = z.object({ type: z.literal("text"), text: z.string() });
const imagePart = z.object({
  type: z.literal("image_url"),
  image_url: z.object({ url: z.string(), detail: z.optional(z.enum(["auto", "low", "high"])) }),
});
export const ContentPartSchema = z.union([textPart, imagePart]);

export const ToolCallSchema = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

/**
 * Provider state an assistant step carries to the next request of the same provider: the Responses
 * API's encrypted reasoning items, Anthropic's signed thinking blocks. Opaque to everything but the
 * provider layer (src/agent/providers/), which sends them back unchanged; other wires drop them.
 */
export const ReasoningItemSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("openai.reasoning"),
    id: z.string(),
    encrypted_content: z.string(),
    summary: z.optional(z.array(z.string())),
  }),
  z.object({ type: z.literal("anthropic.thinking"), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal("anthropic.redacted_thinking"), data: z.string() }),
]);

export const ChatMessageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({
    role: z.literal("user"),
    content: z.union([z.string(), z.array(ContentPartSchema)]),
    /**
     * A steering message, delivered inside a running turn: part of that turn, not a turn of its own
     * (/undo, /rewind and checkpoint numbers count prompts only). Never sent to a provider.
     */
    steer: z.optional(z.literal(true)),
  }),
  z.object({
    role: z.literal("assistant"),
    content: z.nullable(z.string()),
    tool_calls: z.optional(z.array(ToolCallSchema)),
    /** Kept for the transcript; never sent back to the model. */
    reasoning_content: z.optional(z.string()),
    /** Sent back to the provider that made them (see ReasoningItemSchema). */
    reasoning_items: z.optional(z.array(ReasoningItemSchema)),
  }),
  z.object({ role: z.literal("tool"), tool_call_id: z.string(), content: z.string() }),
]);

export type ContentPart = z.infer<typeof ContentPartSchema>;
export type ReasoningItem = z.infer<typeof ReasoningItemSchema>;
export type ToolCallMessage = z.infer<typeof ToolCallSchema>;
export type ChatMessage = z.infer<typeof ChatMessageSchema>;
export type AssistantMessage = Extract<ChatMessage, { role: "assistant" }>;

/** The text of a message's content, images left out. */
export function contentText(content: string | ContentPart[] | null): string {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content
    .filter((p): p is z.infer<typeof textPart> => p.type === "text")
    .map((p) => p.text)
    .join("\n");
}

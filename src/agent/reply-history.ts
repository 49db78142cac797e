// One model reply written into the history: the assistant message (call ids made unique, stored
// arguments capped) and, for a reply cut at a cap, an error result for each call it held.
import type { ChatMessage } from "../protocol/messages.js";
import { capStoredArguments, uniqueCallIds } from "./history-caps.js";
import type { AssembledToolCall, ModelReply } from "./model-client.js";
import { describeCut } from "./reply-caps.js";

export interface RecordedReply {
  calls: AssembledToolCall[];
  /** The answer as kept: a cut one says so at its end. */
  content: string;
  /** Why the reply was cut, in words; null when it came whole. */
  cut: string | null;
  /** For a cut reply: the error result each call got instead of running (its arguments are incomplete). */
  refused: { call: AssembledToolCall; forModel: string }[];
}

/**
 * Contract: appends the assistant message to `messages`, then, for a cut reply, one error result
 * per call, so the history stays valid. `freshId(i)` names a call the model gave no (or a repeated) id.
 */
export function recordReply(messages: ChatMessage[], reply: ModelReply, freshId: (i: number) => string): RecordedReply {
  // A model may repeat an id within one reply: each call gets its own, or one result would be orphaned.
  const calls = uniqueCallIds(reply.toolCalls, freshId);
  const cut = reply.cut ? describeCut(reply.cut) : null;
  const content = cut && reply.cut?.what === "answer" ? `${reply.content}\n\n[cut: ${cut}]` : reply.content;
  messages.push({
    role: "assistant",
    content: content === "" && calls.length > 0 ? null : content,
    // The call runs with all its arguments; the history keeps at most STORED_ARGUMENTS_CAP of them.
    ...(calls.length
      ? {
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: "function" as const,
            function: { name: c.name, arguments: capStoredArguments(c.arguments) },
          })),
        }
      : {}),
    ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
    ...(reply.reasoningItems?.length ? { reasoning_items: reply.reasoningItems } : {}),
  });
  const refused = cut
    ? calls.map((call) => ({
        call,
        forModel: `error: not run: ${cut}, so this call's arguments are incomplete. Send large content in several smaller calls (for example, write a file in parts).`,
      }))
    : [];
  for (const { call, forModel } of refused) messages.push({ role: "tool", tool_call_id: call.id, content: forModel });
  return { calls, content, cut, refused };
}

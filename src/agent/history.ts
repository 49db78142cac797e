// What of a running turn's history may be written down: only whole steps, so a session file is
// valid (every tool call answered) at whatever moment it is saved.
import type { ChatMessage } from "../protocol/messages.js";

/**
 * The history up to its last complete step: an assistant message whose tool calls are not all
 * answered yet (the step is still running) is left out with what follows it.
 */
export function completeSteps(messages: ChatMessage[]): ChatMessage[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant" || !m.tool_calls?.length) continue;
    const answered = new Set(messages.slice(i + 1).flatMap((r) => (r.role === "tool" ? [r.tool_call_id] : [])));
    return m.tool_calls.every((c) => answered.has(c.id)) ? messages.slice() : messages.slice(0, i);
  }
  return messages.slice();
}

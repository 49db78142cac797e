// Makes a loaded history one the endpoint accepts: every assistant tool call followed by its result,
// and no tool result without its call. A session saved mid-step by an older build, edited by hand or
// cut by a crash can break this pairing, and providers reject the whole request when it is broken.
import type { ChatMessage } from "../protocol/messages.js";

export const MISSING_RESULT =
  "[interrupted] no result was recorded for this call (the session ended before it finished)";

/**
 * Contract: rewrites `messages` in place; returns how many results were added (each with the text
 * `missing`) and how many orphan results were dropped. A valid history is left exactly as it was.
 */
export function repairToolPairs(messages: ChatMessage[], missing = MISSING_RESULT): { added: number; dropped: number } {
  let added = 0;
  let dropped = 0;
  const out: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "tool") {
      // Results are consumed right after their call below; one met here has no call.
      dropped++;
      continue;
    }
    out.push(m);
    if (m.role !== "assistant" || !m.tool_calls?.length) continue;
    const wanted = new Set(m.tool_calls.map((c) => c.id));
    const results = new Map<string, ChatMessage>();
    while (i + 1 < messages.length && messages[i + 1]!.role === "tool") {
      const r = messages[++i] as Extract<ChatMessage, { role: "tool" }>;
      if (wanted.has(r.tool_call_id) && !results.has(r.tool_call_id)) results.set(r.tool_call_id, r);
      else dropped++;
    }
    for (const call of m.tool_calls) {
      const r = results.get(call.id);
      if (r) out.push(r);
      else {
        out.push({ role: "tool", tool_call_id: call.id, content: missing });
        added++;
      }
    }
  }
  if (added > 0 || dropped > 0) messages.splice(0, messages.length, ...out);
  return { added, dropped };
}

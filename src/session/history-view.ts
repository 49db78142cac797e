// The typed history as a front end gets it (session.loaded): each tool call with its arguments and
// result filled in from the messages, where the file keeps them once.
import type { HistoryItem } from "../protocol/history.js";
import type { ChatMessage } from "../protocol/messages.js";
import { legacyHistory } from "./legacy-transcript.js";
import type { SessionData } from "./store.js";

/** A session's typed history; for a file read without loadSession (search), recovered if it has none. */
export function historyOf(data: SessionData): HistoryItem[] {
  return data.transcript ?? legacyHistory(data.archive ?? [], data.messages, data.compactions ?? []);
}

/** The first non-blank line of the session's newest prompt (cut at 300 characters); null when it has none. */
export function lastPromptOf(data: SessionData): string | null {
  const items = historyOf(data);
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]!;
    const line =
      it.type === "user"
        ? it.text
            .split("\n")
            .find((l) => l.trim() !== "")
            ?.trim()
        : undefined;
    if (line) return line.length > 300 ? `${line.slice(0, 299)}…` : line;
  }
  return null;
}

/**
 * Contract: pure; returns new items, `items` is not changed. A call whose messages are gone (the
 * oldest archive dropped to keep the file small) keeps no arguments and an empty result.
 */
export function historyForView(
  items: readonly HistoryItem[],
  archive: readonly ChatMessage[],
  messages: readonly ChatMessage[],
): HistoryItem[] {
  // Ids are unique within a reply, not always across a session: each id's calls pair up in order.
  const calls = new Map<string, { args: string | null; result: string }[]>();
  const results = new Map<string, string[]>();
  for (const m of [...archive, ...messages]) {
    if (m.role === "assistant")
      for (const c of m.tool_calls ?? [])
        calls.set(c.id, [...(calls.get(c.id) ?? []), { args: c.function.arguments, result: "" }]);
    else if (m.role === "tool") results.set(m.tool_call_id, [...(results.get(m.tool_call_id) ?? []), m.content]);
  }
  for (const [id, list] of calls) list.forEach((c, i) => (c.result = results.get(id)?.[i] ?? ""));
  return items.map((it) => {
    if (it.type !== "tool") return it;
    const call = calls.get(it.callId)?.shift();
    return { ...it, args: call?.args == null ? null : parseArgs(call.args), forModel: call?.result ?? "" };
  });
}

function parseArgs(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    // The card shows the raw text.
    return raw;
  }
}

// The typed history of a session file written before sessions recorded one (no `transcript`):
// recovered from the messages' text, the one place that still reads it for what it means. Newer
// files carry the facts themselves (src/protocol/history.ts); this reader only keeps old ones usable.
import type { HistoryItem } from "../protocol/history.js";
import { contentText, type ChatMessage } from "../protocol/messages.js";

/**
 * The text markers files of that format carry. Frozen here on purpose: they describe files already
 * written, whatever the engine writes next (a test checks they still match the engine's today).
 */
export const LEGACY_SUMMARY_PREFIX = "[Summary of earlier conversation]";
export const LEGACY_OMITTED_NOTE = "[Earlier conversation was omitted to keep the context small]";
export const LEGACY_MEMORY_START = "<memories>";
const INTERRUPTED = "[interrupted]";

type CompactionRecord = {
  at: string;
  folded: number;
  kept: number;
  summaryChars: number;
  failed: boolean;
  focus?: string | undefined;
};

/** The compaction item a summary (or omission) system message stands for; null for any other system message. */
function compactionOf(text: string, record: CompactionRecord | undefined): HistoryItem | null {
  const summary = text.startsWith(LEGACY_SUMMARY_PREFIX);
  if (!summary && !text.startsWith(LEGACY_OMITTED_NOTE)) return null;
  // A failed compaction after an earlier summary keeps that summary and appends the note.
  const failed = !summary || text.trimEnd().endsWith(LEGACY_OMITTED_NOTE);
  const body = summary ? text.slice(LEGACY_SUMMARY_PREFIX.length).replace(LEGACY_OMITTED_NOTE, "").trim() : "";
  return {
    type: "compaction",
    at: record?.at ?? null,
    folded: record?.folded ?? null,
    kept: record?.kept ?? null,
    summaryChars: record?.summaryChars ?? body.length,
    failed,
    beforeChars: null,
    afterChars: null,
    summary: text,
    ...(record?.focus ? { focus: record.focus } : {}),
  };
}

/**
 * Contract: pure, never throws. The history of `archive` then `messages` (the folded turns first,
 * as the user saw them before the summary): memory blocks become memory items, a summary message
 * the compaction item (with the session's newest compaction record when it has one), a result
 * starting with "[interrupted]" an aborted call. Kinds and summaries of calls are unknown (null, "").
 */
export function legacyHistory(
  archive: readonly ChatMessage[],
  messages: readonly ChatMessage[],
  compactions: readonly CompactionRecord[] = [],
): HistoryItem[] {
  const items: HistoryItem[] = [];
  const calls = new Map<string, number>();
  for (const m of [...archive, ...messages]) {
    if (m.role === "user") {
      const text = contentText(m.content);
      if (text.startsWith(LEGACY_MEMORY_START)) items.push({ type: "memory", ids: [] });
      else items.push(m.steer ? { type: "steer", text } : { type: "user", text });
    } else if (m.role === "system") {
      const marker = compactionOf(m.content, compactions[compactions.length - 1]);
      if (marker) items.push(marker);
      else if (/^\[\d+ older archived messages were dropped/.test(m.content))
        items.push({ type: "note", text: m.content });
    } else if (m.role === "assistant") {
      if (m.reasoning_content) items.push({ type: "reasoning", text: m.reasoning_content });
      if (m.content) items.push({ type: "assistant", text: m.content });
      for (const call of m.tool_calls ?? []) {
        calls.set(call.id, items.length);
        items.push({
          type: "tool",
          callId: call.id,
          name: call.function.name,
          kind: null,
          summary: "",
          status: "ok",
          display: "",
          durationMs: null,
        });
      }
    } else {
      const i = calls.get(m.tool_call_id);
      const item = i === undefined ? undefined : items[i];
      if (i !== undefined && item?.type === "tool") {
        const first = m.content.split("\n", 1)[0] ?? "";
        items[i] = {
          ...item,
          display: first.slice(0, 120),
          status: m.content.startsWith(INTERRUPTED) ? "aborted" : "ok",
        };
      }
    }
  }
  return items;
}

// The block each item of a session's typed history shows as, for a transcript rebuilt from a
// session (resume, undo, clear): the same blocks the live run showed for it.
import type { TurnEndReason } from "../../protocol/events.js";
import type { HistoryItem } from "../../protocol/history.js";
import type { Block } from "./transcript.js";

/** What a turn-end block says: "stopped", or the error. */
export const turnEndText = (reason: TurnEndReason, error: string | undefined) =>
  reason === "interrupted" ? "stopped" : (error ?? reason);

/** The block a history item shows as; null for items the live transcript shows none for either (memory). */
export function blockOf(it: HistoryItem, id: string): Block | null {
  switch (it.type) {
    case "user":
      return { kind: "user", id, text: it.text };
    case "steer":
      return { kind: "steer", id, text: it.text };
    case "assistant":
      return { kind: "assistant", id, text: it.text, done: true, ...(it.stopped ? { stopped: true } : {}) };
    case "reasoning":
      return { kind: "reasoning", id, text: it.text, done: true, expanded: false };
    case "tool":
      return {
        kind: "tool",
        id,
        callId: it.callId,
        name: it.name,
        toolKind: it.kind,
        summary: it.summary,
        args: it.args ?? null,
        status: it.status === "running" ? "aborted" : it.status,
        output: "",
        display: it.display,
        forModel: it.forModel ?? "",
        startedAt: 0,
        durationMs: it.durationMs,
        expanded: false,
      };
    case "compaction":
      return {
        kind: "compaction",
        id,
        folded: it.folded,
        summaryChars: it.summaryChars,
        failed: it.failed,
        beforeChars: it.beforeChars,
        afterChars: it.afterChars,
        summary: it.summary,
        ...(it.focus ? { focus: it.focus } : {}),
        ...(it.error ? { error: it.error } : {}),
      };
    case "turn-end":
      return it.reason === "completed"
        ? null
        : { kind: "turn-end", id, reason: it.reason, text: turnEndText(it.reason, it.error) };
    case "note":
      return { kind: "notice", id, level: "info", text: it.text };
    case "memory":
      return null;
    default:
      return it satisfies never;
  }
}

// The block each item of a session's typed history shows as, for a transcript rebuilt from a
// session (resume, undo, clear): the same blocks the live run showed for it.
import type { EventOf, TurnEndReason } from "../../protocol/events.js";
import type { HistoryItem } from "../../protocol/history.js";
import type { Block } from "./transcript.js";

/** What a turn-end block says: "stopped", or the error. */
export const turnEndText = (reason: TurnEndReason, error: string | undefined) =>
  reason === "interrupted" ? "stopped" : (error ?? reason);

/** The child's configured name from the `[agent-N name] ` the engine puts first in its question. */
function agentNameIn(title: string, agentId: string): { agentName?: string } {
  const name = title.startsWith(`[${agentId} `) ? title.slice(agentId.length + 2, title.indexOf("]")).trim() : "";
  return name ? { agentName: name } : {};
}

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
    case "approval":
      return {
        kind: "approval",
        id,
        requestId: it.requestId,
        tool: it.tool,
        toolKind: it.kind,
        title: it.title,
        detail: "",
        reason: "",
        rule: null,
        dangerous: it.dangerous ?? false,
        match: null,
        always: null,
        alwaysWorkspace: false,
        ...(it.agentId ? { agentId: it.agentId, ...agentNameIn(it.title, it.agentId) } : {}),
        // Never waiting again: whoever could have answered is gone.
        resolved: it.decision ?? "cancelled",
      };
    case "memory":
      return null;
    default:
      return it satisfies never;
  }
}

const pathOf = (args: unknown): string | null => {
  const p = (args as { path?: unknown } | null)?.path;
  return typeof p === "string" ? p : null;
};

type TodoItems = EventOf<"todo.updated">["items"];

/**
 * The results tabs a rebuilt transcript implies, as the live run filled them: files written (edit
 * tools that succeeded), files read (read_file), and the plan as the last todo_write left it.
 */
export function resultsOf(blocks: readonly Block[]): { changed: string[]; reads: string[]; todo: TodoItems | null } {
  const changed: string[] = [];
  const reads: string[] = [];
  let todo: TodoItems | null = null;
  for (const b of blocks) {
    if (b.kind !== "tool" || b.status !== "ok") continue;
    const path = pathOf(b.args);
    if (b.toolKind === "edit" && path && !changed.includes(path)) changed.push(path);
    if (b.name === "read_file" && path && !reads.includes(path)) reads.push(path);
    if (b.name === "todo_write") {
      const items = (b.args as { items?: unknown } | null)?.items;
      if (Array.isArray(items))
        todo = items.filter(
          (i): i is TodoItems[number] =>
            typeof i?.content === "string" && ["pending", "in_progress", "completed"].includes(i?.status),
        );
    }
  }
  return { changed, reads, todo };
}

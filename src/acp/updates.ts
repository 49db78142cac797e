// The bus, as an ACP client sees it: engine events of one session become `session/update`
// payloads (message and thought chunks, tool calls with kind, locations and edit diffs, the plan,
// usage, the mode), and a saved session's typed history replays as the same updates.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { SessionUpdate, ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import type { BusEvent, PermissionMode, ToolKind as OurKind } from "../protocol/events.js";
import type { HistoryItem } from "../protocol/history.js";

/** Tool results shown to the client are cut here (the model's own copy is capped at 20 KB already). */
const SHOWN_RESULT_CHARS = 20_000;
/** A file larger than this gets no "before" text in a write's diff. */
const DIFF_READ_CAP = 1024 * 1024;

const text = (t: string) => ({ type: "text" as const, text: t });
const cut = (t: string) => (t.length > SHOWN_RESULT_CHARS ? `${t.slice(0, SHOWN_RESULT_CHARS)}\n[… cut]` : t);
const str = (args: unknown, key: string): string | undefined => {
  const v = (args as Record<string, unknown> | null | undefined)?.[key];
  return typeof v === "string" ? v : undefined;
};

/** ACP's tool kinds say what a call does to the client (read, edit, search, execute, fetch, think). */
export function acpKind(name: string, kind: OurKind | null | undefined): ToolKind {
  if (name === "grep" || name === "glob" || name === "list_dir" || name === "session_search") return "search";
  if (name === "todo_write" || name === "todo_read") return "think";
  if (name === "git_commit" || name.startsWith("task_")) return "execute";
  switch (kind) {
    case "read":
      return "read";
    case "edit":
      return "edit";
    case "exec":
      return "execute";
    case "net":
      return "fetch";
    case "agent":
    case "mcp":
    case null:
    case undefined:
      return "other";
    default:
      return kind satisfies never;
  }
}

/** The files a call touches, absolute: `path` arguments, and the files an apply_patch names. */
export function locationsOf(name: string, args: unknown, workspace: string): ToolCallLocation[] {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(workspace, p));
  if (name === "apply_patch") {
    const patch = str(args, "patch") ?? "";
    const paths = new Set<string>();
    for (const m of patch.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$|^\+\+\+ (?:b\/)?(.+)$/gm)) {
      const p = (m[1] ?? m[2] ?? "").trim();
      if (p && p !== "/dev/null") paths.add(abs(p));
    }
    return [...paths].map((path) => ({ path }));
  }
  const path = str(args, "path");
  if (path === undefined) return [];
  const line = (args as Record<string, unknown>).offset;
  return [{ path: abs(path), ...(typeof line === "number" && line > 0 ? { line } : {}) }];
}

/** What a file holds now, for the "before" side of a write_file diff; null when absent or too large. */
function currentText(path: string): string | null {
  try {
    if (statSync(path).size > DIFF_READ_CAP) return null;
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/**
 * An edit's diff as ACP shows it: edit_file's old and new strings, or write_file's new content
 * against the file as it is before the write (read while tool.started is handled, before the tool runs).
 */
export function diffOf(name: string, args: unknown, workspace: string): ToolCallContent[] {
  const path = str(args, "path");
  if (path === undefined) return [];
  const abs = isAbsolute(path) ? path : resolve(workspace, path);
  if (name === "edit_file") {
    const oldText = str(args, "old_string");
    const newText = str(args, "new_string");
    return oldText !== undefined && newText !== undefined ? [{ type: "diff", path: abs, oldText, newText }] : [];
  }
  if (name === "write_file") {
    const content = str(args, "content");
    return content === undefined ? [] : [{ type: "diff", path: abs, oldText: currentText(abs), newText: content }];
  }
  return [];
}

/** One session's translation state: which calls the client knows of, their diffs, the mode and cost so far. */
export class UpdateTranslator {
  private readonly announced = new Set<string>();
  private readonly diffs = new Map<string, ToolCallContent[]>();
  private mode: PermissionMode;
  private cost = 0;
  private priced = true;

  constructor(
    private readonly opts: {
      workspace: string;
      mode: PermissionMode;
      /** The context window for usage_update when the event does not know it. */
      contextWindow: () => number;
      /** The client shows `notice` updates (it said so at initialize). */
      notices: boolean;
    },
  ) {
    this.mode = opts.mode;
  }

  /** A call the client must know before it is asked about it (approval comes before tool.started). */
  pending(callId: string, title: string, kind: ToolKind, detail: string): SessionUpdate | null {
    if (this.announced.has(callId)) return null;
    this.announced.add(callId);
    return {
      sessionUpdate: "tool_call",
      toolCallId: callId,
      title,
      kind,
      status: "pending",
      content: detail ? [{ type: "content", content: text(detail) }] : [],
    };
  }

  /** Contract: pure with respect to the bus; the updates to send for `event`, in order (often none). */
  translate(event: BusEvent): SessionUpdate[] {
    // Subagents' own streams stay inside their board; their questions still reach the client.
    if (event.agentId !== undefined) return [];
    switch (event.type) {
      case "assistant.delta":
        return event.text ? [{ sessionUpdate: "agent_message_chunk", content: text(event.text) }] : [];
      case "reasoning.delta":
        return event.text ? [{ sessionUpdate: "agent_thought_chunk", content: text(event.text) }] : [];
      case "tool.started":
        return [this.started(event.callId, event.name, event.kind, event.summary, event.args)];
      case "tool.completed":
        return this.completed(event);
      case "todo.updated":
        return [
          {
            sessionUpdate: "plan",
            entries: event.items.map((i) => ({ content: i.content, status: i.status, priority: "medium" as const })),
          },
        ];
      case "usage.updated": {
        if (event.costUsd !== undefined) this.cost += event.costUsd;
        if (event.costUsd === undefined || event.unpriced) this.priced = false;
        return [
          {
            sessionUpdate: "usage_update",
            used: event.prompt,
            size: event.contextWindow ?? this.opts.contextWindow(),
            ...(this.priced && this.cost > 0 ? { cost: { amount: this.cost, currency: "USD" } } : {}),
          },
        ];
      }
      case "task.updated":
        if (event.task.mode === this.mode) return [];
        this.mode = event.task.mode;
        return [{ sessionUpdate: "current_mode_update", currentModeId: event.task.mode }];
      case "notice":
        if (!this.opts.notices || event.level === "info") return [];
        return [{ sessionUpdate: "notice", severity: event.level === "warn" ? "warning" : "error", title: event.text }];
      default:
        return [];
    }
  }

  private started(callId: string, name: string, kind: OurKind, summary: string, args: unknown): SessionUpdate {
    const diff = diffOf(name, args, this.opts.workspace);
    if (diff.length > 0) this.diffs.set(callId, diff);
    const body = {
      toolCallId: callId,
      title: summary || name,
      kind: acpKind(name, kind),
      status: "in_progress" as const,
      locations: locationsOf(name, args, this.opts.workspace),
      rawInput: args,
      ...(diff.length > 0 ? { content: diff } : {}),
    };
    if (this.announced.has(callId)) return { sessionUpdate: "tool_call_update", ...body };
    this.announced.add(callId);
    return { sessionUpdate: "tool_call", ...body };
  }

  private completed(event: Extract<BusEvent, { type: "tool.completed" }>): SessionUpdate[] {
    const out: SessionUpdate[] = [];
    // A call refused before it started (blocked, denied, invalid) is shown too.
    if (!this.announced.has(event.callId)) {
      this.announced.add(event.callId);
      out.push({
        sessionUpdate: "tool_call",
        toolCallId: event.callId,
        title: event.summary || event.name,
        kind: acpKind(event.name, event.kind),
        status: "pending",
        locations: locationsOf(event.name, event.args, this.opts.workspace),
        ...(event.args !== undefined ? { rawInput: event.args } : {}),
      });
    }
    const diff = event.status === "ok" ? (this.diffs.get(event.callId) ?? []) : [];
    this.diffs.delete(event.callId);
    out.push({
      sessionUpdate: "tool_call_update",
      toolCallId: event.callId,
      status: event.status === "ok" ? "completed" : "failed",
      content: [...diff, { type: "content", content: text(cut(event.forModel)) }],
      rawOutput: { status: event.status, display: event.display },
    });
    return out;
  }
}

/** A saved session's history as the updates that would have shown it live (session/load's replay). */
export function replayUpdates(transcript: readonly HistoryItem[], workspace: string): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  for (const item of transcript) {
    switch (item.type) {
      case "user":
      case "steer":
        out.push({ sessionUpdate: "user_message_chunk", content: text(item.text) });
        break;
      case "assistant":
        if (item.text) out.push({ sessionUpdate: "agent_message_chunk", content: text(item.text) });
        break;
      case "reasoning":
        if (item.text) out.push({ sessionUpdate: "agent_thought_chunk", content: text(item.text) });
        break;
      case "tool":
        out.push({
          sessionUpdate: "tool_call",
          toolCallId: item.callId,
          title: item.summary || item.name,
          kind: acpKind(item.name, item.kind),
          status: item.status === "ok" ? "completed" : "failed",
          locations: locationsOf(item.name, item.args, workspace),
          ...(item.args !== undefined ? { rawInput: item.args } : {}),
          ...(item.forModel !== undefined ? { content: [{ type: "content", content: text(cut(item.forModel)) }] } : {}),
        });
        break;
      case "memory":
      case "compaction":
      case "turn-end":
      case "note":
      case "approval":
        break;
      default:
        item satisfies never;
    }
  }
  return out;
}

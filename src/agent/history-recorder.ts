// Records a session's typed history (src/protocol/history.ts) from the agent's own events, in the
// order they were emitted, so a resumed transcript shows what the live one showed: the registry's
// tool kinds and summaries, denied and interrupted calls, text streamed before a stop, compactions
// and memory blocks. The items carry facts the events carry; no message text is read back.
import type { BusEvent, TurnEndReason } from "../protocol/events.js";
import type { HistoryItem } from "../protocol/history.js";

type Segment = { kind: "assistant" | "reasoning"; text: string };

export class HistoryRecorder {
  /** What the open model request has streamed, in blocks as the transcript opened them. */
  private segments: Segment[] = [];

  /** `items` gives the session's list to append to (it may be replaced: /clear, the size bound). */
  constructor(
    private readonly items: () => HistoryItem[],
    private readonly agentId: string | undefined,
  ) {}

  /**
   * Contract: never throws; events of other agents (subagents) and those the history does not keep
   * are ignored, but for approvals: the task's own history (no `agentId`) keeps its subagents'
   * questions too, as its transcript showed them.
   */
  onEvent(event: BusEvent): void {
    const approval = event.type === "approval.requested" || event.type === "approval.resolved";
    if (event.agentId !== this.agentId && !(approval && this.agentId === undefined)) return;
    const items = this.items();
    switch (event.type) {
      case "approval.requested":
        items.push({
          type: "approval",
          requestId: event.requestId,
          callId: event.callId,
          tool: event.tool,
          kind: event.kind,
          title: event.title,
          ...(event.dangerous ? { dangerous: true } : {}),
          ...(event.agentId ? { agentId: event.agentId } : {}),
          decision: null,
        });
        return;
      case "approval.resolved": {
        const i = items.findLastIndex((it) => it.type === "approval" && it.requestId === event.requestId);
        const item = items[i];
        if (item?.type === "approval")
          items[i] = { ...item, decision: event.decision, ...(event.by ? { by: event.by } : {}) };
        return;
      }
      case "turn.started":
        this.segments = [];
        items.push({ type: "user", text: event.prompt });
        return;
      case "steer.delivered":
        items.push({ type: "steer", text: event.text });
        return;
      case "assistant.delta":
      case "reasoning.delta": {
        const kind = event.type === "assistant.delta" ? "assistant" : "reasoning";
        const last = this.segments[this.segments.length - 1];
        if (last?.kind === kind) last.text += event.text;
        else this.segments.push({ kind, text: event.text });
        return;
      }
      case "model.retrying":
      case "model.fallback":
        // The attempt's deltas are void (the transcript drops them too).
        this.segments = [];
        return;
      case "assistant.completed": {
        const streamedText = this.segments.some((s) => s.kind === "assistant");
        this.flush(items, false);
        // A whole (non-streamed) reply arrives only here.
        if (!streamedText && event.text) items.push({ type: "assistant", text: event.text });
        return;
      }
      case "tool.started":
        items.push({
          type: "tool",
          callId: event.callId,
          name: event.name,
          kind: event.kind,
          summary: event.summary,
          status: "running",
          display: "",
          durationMs: null,
        });
        return;
      case "tool.completed": {
        const done = { status: event.status, display: event.display, durationMs: event.durationMs };
        const i = items.findLastIndex(
          (it) => it.type === "tool" && it.callId === event.callId && it.status === "running",
        );
        const item = items[i];
        if (item?.type === "tool") items[i] = { ...item, ...done };
        // Rejected before it ran (unknown tool, invalid arguments, denied, a cut reply): an item all the same.
        else
          items.push({
            type: "tool",
            callId: event.callId,
            name: event.name,
            kind: event.kind ?? null,
            summary: event.summary ?? "",
            ...done,
          });
        return;
      }
      case "memory.retrieved":
        items.push({ type: "memory", ids: event.ids });
        return;
      case "context.compacted":
        items.push({
          type: "compaction",
          at: new Date().toISOString(),
          folded: event.folded,
          kept: event.kept,
          summaryChars: event.summaryChars,
          failed: event.failed,
          beforeChars: event.beforeChars,
          afterChars: event.afterChars,
          summary: event.summary,
          ...(event.focus ? { focus: event.focus } : {}),
          ...(event.error ? { error: event.error } : {}),
        });
        return;
      default:
        return;
    }
  }

  /**
   * The turn ended (called before its last save, so the file has it; turn.completed comes after).
   * Text streamed before a stop never reaches the messages; the history keeps what was shown.
   */
  endTurn(reason: TurnEndReason, error: string | undefined): void {
    const items = this.items();
    this.flush(items, reason === "interrupted");
    if (reason !== "completed") items.push({ type: "turn-end", reason, ...(error ? { error } : {}) });
  }

  private flush(items: HistoryItem[], stopped: boolean): void {
    for (const s of this.segments) {
      if (s.kind === "reasoning") items.push({ type: "reasoning", text: s.text });
      else items.push({ type: "assistant", text: s.text, ...(stopped ? { stopped: true } : {}) });
    }
    this.segments = [];
  }
}

/**
 * Drops the last `n` turns (undo, rewind), counted as the messages count them: each prompt starts
 * one; a steering message is part of its turn. Fewer left than `n` (older items trimmed): all go.
 */
export function dropLastHistoryTurns(items: HistoryItem[], n: number): void {
  if (n <= 0) return;
  const starts = items.flatMap((it, i) => (it.type === "user" ? [i] : []));
  items.splice(starts.length >= n ? starts[starts.length - n]! : 0);
}

/**
 * Calls a killed run left running were cut off: they read back as interrupted (as their results
 * do); a question it left unanswered, as cancelled (nobody can answer it any more).
 */
export function settleRunning(items: HistoryItem[]): void {
  items.forEach((it, i) => {
    if (it.type === "tool" && it.status === "running") items[i] = { ...it, status: "aborted", display: "interrupted" };
    if (it.type === "approval" && it.decision === null) items[i] = { ...it, decision: "cancelled" };
  });
}

// Compacting the conversation as the agent does it: announced before it starts (it costs a model
// call), folded with compaction.ts, recorded in the session (the folded messages go to its
// archive) and reported with context.compacted.
import type { AgentCore } from "./agent-core.js";
import { compact, contextChars, CONTEXT_CHAR_BUDGET, type CompactionResult } from "./compaction.js";
import { applyCompaction } from "./history-edit.js";
import { attemptEvents, newRequestId } from "./request-events.js";
import type { ChatMessage } from "../protocol/messages.js";

/** Tokens estimated from characters (about four to a token): compaction works in characters. */
const tokensOf = (chars: number) => Math.round(chars / 4);

/** The folded messages by role, and the tool calls among them. */
function droppedOf(folded: readonly ChatMessage[]) {
  const dropped = { user: 0, assistant: 0, tool: 0, system: 0, toolCalls: 0 };
  for (const m of folded) {
    dropped[m.role]++;
    if (m.role === "assistant") dropped.toolCalls += m.tool_calls?.length ?? 0;
  }
  return dropped;
}

export interface CompactOptions {
  turnId?: string;
  /** What the summary should keep above all (`/compact FOCUS`). */
  focus?: string;
  /** Asked for (`/compact`), not over the budget. */
  forced?: boolean;
}

/**
 * Folds older messages into a summary at index 1. Contract: never throws; a stop during the
 * summary call ("stopped") leaves the history untouched.
 */
export async function compactHistory(
  core: AgentCore,
  opts: CompactOptions = {},
): Promise<"done" | "nothing" | "stopped"> {
  const messages = core.messages();
  const before = contextChars(messages);
  const budget = core.opts.contextBudget ?? CONTEXT_CHAR_BUDGET;
  core.emit({
    type: "notice",
    level: "info",
    text: opts.forced
      ? "compacting the conversation…"
      : `the conversation is over its budget (${before.toLocaleString("en-US")} > ${budget.toLocaleString("en-US")} characters): folding older messages into a summary…`,
  });
  core.emit({
    type: "context.compacting",
    forced: opts.forced === true,
    beforeChars: before,
    tokensBefore: tokensOf(before),
    budgetChars: budget,
  });
  const abort = core.control.request();
  const s = core.opts.settings;
  let result: CompactionResult | null;
  try {
    result = await compact(messages, {
      client: core.opts.client,
      model: core.model(),
      signal: abort.signal,
      ...(opts.focus ? { focus: opts.focus } : {}),
      retry: {
        maxRetries: s.maxRetries,
        baseMs: s.retryBaseMs,
        fallbackModel: s.fallbackModel,
        ...(core.opts.fallbacks ? { fallbacks: core.opts.fallbacks } : {}),
        onAttempt: attemptEvents((body) => core.emit(body), {
          requestId: newRequestId(),
          api: s.api,
          purpose: "compaction",
        }),
      },
    });
  } catch {
    return "stopped";
  } finally {
    core.control.release(abort);
  }
  if (!result) {
    core.emit({ type: "notice", level: "info", text: "nothing to compact yet" });
    return "nothing";
  }
  applyCompaction(messages, core.opts.session, result, opts.focus);
  const after = contextChars(messages);
  core.emit({
    type: "context.compacted",
    folded: result.foldedCount,
    kept: result.kept,
    summaryChars: result.summaryChars,
    failed: result.failed,
    beforeChars: before,
    afterChars: after,
    tokensBefore: tokensOf(before),
    tokensAfter: tokensOf(after),
    dropped: droppedOf(result.folded),
    summary: result.summary,
    ...(opts.focus ? { focus: opts.focus } : {}),
    ...(result.error ? { error: result.error } : {}),
  });
  return "done";
}

// One step of a turn: a model round trip (retries and fallbacks in retry.ts) and, when the reply
// asks for tools, their execution, at most TOOL_CONCURRENCY at once, results in call order.
import type { AgentCore } from "./agent-core.js";
import { mapLimit } from "./map-limit.js";
import { addUsage, usageEvent, type UsageTotals } from "./providers/usage.js";
import { recordReply } from "./reply-history.js";
import { attemptEvents, newRequestId } from "./request-events.js";
import { completeWithRetry, describeFailure } from "./retry.js";

/**
 * Tool calls of one step that run at once; the rest wait their turn (a model asking for 300
 * commands at once must not start 300 processes). Claude Code's default is 10 as well.
 */
export const TOOL_CONCURRENCY = 10;

export type StepOutcome =
  | { kind: "final" | "tools"; text: string; finishReason?: string | undefined }
  | { kind: "stopped" }
  | { kind: "failed"; error: string };

/** Contract: a failed request is an outcome ("failed", or "stopped" after a stop), never a throw. */
export async function runStep(core: AgentCore, turnId: string, step: number, usage: UsageTotals): Promise<StepOutcome> {
  const settings = core.opts.settings;
  const messages = core.messages();
  core.emit({ type: "step.started", turnId, step, model: core.model() });
  const requestId = newRequestId();
  const requestAbort = core.control.request();
  const { outcome, model } = await completeWithRetry(
    core.opts.client,
    {
      model: core.model(),
      messages,
      tools: core.opts.tools.specs(),
      stream: settings.stream,
      thinking: settings.thinking,
      signal: requestAbort.signal,
    },
    {
      maxRetries: settings.maxRetries,
      baseMs: settings.retryBaseMs,
      fallbackModel: settings.fallbackModel,
      ...(core.opts.fallbacks ? { fallbacks: core.opts.fallbacks } : {}),
      provider: settings.provider,
      onAttempt: attemptEvents((body) => core.emit(body), { requestId, api: settings.api, purpose: "step" }),
      onRetry: ({ attempt, delayMs, error, model: m }) =>
        core.emit({
          type: "model.retrying",
          requestId,
          attempt,
          attempts: settings.maxRetries + 1,
          delayMs,
          error: describeFailure(error),
          model: m,
          ...(error.status !== undefined ? { status: error.status } : {}),
        }),
      onFallback: ({ error, ...route }) =>
        core.emit({ type: "model.fallback", ...route, error: describeFailure(error) }),
    },
    {
      onText: (text) => core.emit({ type: "assistant.delta", text }),
      onReasoning: (text) => core.emit({ type: "reasoning.delta", text }),
      onWaiting: (info) => core.emit({ type: "model.waiting", model: core.model(), ...info }),
    },
  );
  core.control.release(requestAbort);
  if (!outcome.ok) {
    if (outcome.error.aborted || core.control.stopRequested) return { kind: "stopped" };
    return { kind: "failed", error: `model request failed: ${describeFailure(outcome.error)}` };
  }
  const reply = outcome.reply;
  if (reply.usage) {
    const priced = usageEvent(reply.usage, model, settings.models);
    addUsage(usage, priced);
    core.emit({ type: "usage.updated", ...priced });
  }
  const { calls, content, cut, refused } = recordReply(messages, reply, (i) => `call_${turnId}_${step}_${i}`);
  core.emit({
    type: "assistant.completed",
    text: content,
    toolCalls: calls.length,
    ...(reply.finishReason ? { finishReason: reply.finishReason } : {}),
    requestId,
  });
  if (cut) {
    // A cut reply's calls are incomplete: none ran, each got an error the model can act on.
    for (const { call, forModel } of refused)
      core.emit({
        type: "tool.completed",
        callId: call.id,
        name: call.name,
        status: "error",
        forModel,
        display: `not run: ${cut}`,
        durationMs: 0,
      });
    if (reply.cut?.what === "arguments" && calls.length > 0) return { kind: "tools", text: content };
    return { kind: "failed", error: `the model's reply was cut: ${cut}` };
  }
  if (calls.length === 0) return { kind: "final", text: reply.content, finishReason: reply.finishReason };

  // Saves queued before this step (the prompt's) land before the tools change anything.
  await core.saved();
  const signal = core.control.toolAbort?.signal ?? new AbortController().signal;
  // Parallel calls run concurrently (at most TOOL_CONCURRENCY at once); results are appended in call order whatever finishes first.
  const results = await mapLimit(calls, TOOL_CONCURRENCY, (call) =>
    core.opts.tools.execute(call, core.toolEnv(signal)),
  );
  calls.forEach((call, i) => messages.push({ role: "tool", tool_call_id: call.id, content: results[i]!.forModel }));
  return { kind: "tools", text: reply.content };
}

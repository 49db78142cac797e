// Model requests as observers see them: each attempt (first try, retry, fallback) becomes a
// model.requested / model.responded pair sharing the step's request id (issue 32), from which the
// telemetry file and the trace's `chat` spans are built.
import { randomId } from "../protocol/ids.js";
import type { ApiMode } from "../config/levels.js";
import type { ModelFailure, ModelOutcome } from "./model-client.js";
import type { EventBody } from "./agent-core.js";
import type { RetryPolicy } from "./retry.js";
import { describeFailure } from "./retry.js";

/** A request id: unique across tasks, turns and subagents (turn ids repeat per agent). */
export const newRequestId = (): string => `req_${randomId(12)}`;

/** What kind of failure an attempt met, in the words of OpenTelemetry's `error.type`. */
export function errorType(error: ModelFailure): string {
  if (error.aborted) return "aborted";
  if (error.status !== undefined) return String(error.status);
  return /time(d)? ?out|no content|idle|deadline/i.test(error.message) ? "timeout" : "network";
}

/** The retry policy's `onAttempt` for one logical request; emits through `emit`. */
export function attemptEvents(
  emit: (body: EventBody) => void,
  opts: { requestId: string; api: ApiMode | undefined; purpose: "step" | "compaction" },
): NonNullable<RetryPolicy["onAttempt"]> {
  return ({ attempt, model, provider }) => {
    const start = performance.now();
    const ids = { requestId: opts.requestId, attempt, model };
    emit({
      type: "model.requested",
      ...ids,
      ...(provider ? { provider } : {}),
      api: opts.api ?? "chat",
      purpose: opts.purpose,
    });
    return (outcome: ModelOutcome) => {
      const durationMs = Math.round(performance.now() - start);
      if (!outcome.ok) {
        emit({
          type: "model.responded",
          ...ids,
          durationMs,
          error: describeFailure(outcome.error),
          errorType: errorType(outcome.error),
        });
        return;
      }
      const { reply } = outcome;
      emit({
        type: "model.responded",
        ...ids,
        durationMs,
        ...(reply.finishReason ? { finishReason: reply.finishReason } : {}),
        ...(reply.usage ? { usage: { ...reply.usage } } : {}),
        ...(reply.cut ? { errorType: "cut", error: `the reply was cut: ${reply.cut.what}` } : {}),
      });
    };
  };
}

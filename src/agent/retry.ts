// Retries for model requests: 429/500/502/503/504 (and Anthropic's 529, overloaded) and network errors, base * 2^(n-1) backoff
// capped at 30 s (a longer Retry-After is honoured up to the cap), then one try on each fallback
// (another model, or another provider's client) in order; 401/403 go to the fallbacks at once.
import type { ModelClient, ModelFailure, ModelOutcome, ModelRequest, StreamHandlers } from "./model-client.js";

/** 529 is Anthropic's "overloaded": a busy server like 503, whatever the wire. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);
export const MAX_BACKOFF_MS = 30_000;

/** Delay before retry number `attempt` (1-based). */
export function backoffMs(baseMs: number, attempt: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1));
}

export function isRetryable(error: ModelFailure): boolean {
  return !error.aborted && error.final !== true && (error.status === undefined || RETRYABLE_STATUSES.has(error.status));
}

export function describeFailure(error: ModelFailure): string {
  return error.status !== undefined && !error.message.startsWith(String(error.status))
    ? `${error.status} ${error.message}`
    : error.message;
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Where to send a request that failed: a model on the same client, or another provider's client. */
export interface FallbackRoute {
  model: string;
  /** Absent: the main client (only the model changes). */
  client?: ModelClient;
  /** The provider preset of `client`, for the announcement. */
  provider?: string;
}

/** 401/403: the key is wrong or lacks access; the next fallback is tried at once (retrying cannot help). */
export const AUTH_STATUSES: ReadonlySet<number> = new Set([401, 403]);

/** A failure another provider or model might not have: retryable ones (after retries) and auth ones. */
export function warrantsFallback(error: ModelFailure): boolean {
  return isRetryable(error) || (!error.aborted && error.status !== undefined && AUTH_STATUSES.has(error.status));
}

export interface RetryPolicy {
  maxRetries: number;
  baseMs: number;
  fallbackModel: string | undefined;
  /** Tried in order, once each; when given, `fallbackModel` is ignored (the list starts with it). */
  fallbacks?: FallbackRoute[];
  /** The main client's provider preset, for the announcement. */
  provider?: string | undefined;
  onRetry(info: { attempt: number; delayMs: number; error: ModelFailure; model: string }): void;
  onFallback(info: { from: string; to: string; error: ModelFailure; fromProvider?: string; toProvider?: string }): void;
  /**
   * Called as each attempt is sent (the first, every retry, every fallback; `attempt` counts them
   * from 1); the function it returns is called with that attempt's outcome. For observers only.
   */
  onAttempt?(info: { attempt: number; model: string; provider?: string }): (outcome: ModelOutcome) => void;
}

export async function completeWithRetry(
  client: ModelClient,
  request: ModelRequest,
  policy: RetryPolicy,
  handlers: StreamHandlers,
): Promise<{ outcome: ModelOutcome; model: string }> {
  let sent = 0;
  const send = async (c: ModelClient, req: ModelRequest, provider: string | undefined): Promise<ModelOutcome> => {
    const done = policy.onAttempt?.({ attempt: ++sent, model: req.model, ...(provider ? { provider } : {}) });
    const result = await c.complete(req, handlers);
    done?.(result);
    return result;
  };
  let outcome = await send(client, request, policy.provider);
  for (let attempt = 1; !outcome.ok && isRetryable(outcome.error) && attempt <= policy.maxRetries; attempt++) {
    const wait = Math.min(MAX_BACKOFF_MS, Math.max(backoffMs(policy.baseMs, attempt), outcome.error.retryAfterMs ?? 0));
    policy.onRetry({ attempt, delayMs: Math.round(wait), error: outcome.error, model: request.model });
    await sleep(wait, request.signal);
    if (request.signal.aborted) {
      return { outcome: { ok: false, error: { ...outcome.error, aborted: true } }, model: request.model };
    }
    outcome = await send(client, request, policy.provider);
  }
  const routes = policy.fallbacks ?? (policy.fallbackModel ? [{ model: policy.fallbackModel }] : []);
  let model = request.model;
  let provider = policy.provider;
  for (const route of routes) {
    if (outcome.ok || !warrantsFallback(outcome.error) || request.signal.aborted) break;
    // The same model on the same client would only repeat the failure.
    if (!route.client && route.model === model && provider === policy.provider) continue;
    const toProvider = route.client ? route.provider : policy.provider;
    policy.onFallback({
      from: model,
      to: route.model,
      error: outcome.error,
      ...(provider ? { fromProvider: provider } : {}),
      ...(toProvider && toProvider !== provider ? { toProvider } : {}),
    });
    outcome = await send(route.client ?? client, { ...request, model: route.model }, toProvider);
    model = route.model;
    provider = toProvider;
  }
  return { outcome, model };
}

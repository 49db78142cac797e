// The openai SDK as the wire for the chat-completions and Responses clients: loaded on the first
// request (so `--help` and the first UI frame never pay for it), configured so that our retry loop
// (retry.ts) is the only one, and its errors turned into ModelFailure values.
import type OpenAI from "openai";
import type { ClientOptions as SdkOptions } from "openai";
import { LineTooLongError, nodeFetch } from "./node-fetch.js";
import { VERSION } from "../../version.js";
import { type ClientOptions, type ModelOutcome, modelFailure } from "../model-client.js";
import { RequestWatchdog } from "../watchdog.js";
import type { StreamHandlers } from "../model-client.js";

export const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** A whole reply larger than this is refused: memory stays bounded whatever a server sends. */
export const REPLY_BODY_CAP = 32 * 1024 * 1024;
/** After the finish of a stream, the rest (usage, [DONE]) is read for this long at most. */
export const TAIL_GRACE_MS = 1_000;
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Set once the SDK is loaded: the bundle minifies class names, so errors are told apart by class. */
let connectionErrorClass: (abstract new (...args: never[]) => Error) | undefined;

type SdkModule = typeof import("openai");
let sdkModule: Promise<SdkModule> | undefined;
const importSdk = (): Promise<SdkModule> => (sdkModule ??= import("openai"));

/**
 * Starts loading the SDK (~90 KB to compile) without waiting for it, so a one-shot turn compiles
 * it while its extensions and session load instead of before its first request. A failure is left
 * for the first request to report (loadSdk).
 */
export function preloadSdk(): void {
  importSdk().catch(() => {});
}

/**
 * Contract: resolves the SDK client for these options, importing the SDK on the first call only.
 * One instance per model client, so consecutive steps share its keep-alive connection pool.
 */
export function sdkLoader(options: ClientOptions): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | undefined;
  return () =>
    (client ??= importSdk().then(({ default: SDK, APIConnectionError }) => {
      connectionErrorClass = APIConnectionError;
      return new SDK({
        // A local server (Ollama, vLLM, LM Studio) needs no key; the SDK insists on one, so it
        // gets a stand-in and the header it would make is removed.
        apiKey: options.apiKey || "no-key",
        baseURL: options.baseUrl ?? DEFAULT_BASE_URL,
        // retry.ts retries (with the seed's backoff and Retry-After); the SDK's own would stack on top.
        maxRetries: 0,
        // The watchdog owns the clock (idle limit and deadline); the SDK's timer must never fire first.
        timeout: MAX_TIMER_MS,
        logLevel: "off",
        defaultHeaders: {
          "user-agent": `nanohermes/${VERSION}`,
          ...(options.apiKey ? {} : { authorization: null }),
          ...options.headers,
        },
        ...(options.query ? { defaultQuery: options.query } : {}),
        // node:http, not Node's fetch (see node-fetch.ts); its response is the subset the SDK reads.
        fetch: nodeFetch() as unknown as SdkOptions["fetch"],
      });
    }));
}

/** The SDK, or a failure value when it cannot be loaded (a broken install): `complete` never throws. */
export async function loadSdk(load: () => Promise<OpenAI>): Promise<OpenAI | ModelOutcome> {
  try {
    return await load();
  } catch (error) {
    return modelFailure(`could not load the openai SDK: ${messageOf(error)}`, { final: true });
  }
}

export function watchdogFor(options: ClientOptions, signal: AbortSignal, handlers: StreamHandlers): RequestWatchdog {
  // Only content counts as progress: keep-alive comments, empty deltas and headers do not.
  return new RequestWatchdog(signal, {
    idleMs: options.timeoutMs,
    deadlineMs: options.deadlineMs ?? Number.MAX_SAFE_INTEGER,
    noticeMs: options.waitNoticeMs ?? 15_000,
    ...(handlers.onWaiting ? { onWait: handlers.onWaiting } : {}),
  });
}

export const failure = (message: string, status?: number): ModelOutcome => modelFailure(message, { status });

export const abortedOutcome = (): ModelOutcome => modelFailure("aborted", { aborted: true });

/** The failure of an attempt that ran past a limit (never a stop: that one is the caller's). */
export function expiredOutcome(watch: RequestWatchdog, signal: AbortSignal): ModelOutcome | null {
  const message = watch.describe();
  if (!message || signal.aborted) return null;
  return modelFailure(message, watch.expired === "deadline" ? { final: true } : {});
}

interface HeaderBag {
  get(name: string): string | null;
}

/** Milliseconds from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function retryAfterOf(headers: HeaderBag | undefined): number | undefined {
  const ms = Number(headers?.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms)) return Math.max(0, ms);
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** fetch wraps the socket's error ("connect ECONNREFUSED ...") in "fetch failed": the innermost says what happened. */
function rootCause(error: unknown): unknown {
  let e = error;
  for (let i = 0; i < 5 && e instanceof Error && e.cause !== undefined; i++) e = e.cause;
  return e;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Contract: any error the SDK (or the body under it) throws, as a failure value; `signal` is the caller's stop. */
export function failureOf(error: unknown, watch: RequestWatchdog, signal: AbortSignal): ModelOutcome {
  const expired = expiredOutcome(watch, signal);
  if (expired) return expired;
  if (signal.aborted) return abortedOutcome();
  // Not retried: the same server would send the same line again.
  const root = rootCause(error);
  if (root instanceof LineTooLongError) return modelFailure(`the stream was cut: ${root.message}`, { final: true });
  const e = error as { status?: unknown; headers?: HeaderBag; cause?: unknown; name?: string; error?: unknown };
  const status = typeof e?.status === "number" ? e.status : undefined;
  if (status !== undefined) {
    const text = messageOf(error);
    return modelFailure(text.startsWith(String(status)) ? text : `${status} ${text}`, {
      status,
      retryAfterMs: retryAfterOf(e.headers),
    });
  }
  if (connectionErrorClass && error instanceof connectionErrorClass)
    return failure(`connection error: ${messageOf(rootCause(error))}`);
  // An error event in the stream (the SDK's APIError without a status).
  if (e?.error !== undefined) return failure(`the endpoint sent an error mid-stream: ${messageOf(error)}`);
  if (error instanceof SyntaxError)
    return failure(`the stream sent a chunk that is not JSON: ${error.message.slice(0, 120)}`);
  const cause = e?.cause instanceof Error ? `: ${e.cause.message}` : "";
  return failure(`the connection broke mid-reply: ${messageOf(error)}${cause}`);
}

/**
 * Reads a whole (non-streamed) body, telling the watchdog of every piece (a whole reply has no
 * deltas: every byte is the answer arriving) and refusing one over REPLY_BODY_CAP.
 */
export async function readWhole(response: Response, watch: RequestWatchdog): Promise<string | ModelOutcome> {
  // node-fetch.ts's body is the node stream; a web ReadableStream is async iterable too.
  const body = response.body as AsyncIterable<Uint8Array> | null;
  if (!body) return "";
  const decoder = new TextDecoder();
  let text = "";
  // Leaving the loop early (the cap) closes the body.
  for await (const piece of body) {
    watch.activity();
    text += decoder.decode(piece, { stream: true });
    if (text.length > REPLY_BODY_CAP) return failure(`the reply body passed ${REPLY_BODY_CAP / 1024 / 1024} MB`);
  }
  return text + decoder.decode();
}

export function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const data: unknown = JSON.parse(text);
    return data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The message of an OpenAI-style error body (`{"error": {"message"}}`), or the text itself. */
export function errorMessage(text: string): string {
  const data = parseJsonObject(text);
  const err = data?.error;
  if (typeof err === "string") return err;
  if (err && typeof err === "object" && typeof (err as { message?: unknown }).message === "string")
    return (err as { message: string }).message;
  if (typeof data?.message === "string") return data.message;
  const trimmed = text.trim().replace(/\s+/g, " ");
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed || "(empty body)";
}

/** Ends a stream's tail (usage, [DONE]) after TAIL_GRACE_MS, for a server that never closes it. */
export function tailGuard(abort: () => void): { arm(): void; dispose(): void } {
  let timer: NodeJS.Timeout | undefined;
  return {
    arm: () => {
      timer ??= setTimeout(abort, TAIL_GRACE_MS);
    },
    dispose: () => clearTimeout(timer),
  };
}

/**
 * fetch hands a connection back to its pool a moment after the body's end: a next step sent before
 * that would open a second connection instead of reusing the first.
 */
export function connectionReturned(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

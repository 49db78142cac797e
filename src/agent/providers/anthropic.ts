// Anthropic Messages mode: one request to /v1/messages through the official SDK, which is loaded
// on the first request only (never at start-up). Streams text, tool_use and signed thinking.
// Contract: `complete` never throws; failures come back as values the retry loop judges (retry.ts).
import type Anthropic from "@anthropic-ai/sdk";
import type { Stream } from "@anthropic-ai/sdk/core/streaming";
import type { Message, MessageCreateParamsBase, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { VERSION } from "../../version.js";
import {
  type ClientOptions,
  type ModelClient,
  type ModelOutcome,
  type ModelRequest,
  modelFailure,
  type StreamHandlers,
} from "../model-client.js";
import { REPLY_CAPS } from "../reply-caps.js";
import { RequestWatchdog } from "../watchdog.js";
import { loopLacksThinking, toAnthropic } from "./anthropic-messages.js";
import { thinkingParams } from "./anthropic-params.js";
import { AnthropicReplyBuilder } from "./anthropic-reply.js";

type Sdk = typeof import("@anthropic-ai/sdk");

let sdkLoad: Promise<Sdk> | undefined;
/** The SDK module, imported once per process on first use (its own bundle chunk). */
function loadSdk(): Promise<Sdk> {
  sdkLoad ??= import("@anthropic-ai/sdk").catch((error: unknown) => {
    sdkLoad = undefined;
    throw error;
  });
  return sdkLoad;
}

export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
const MESSAGES_PATH = "/v1/messages";

/**
 * The SDK appends /v1/messages itself; a base URL written the OpenAI way (ending in /v1) is
 * accepted too, so `--base-url https://api.anthropic.com/v1` does not become /v1/v1/messages.
 */
export function sdkBaseUrl(baseUrl: string | undefined): string {
  return (baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** Error types the API sends in a body (or mid-stream, where no HTTP status is left) as statuses. */
const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

const MAX_TIMER_MS = 2 ** 31 - 1;

export class AnthropicModelClient implements ModelClient {
  private client: Promise<Anthropic> | undefined;

  constructor(private readonly options: ClientOptions) {}

  async complete(request: ModelRequest, handlers: StreamHandlers): Promise<ModelOutcome> {
    const watch = new RequestWatchdog(request.signal, {
      idleMs: this.options.timeoutMs,
      deadlineMs: this.options.deadlineMs ?? Number.MAX_SAFE_INTEGER,
      noticeMs: this.options.waitNoticeMs ?? 15_000,
      ...(handlers.onWaiting ? { onWait: handlers.onWaiting } : {}),
    });
    let sdk: Sdk | undefined;
    try {
      sdk = await loadSdk();
      const client = await this.sdkClient(sdk);
      const { system, messages, tools } = toAnthropic(request.messages, request.tools);
      const body: MessageCreateParamsBase = {
        model: request.model,
        messages,
        ...(system.length > 0 ? { system } : {}),
        ...(tools.length > 0 ? { tools } : {}),
        ...thinkingParams(request.model, loopLacksThinking(request.messages) ? "off" : request.thinking),
      };
      // The watchdog owns every limit; the SDK's timeout (time to headers) only backs it up.
      const opts = { signal: watch.signal, timeout: Math.min(this.options.deadlineMs ?? MAX_TIMER_MS, MAX_TIMER_MS) };
      const caps = { ...REPLY_CAPS, ...this.options.caps };
      const reply = new AnthropicReplyBuilder(handlers, caps, () => watch.activity());
      // The client's own post, not messages.create: that one writes deprecation notices for some
      // models to the console on every request, which would tear the TUI (patchConsole is off).
      if (!request.stream) {
        const message = await client.post<Message>(MESSAGES_PATH, { body: { ...body, stream: false }, ...opts });
        if (!Array.isArray((message as Partial<Message> | null)?.content))
          return modelFailure("the reply was not a Messages API message (no content list)");
        const cut = reply.whole(message);
        return this.expired(watch, request.signal) ?? { ok: true, reply: reply.reply(cut ?? undefined) };
      }
      const stream = await client.post<Stream<RawMessageStreamEvent>>(MESSAGES_PATH, {
        body: { ...body, stream: true },
        stream: true,
        ...opts,
      });
      for await (const event of stream) {
        // Leaving the loop early aborts the request: the rest of a capped reply is never read.
        const cut = reply.event(event);
        if (cut) return { ok: true, reply: reply.reply(cut) };
      }
      const expired = this.expired(watch, request.signal);
      if (expired) return expired;
      // The SDK ends its iteration quietly on an abort: a stop must not look like a reply.
      if (request.signal.aborted) return modelFailure("aborted", { aborted: true });
      // A dropped connection can end the body cleanly; a reply without message_stop is incomplete.
      if (!reply.complete) return modelFailure("the stream ended before the reply was complete (no message_stop)");
      return { ok: true, reply: reply.reply() };
    } catch (error) {
      return this.expired(watch, request.signal) ?? failureOf(error, sdk, request.signal);
    } finally {
      watch.dispose();
    }
  }

  /** One SDK client per model client, so consecutive steps reuse its keep-alive connection. */
  private sdkClient(sdk: Sdk): Promise<Anthropic> {
    this.client ??= Promise.resolve(
      new sdk.default({
        // Passing the key keeps the SDK from reading other credentials (environment, profiles).
        apiKey: this.options.apiKey ?? "",
        baseURL: sdkBaseUrl(this.options.baseUrl),
        // retry.ts retries (with the seed's backoff and Retry-After); two layers would multiply.
        maxRetries: 0,
        // No console output from a library while the TUI owns the terminal.
        logLevel: "off",
        defaultHeaders: {
          // The Messages API's own key header, and no bearer token beside it.
          "x-api-key": this.options.apiKey ?? null,
          authorization: null,
          "user-agent": `nanohermes/${VERSION}`,
        },
      }),
    );
    return this.client;
  }

  /** The failure of an attempt that ran past a limit (never a stop: that one is the caller's). */
  private expired(watch: RequestWatchdog, signal: AbortSignal): ModelOutcome | null {
    const message = watch.describe();
    if (!message || signal.aborted) return null;
    return modelFailure(message, watch.expired === "deadline" ? { final: true } : {});
  }
}

/** An SDK or network error as a failure the retry loop can judge. */
function failureOf(error: unknown, sdk: Sdk | undefined, signal: AbortSignal): ModelOutcome {
  if (signal.aborted || (sdk && error instanceof sdk.APIUserAbortError))
    return modelFailure("aborted", { aborted: true });
  if (sdk && error instanceof sdk.APIError && !(error instanceof sdk.APIConnectionError)) {
    const type = error.type ?? undefined;
    // A mid-stream `error` event has no HTTP status: its type says what it would have been.
    const status = error.status ?? (type ? STATUS_OF_TYPE[type] : undefined);
    const text = error.apiMessage ?? error.message;
    return modelFailure(type ? `${type}: ${text}` : text, { status, retryAfterMs: retryAfterMs(error.headers) });
  }
  if (sdk && error instanceof sdk.APIConnectionError) return modelFailure(`connection error: ${rootCause(error)}`);
  if (error instanceof SyntaxError) return modelFailure(`the reply was not valid JSON: ${error.message}`);
  // A body that breaks mid-stream surfaces as fetch's own error ("terminated"); retried like any network error.
  return modelFailure(`the stream broke: ${error instanceof Error ? error.message : String(error)}`);
}

/** The innermost cause's message: fetch wraps "connect ECONNREFUSED ..." in "fetch failed", the SDK in "Connection error." */
function rootCause(error: Error): string {
  let e: Error = error;
  for (let depth = 0; e.cause instanceof Error && depth < 5; depth++) e = e.cause;
  return e.message;
}

/** Retry-After as seconds or an HTTP date (Anthropic sends seconds on 429 and 529). */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  const raw = headers?.get("retry-after");
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

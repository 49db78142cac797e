// The chat-completions wire: one POST over node:http(s), the reply read as JSON or as server-sent
// events. Written on node:http rather than fetch because fetch (undici) costs ~130-250 ms of
// start-up on every one-shot run (its web classes and a WebAssembly HTTP parser).
import type { IncomingMessage } from "node:http";
import { StringDecoder } from "node:string_decoder";

export const DEFAULT_BASE_URL = "https://api.openai.com/v1";
const ERROR_BODY_CAP = 64 * 1024;
/** A whole reply, or one SSE event, larger than this is refused: memory stays bounded whatever a server sends. */
export const REPLY_BODY_CAP = 32 * 1024 * 1024;

/** A failed exchange, as a value: HTTP errors carry their status; network errors do not. */
export class WireError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly retryAfterMs: number | undefined,
    readonly aborted = false,
  ) {
    super(message);
  }
}

export interface PostOptions {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  body: unknown;
  signal: AbortSignal;
  /** The connection is dropped when no byte arrives for this long. */
  idleTimeoutMs: number;
  userAgent: string;
}

export function endpointUrl(baseUrl: string | undefined): URL {
  const base = (baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  return new URL(`${base}/chat/completions`);
}

function parseRetryAfter(raw: string | string[] | undefined): number | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** The message of an OpenAI-style error body (`{"error": {"message"}}`), or the text itself. */
export function errorMessage(text: string): string {
  try {
    const data = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof data.error === "string") return data.error;
    if (data.error && typeof data.error.message === "string") return data.error.message;
    if (typeof data.message === "string") return data.message;
  } catch {
    // not JSON: use the text
  }
  const trimmed = text.trim().replace(/\s+/g, " ");
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed || "(empty body)";
}

/**
 * Contract: resolves with the response once its headers arrive and its status is 2xx; rejects with
 * a WireError otherwise (HTTP error with the body's message, network error, timeout, abort).
 */
export async function post(options: PostOptions): Promise<IncomingMessage> {
  const url = endpointUrl(options.baseUrl);
  const payload = JSON.stringify(options.body);
  // Loaded on the first request: node:https brings TLS, which the UI's first frame need not wait for.
  const send = url.protocol === "https:" ? (await import("node:https")).request : url.protocol === "http:" ? (await import("node:http")).request : null;
  if (!send) throw new WireError(`unsupported URL scheme in ${url.href}`, undefined, undefined);
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return reject(new WireError("aborted", undefined, undefined, true));
    const req = send(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(payload),
        accept: "application/json, text/event-stream",
        "user-agent": options.userAgent,
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
    });
    const onAbort = () => req.destroy(new WireError("aborted", undefined, undefined, true));
    options.signal.addEventListener("abort", onAbort, { once: true });
    req.setTimeout(options.idleTimeoutMs, () =>
      req.destroy(new WireError(`no response for ${Math.round(options.idleTimeoutMs / 1000)} s`, undefined, undefined)),
    );
    req.on("error", (error) => {
      options.signal.removeEventListener("abort", onAbort);
      if (error instanceof WireError) return reject(error);
      reject(new WireError(`connection error: ${error.message}`, undefined, undefined));
    });
    req.on("response", (res) => {
      res.on("close", () => options.signal.removeEventListener("abort", onAbort));
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) return resolve(res);
      // Read a capped error body for its message.
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        if (text.length < ERROR_BODY_CAP) text += chunk;
      });
      res.on("error", () => {});
      res.on("end", () => reject(new WireError(`${status} ${errorMessage(text)}`, status, parseRetryAfter(res.headers["retry-after"]))));
    });
    req.end(payload);
  });
}

/** Reads a whole (non-streamed) body as text; `onData` hears of every piece. */
export function readBody(res: IncomingMessage, signal: AbortSignal, onData?: () => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      text += chunk;
      onData?.();
      if (text.length > REPLY_BODY_CAP) res.destroy(new WireError(`the reply body passed ${REPLY_BODY_CAP / 1024 / 1024} MB`, undefined, undefined));
    });
    res.on("end", () => resolve(text));
    res.on("error", (error) => reject(signal.aborted ? new WireError("aborted", undefined, undefined, true) : wrapStreamError(error)));
  });
}

function wrapStreamError(error: Error): WireError {
  return error instanceof WireError ? error : new WireError(`the connection broke mid-reply: ${error.message}`, undefined, undefined);
}

/**
 * Yields the `data` payloads of a server-sent event stream, ending at `[DONE]` or at the end of
 * the body. Comments and other fields are skipped; an `event: error` payload becomes a WireError.
 */
export async function* sseData(res: IncomingMessage, signal: AbortSignal): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  let buffer = "";
  let data: string[] = [];
  let dataChars = 0;
  let event = "";
  // After [DONE] the rest of the response is read, not cut off: a response read to its end leaves
  // its keep-alive connection for the next request (no new TCP or TLS handshake per step). A
  // server that never ends it is cut after a second.
  let done = false;
  let guard: NodeJS.Timeout | null = null;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      if (done) continue;
      buffer += decoder.write(chunk);
      if (buffer.length > REPLY_BODY_CAP && buffer.indexOf("\n") === -1) throw new WireError(`the stream sent a line over ${REPLY_BODY_CAP / 1024 / 1024} MB`, undefined, undefined);
      let nl: number;
      while (!done && (nl = buffer.indexOf("\n")) !== -1) {
        const line = buffer.slice(0, nl).replace(/\r$/, "");
        buffer = buffer.slice(nl + 1);
        if (line === "") {
          if (data.length) {
            const payload = data.join("\n");
            data = [];
            dataChars = 0;
            if (payload === "[DONE]") {
              done = true;
              guard = setTimeout(() => res.destroy(), 1_000);
              break;
            }
            if (event === "error") throw new WireError(errorMessage(payload), undefined, undefined);
            yield payload;
          }
          event = "";
        } else if (line.startsWith("data:")) {
          data.push(line.slice(line[5] === " " ? 6 : 5));
          dataChars += line.length;
          if (dataChars > REPLY_BODY_CAP) throw new WireError(`the stream sent an event over ${REPLY_BODY_CAP / 1024 / 1024} MB`, undefined, undefined);
        }
        else if (line.startsWith("event:")) event = line.slice(6).trim();
      }
    }
  } catch (error) {
    if (done) return;
    if (signal.aborted) throw new WireError("aborted", undefined, undefined, true);
    throw wrapStreamError(error as Error);
  } finally {
    if (guard) clearTimeout(guard);
  }
  if (done) return;
  if (data.length && data.join("\n") !== "[DONE]") yield data.join("\n");
}

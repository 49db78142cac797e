// The fetch the openai SDK is given: one POST over node:http(s) with a keep-alive agent, the
// response body left as the node stream (the SDK reads any async iterable). Node's own fetch
// (undici) costs ~30 MB and hundreds of ms on the first request of every one-shot run (measured:
// its HTTP parser is WebAssembly compiled at first use), more than the rest of the program.
import type { Agent as HttpAgent } from "node:http";
import { pipeline, Transform, type Readable, type TransformCallback } from "node:stream";
import { Headers } from "./sdk-headers.js";

/** One line of a body (an SSE line; a whole reply with no line end) may hold this many bytes. */
export const LINE_CAP_BYTES = 32 * 1024 * 1024;

/** A body line passed the cap: the server is broken (or hostile), and asking again would only repeat it. */
export class LineTooLongError extends Error {}

/** A line not yet ended that is this long is held until it ends (see LineGuard). */
const HOLD_FROM_BYTES = 1024 * 1024;

/**
 * Passes a body on as it comes, except a long line: once a line not yet ended passes
 * HOLD_FROM_BYTES its bytes are held (at most `cap`) and passed with its end, so the SDK's line
 * splitter, which copies and rescans its whole buffer on every chunk, sees the long line once (it
 * took 57 s of CPU for a 40 MB line fed in socket-sized pieces). A line over `cap` ends the body
 * with LineTooLongError as soon as it passes the cap. Short lines pass untouched: holding every
 * partial line made tests/daemon/stream-limits.test.ts hang (cause not found yet).
 */
export class LineGuard extends Transform {
  /** The held start of a long line not yet ended; `run`: the bytes since the last line end. */
  private pending: Buffer[] = [];
  private run = 0;

  constructor(private readonly cap: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const last = Math.max(chunk.lastIndexOf(10), chunk.lastIndexOf(13));
    if (this.longest(chunk, last) > this.cap) {
      this.pending = [];
      done(new LineTooLongError(`a line of the reply passed ${this.cap / 1024 / 1024} MB without ending`));
      return;
    }
    const run = last === -1 ? this.run + chunk.length : chunk.length - last - 1;
    const release = (part: Buffer) => {
      const out = this.pending.length > 0 ? Buffer.concat([...this.pending, part]) : part;
      this.pending = [];
      return out;
    };
    this.run = run;
    if (last === -1) {
      // Short lines pass as they come; a long one is held until it ends.
      if (this.pending.length === 0 && run < HOLD_FROM_BYTES) return done(null, chunk);
      this.pending.push(chunk);
      return done();
    }
    if (run < HOLD_FROM_BYTES) return done(null, release(chunk));
    const out = release(chunk.subarray(0, last + 1));
    this.pending = [chunk.subarray(last + 1)];
    done(null, out);
  }

  override _flush(done: TransformCallback): void {
    done(null, this.pending.length > 0 ? Buffer.concat(this.pending) : undefined);
  }

  /** The longest line `chunk` makes, counting the pending start; `last` is its last line end. */
  private longest(chunk: Buffer, last: number): number {
    if (last === -1) return this.run + chunk.length;
    const nl = chunk.indexOf(10);
    const cr = chunk.indexOf(13);
    const first = nl === -1 ? cr : cr === -1 ? nl : Math.min(nl, cr);
    let longest = Math.max(this.run + first, chunk.length - last - 1);
    // Lines between the first and the last end are shorter than the chunk: only a chunk over the cap needs them.
    for (let at = first + 1; chunk.length > this.cap && at <= last; ) {
      const n = chunk.indexOf(10, at);
      const c = chunk.indexOf(13, at);
      const end = n === -1 ? c : c === -1 ? n : Math.min(n, c);
      longest = Math.max(longest, end - at);
      at = end + 1;
    }
    return longest;
  }
}

/** What the SDK reads of a fetch Response. */
export interface FetchResponse {
  ok: boolean;
  status: number;
  statusText: string;
  url: string;
  headers: Headers;
  /** The response body, through a LineGuard. */
  body: Readable;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

export interface FetchInit {
  method?: string;
  headers?: Iterable<readonly [string, string]> | Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | null;
}

/** An AbortError as fetch raises it: the SDK tells a stop from a failure by this name. */
function abortError(): Error {
  const e = new Error("This operation was aborted");
  e.name = "AbortError";
  return e;
}

/**
 * Contract: resolves once the response headers arrive (any status), rejects on a network error
 * (the SDK wraps it as a connection error) or with an AbortError when `signal` aborts, also
 * mid-body; the body errors with LineTooLongError at a line over LINE_CAP_BYTES. One agent per client keeps one connection for consecutive requests.
 */
export function nodeFetch(): (input: string | URL, init?: FetchInit) => Promise<FetchResponse> {
  const agents: { http?: HttpAgent; https?: HttpAgent } = {};
  return async (input, init = {}) => {
    const url = new URL(String(input));
    const secure = url.protocol === "https:";
    if (!secure && url.protocol !== "http:") throw new TypeError(`unsupported URL scheme in ${url.href}`);
    // Loaded on the first request: node:https brings TLS, which the UI's first frame need not wait for.
    const mod = secure ? await import("node:https") : await import("node:http");
    const agent = (agents[secure ? "https" : "http"] ??= new mod.Agent({ keepAlive: true }));
    const headers = new Headers(init.headers);
    const body =
      typeof init.body === "string"
        ? init.body
        : init.body === undefined || init.body === null
          ? undefined
          : String(init.body);
    if (body !== undefined) headers.set("content-length", String(Buffer.byteLength(body)));
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw abortError();
    return new Promise((resolve, reject) => {
      const req = mod.request(url, { method: init.method ?? "GET", headers: Object.fromEntries(headers), agent });
      const onAbort = () => req.destroy(abortError());
      signal?.addEventListener("abort", onAbort, { once: true });
      req.on("error", (error) => {
        signal?.removeEventListener("abort", onAbort);
        reject(error);
      });
      req.on("response", (res) => {
        res.on("close", () => signal?.removeEventListener("abort", onAbort));
        // A destroyed request errors its response too: the body's reader sees the AbortError.
        req.on("error", (error) => res.destroy(error));
        // A destroyed response (a stop) destroys the guard with the same error, and back.
        const guarded = pipeline(res, new LineGuard(LINE_CAP_BYTES), () => {});
        const text = async () => {
          let all = "";
          guarded.setEncoding("utf8");
          for await (const chunk of guarded) all += chunk as string;
          return all;
        };
        const status = res.statusCode ?? 0;
        const responseHeaders = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) for (const one of Array.isArray(v) ? v : [v]) responseHeaders.append(k, one);
        resolve({
          ok: status >= 200 && status < 300,
          status,
          statusText: res.statusMessage ?? "",
          url: url.href,
          headers: responseHeaders,
          body: guarded,
          text,
          json: async () => JSON.parse(await text()) as unknown,
        });
      });
      req.end(body);
    });
  };
}

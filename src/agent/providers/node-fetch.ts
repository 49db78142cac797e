// The fetch the openai SDK is given: one POST over node:http(s) with a keep-alive agent, the
// response body left as the node stream (the SDK reads any async iterable). Node's own fetch
// (undici) costs ~30 MB and hundreds of ms on the first request of every one-shot run (measured:
// its HTTP parser is WebAssembly compiled at first use), more than the rest of the program.
import type { Agent as HttpAgent, IncomingMessage } from "node:http";
import { Headers } from "./sdk-headers.js";

/** What the SDK reads of a fetch Response. */
export interface FetchResponse {
  ok: boolean;
  status: number;
  statusText: string;
  url: string;
  headers: Headers;
  body: IncomingMessage;
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
 * mid-body. One agent per client keeps one connection for consecutive requests.
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
        const text = async () => {
          let all = "";
          res.setEncoding("utf8");
          for await (const chunk of res) all += chunk as string;
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
          body: res,
          text,
          json: async () => JSON.parse(await text()) as unknown,
        });
      });
      req.end(body);
    });
  };
}

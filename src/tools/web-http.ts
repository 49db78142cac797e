// The guarded GET the web tools share: http(s) only, every hop's resolved address checked against
// net-guard, redirects, connect and total timeouts, and a body cap that holds after decompression.
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { isIP } from "node:net";
import type { Readable } from "node:stream";
import { ToolError, type ToolContext } from "./define.js";
import { classifyAddress, classifyHost, type AddressClass } from "./net-guard.js";

/** The web settings the tools read from their context (`"web": {...}` in the config). */
export interface WebToolOptions {
  /** Let requests reach loopback, private and link-local addresses (never cloud metadata). */
  allowPrivate?: boolean;
  search?: {
    backend: "duckduckgo" | "searxng" | "brave";
    /** The backend's base URL: required for searxng, an override for the others. */
    url?: string;
  };
}

/** Reads `ctx.web` without requiring the field on ToolContext. */
export function webOptionsOf(ctx: ToolContext): WebToolOptions {
  return (ctx as { web?: WebToolOptions }).web ?? {};
}

export interface WebLimits {
  /** Body bytes kept, counted after decompression; the rest is not read. */
  maxBytes: number;
  /** Until the TCP (and TLS) connection is up, per hop. */
  connectTimeoutMs: number;
  /** The whole exchange: DNS, every hop and the body. */
  totalTimeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_WEB_LIMITS: WebLimits = {
  maxBytes: 2 * 1024 * 1024,
  connectTimeoutMs: 10_000,
  totalTimeoutMs: 30_000,
  maxRedirects: 5,
};

/** DNS as the guard sees it; injectable so tests can resolve names to chosen addresses. */
export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = async (hostname) => {
  const { lookup } = await import("node:dns/promises");
  return lookup(hostname, { all: true, verbatim: true });
};

export interface GetRequest {
  url: string;
  signal: AbortSignal;
  allowPrivate?: boolean;
  /** Origins the user configured (a SearXNG instance): exempt from the private-address check. */
  trustedOrigins?: string[];
  /** Extra headers, sent to the first origin only (they may carry an API key). */
  headers?: Record<string, string>;
  limits?: Partial<WebLimits>;
  lookup?: Lookup;
  /** Decides from the Content-Type whether the body is worth reading; binaries are not. */
  wantBody?: (contentType: string) => boolean;
}

export interface GetResponse {
  /** The final URL, after redirects. */
  url: string;
  redirects: number;
  status: number;
  statusText: string;
  contentType: string;
  headers: IncomingHttpHeaders;
  /** Decoded (decompressed) bytes, at most limits.maxBytes. */
  body: Buffer;
  /** The body went on past the cap and was not read further. */
  truncated: boolean;
  /** wantBody said no: the body was not read. */
  skipped: boolean;
  /** Content-Length as the server sent it (compressed size when encoded), or null. */
  declaredLength: number | null;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = "Mozilla/5.0 (compatible; NanoHermes; +https://github.com/nanohermes)";

/** Parses a URL the tools may fetch; `what` names it in the error ("redirect target"). */
export function parseHttpUrl(text: string, what = "URL"): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const hint = /^[\w.-]+\.[a-z]{2,}(\/|$)/i.test(text) ? ` (did you mean https://${text}?)` : "";
    throw new ToolError(
      `not a valid ${what}: ${JSON.stringify(text)}${hint}; give an absolute http:// or https:// URL`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolError(
      `refused ${what} ${JSON.stringify(text)}: only http:// and https:// URLs can be fetched, not ${url.protocol}`,
    );
  }
  if (url.username || url.password)
    throw new ToolError(`refused ${what}: URLs with credentials (user:password@) are not fetched`);
  return url;
}

function refusal(host: string, address: string | null, cls: AddressClass): ToolError {
  const where = address && address !== host ? `${host} resolves to ${address}, ` : `${host} is `;
  const allow =
    cls === "cloud metadata"
      ? "metadata endpoints are never fetched"
      : 'set "web": {"allowPrivate": true} in the config to allow such addresses';
  return new ToolError(`refused: ${where}a ${cls} address, not the public internet; ${allow}`);
}

/** Resolves a hop's host and checks every address; returns the one to connect to. */
async function resolveChecked(
  url: URL,
  req: GetRequest,
  signal: AbortSignal,
): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const trusted = req.trustedOrigins?.includes(url.origin) ?? false;
  const check = (address: string | null, cls: AddressClass | null) => {
    if (cls === null || cls === "public") return;
    if (cls === "cloud metadata" || (!trusted && !req.allowPrivate)) throw refusal(host, address, cls);
  };
  check(null, classifyHost(host));
  if (isIP(host)) return { address: host, family: isIP(host) };
  let addresses: { address: string; family: number }[];
  try {
    addresses = await raceAbort((req.lookup ?? systemLookup)(host), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const why =
      code === "ENOTFOUND"
        ? "no such host"
        : code === "EAI_AGAIN"
          ? "DNS is not answering (is the network up?)"
          : (error as Error).message;
    throw new ToolError(`cannot resolve ${host}: ${why}${code ? ` (${code})` : ""}`);
  }
  if (addresses.length === 0) throw new ToolError(`cannot resolve ${host}: no addresses`);
  // Every address is checked: the socket might otherwise pick the one that was not.
  for (const { address } of addresses) check(address, classifyAddress(address) ?? "reserved");
  return addresses[0]!;
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error("aborted"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * One request to the exact checked address; the Host header and the TLS servername carry the
 * name, so a DNS answer that changes between the check and the connect cannot redirect it.
 */
async function openHop(
  url: URL,
  target: { address: string; family: number },
  headers: Record<string, string>,
  limits: WebLimits,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const secure = url.protocol === "https:";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const options = {
    host: target.address,
    family: target.family,
    port: url.port ? Number(url.port) : secure ? 443 : 80,
    path: `${url.pathname}${url.search}`,
    method: "GET",
    agent: false as const,
    signal,
    headers: {
      host: url.host,
      "user-agent": USER_AGENT,
      accept: "text/html,application/xhtml+xml,application/json,text/*;q=0.9,*/*;q=0.5",
      "accept-encoding": "gzip, deflate, br",
      ...headers,
    },
  };
  const request = secure
    ? (await import("node:https")).request({ ...options, ...(isIP(host) ? {} : { servername: host }) })
    : (await import("node:http")).request(options);
  return new Promise((resolve, reject) => {
    const connectTimer = setTimeout(
      () =>
        request.destroy(new ToolError(`could not connect to ${url.host} within ${limits.connectTimeoutMs / 1000} s`)),
      limits.connectTimeoutMs,
    );
    request.once("socket", (socket) =>
      socket.once(secure ? "secureConnect" : "connect", () => clearTimeout(connectTimer)),
    );
    request.once("response", (res) => {
      clearTimeout(connectTimer);
      resolve(res);
    });
    request.once("error", (error) => {
      clearTimeout(connectTimer);
      reject(error);
    });
    request.end();
  });
}

function describeNetError(error: unknown, url: URL): ToolError {
  if (error instanceof ToolError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? "";
  const message = (error as Error).message;
  if (code === "ECONNREFUSED") return new ToolError(`connection refused by ${url.host}`);
  if (code === "ECONNRESET" || code === "EPIPE") return new ToolError(`${url.host} closed the connection (${code})`);
  if (code === "EPROTO" || /CERT|SSL|TLS/.test(code) || /certificate|SSL routines/i.test(message)) {
    // OpenSSL's messages carry a file path and error numbers; its reason is the readable part.
    const reason = /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1] ?? message;
    return new ToolError(`TLS error from ${url.host}: ${reason}`);
  }
  if (code === "HPE_HEADER_OVERFLOW") return new ToolError(`${url.host} sent oversized response headers`);
  return new ToolError(`request to ${url.href} failed: ${message}${code ? ` (${code})` : ""}`);
}

/** Reads at most maxBytes of the decoded body, decompressing gzip/deflate/br as it goes. */
async function readBody(res: IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const encoding = String(res.headers["content-encoding"] ?? "identity")
    .trim()
    .toLowerCase();
  let source: Readable = res;
  if (encoding !== "identity" && encoding !== "") {
    const zlib = await import("node:zlib");
    // createUnzip takes both gzip and zlib-wrapped deflate, the forms servers send.
    const decoder =
      encoding === "gzip" || encoding === "x-gzip" || encoding === "deflate"
        ? zlib.createUnzip()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : null;
    if (!decoder) {
      res.destroy();
      throw new ToolError(`the server sent an unsupported content encoding: ${encoding}`);
    }
    const { pipeline } = await import("node:stream");
    pipeline(res, decoder, () => {});
    source = decoder;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    // One chunk at a time: a decompression bomb is stopped after maxBytes, never inflated whole.
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (error) {
    // zlib codes are Z_*, brotli's ERR__*; a network failure keeps its own message.
    const code = String((error as NodeJS.ErrnoException).code ?? "");
    if (source !== res && /^(Z_|ERR__)/.test(code))
      throw new ToolError(`could not decompress the ${encoding} body: ${(error as Error).message}`);
    throw error;
  } finally {
    source.destroy();
    res.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

/**
 * Contract: GETs `req.url`, following at most maxRedirects redirects, each hop re-checked.
 * Expected failures (refusals, timeouts, DNS, refused connections) throw ToolError; an abort of
 * `req.signal` rejects with the signal's reason. Non-2xx statuses are returned, not thrown.
 */
export async function guardedGet(req: GetRequest): Promise<GetResponse> {
  const limits: WebLimits = { ...DEFAULT_WEB_LIMITS, ...req.limits };
  let url = parseHttpUrl(req.url);
  const firstOrigin = url.origin;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new ToolError(`timed out after ${limits.totalTimeoutMs / 1000} s fetching ${req.url}`));
  }, limits.totalTimeoutMs);
  const onAbort = () => controller.abort(req.signal.reason);
  if (req.signal.aborted) onAbort();
  else req.signal.addEventListener("abort", onAbort, { once: true });
  try {
    for (let hop = 0; ; hop++) {
      const target = await resolveChecked(url, req, controller.signal);
      const res = await openHop(
        url,
        target,
        url.origin === firstOrigin ? (req.headers ?? {}) : {},
        limits,
        controller.signal,
      ).catch((error: unknown) => {
        throw controller.signal.aborted ? error : describeNetError(error, url);
      });
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location) {
        res.destroy();
        if (hop >= limits.maxRedirects) {
          throw new ToolError(
            `too many redirects: gave up after ${limits.maxRedirects} (the limit), the last one from ${url.href} to ${location}`,
          );
        }
        let next: string;
        try {
          next = new URL(location, url).href;
        } catch {
          throw new ToolError(`${url.href} redirected to an invalid URL: ${location}`);
        }
        url = parseHttpUrl(next, "redirect target");
        continue;
      }
      const contentType = String(res.headers["content-type"] ?? "").trim();
      const lengthHeader = Number(res.headers["content-length"]);
      const declaredLength =
        Number.isFinite(lengthHeader) && res.headers["content-length"] !== undefined ? lengthHeader : null;
      const common = {
        url: url.href,
        redirects: hop,
        status,
        statusText: res.statusMessage ?? "",
        contentType,
        headers: res.headers,
        declaredLength,
      };
      if (req.wantBody && !req.wantBody(contentType)) {
        res.destroy();
        return { ...common, body: Buffer.alloc(0), truncated: false, skipped: true };
      }
      const { body, truncated } = await readBody(res, limits.maxBytes);
      return { ...common, body, truncated, skipped: false };
    }
  } catch (error) {
    if (timedOut) throw controller.signal.reason as ToolError;
    if (req.signal.aborted) throw req.signal.reason ?? error;
    throw error instanceof ToolError ? error : describeNetError(error, url);
  } finally {
    clearTimeout(timer);
    req.signal.removeEventListener("abort", onAbort);
  }
}

/** The charset label of a Content-Type ("text/html; charset=ISO-8859-1" -> "iso-8859-1"). */
export function charsetOf(contentType: string): string | null {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m ? m[1]!.toLowerCase() : null;
}

/** Decodes a body by its declared charset (or an HTML meta charset); unknown labels fall back to UTF-8. */
export function decodeBody(body: Buffer, contentType: string, isHtml = false): string {
  let label = charsetOf(contentType);
  if (!label && isHtml) {
    const head = body.subarray(0, 2048).toString("latin1");
    label = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase() ?? null;
  }
  try {
    return new TextDecoder(label ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

/** Decodes the HTML entities that matter in titles and snippets (named basics and numeric). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * Removes comments and `<tag ...>...</tag>` blocks of the given (lower-case) tags; an unclosed
 * block runs to the end, as in a browser. One pass with indexOf: a lazy regex such as
 * /<script[\s\S]*?<\/script>/ rescans to the end for every unclosed opener, quadratic on hostile pages.
 */
export function stripBlocks(html: string, tags: readonly string[]): string {
  const lower = html.toLowerCase();
  const out: string[] = [];
  const opener = /<(!--|[a-z][a-z0-9-]*)/g;
  let i = 0;
  for (let m = opener.exec(lower); m; m = opener.exec(lower)) {
    const name = m[1]!;
    let end: number;
    if (name === "!--") {
      const close = lower.indexOf("-->", m.index + 4);
      end = close < 0 ? html.length : close + 3;
    } else if (tags.includes(name) && !/[a-z0-9-]/.test(lower[m.index + 1 + name.length] ?? "")) {
      const close = lower.indexOf(`</${name}`, m.index + 1);
      const gt = close < 0 ? -1 : lower.indexOf(">", close);
      end = gt < 0 ? html.length : gt + 1;
    } else continue;
    out.push(html.slice(i, m.index), " ");
    i = end;
    opener.lastIndex = end;
  }
  out.push(html.slice(i));
  return out.join("");
}

/** Drops every tag, block-level ones becoming line breaks; linear like stripBlocks. */
function dropTags(html: string): string {
  const out: string[] = [];
  let i = 0;
  for (let lt = html.indexOf("<", i); lt >= 0; lt = html.indexOf("<", i)) {
    const gt = html.indexOf(">", lt);
    if (gt < 0) break;
    out.push(
      html.slice(i, lt),
      /^<\/?(br|p|div|h[1-6]|li|tr|section|article|pre|blockquote)\b/i.test(html.slice(lt, lt + 12)) ? "\n" : " ",
    );
    i = gt + 1;
  }
  out.push(html.slice(i));
  return out.join("");
}

/** Tags removed, entities decoded, whitespace collapsed: for snippets and as a last-resort page text. */
export function htmlToPlainText(html: string): string {
  const text = dropTags(stripBlocks(html, ["script", "style", "svg", "noscript", "template", "iframe", "head"]));
  return decodeEntities(text)
    .replace(/[ \t\f\v\r]+/g, " ")
    .replace(/ *\n[ \n]*/g, "\n")
    .trim();
}

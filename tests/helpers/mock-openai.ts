// Owns the OpenAI-compatible mock model server for the end-to-end tests and the benchmark:
// scripted replies served over real HTTP in the exact chat-completions wire format (SSE
// included), or the Responses API's (mock-responses.ts), with every request recorded and
// in-flight / aborted connections counted.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serveResponseObject, streamResponse } from "./mock-responses.js";

/** One tool call the mock model makes. */
export interface ScriptedToolCall {
  /** Wire id; default: a fresh `call_<n>`. */
  id?: string;
  name: string;
  /** Sent verbatim, so a test can send invalid JSON on purpose. */
  arguments: string;
}

/** A successful completion, streamed or not depending on the request's `stream` flag. */
export interface CompletionReply {
  content?: string;
  /** Sent as `reasoning_content` deltas before the content (the DeepSeek/vLLM convention). */
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default: "tool_calls" when there are tool calls, else "stop". */
  finishReason?: string;
  /** Default: request chars / 4 and (content + arguments chars) / 4, each at least 1. `cached` and
   *  `reasoning` (default 0) are reported on the Responses wire. */
  usage?: { prompt: number; completion: number; cached?: number; reasoning?: number };
  /** Responses wire: the reasoning item's `encrypted_content` (sent when set, or with `reasoning`). */
  encryptedReasoning?: string;
  /** Split content into chunks of this many characters (default 8); tool-call arguments are
   *  always split across at least 2 chunks when longer than 1 char. */
  chunkSize?: number;
  /** Delay between SSE chunks in ms (default 0); wins over `tokensPerSecond`. */
  chunkDelayMs?: number;
  /** Pace the stream at this rate, estimating a chunk's tokens as its characters / 4. */
  tokensPerSecond?: number;
  /** Stop the stream after N chunks without [DONE] and destroy the socket (a dropped
   *  connection). Not counted in `aborted`, which is for client disconnects. */
  dropAfterChunks?: number;
  /** Wait this long before sending the response headers. */
  delayMs?: number;
  /** After this many chunks (0 = right after the headers), send only SSE comments
   *  (`: keep-alive`) every `keepAliveMs` (default 20) and never finish: a server that trickles. */
  trickleAfterChunks?: number;
  keepAliveMs?: number;
  /** After this many chunks, send nothing more and never finish (a hung provider). */
  hangAfterChunks?: number;
  /** After the planned chunks up to the finish, keep sending content (or, with "arguments", more
   *  arguments of the first tool call) forever, `chunkSize` characters a chunk, as fast as the
   *  client reads: an endless stream. */
  endless?: "content" | "arguments";
}

/** An HTTP error, e.g. 503, 429 with `retry-after`, 400. */
export interface ErrorReply {
  status: number;
  /** Default: `{"error":{"message":"mock error <status>","type":"mock","code":null}}`. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before replying (e.g. to exercise client timeouts). */
  delayMs?: number;
}

/** Exactly this body, for malformed-output tests. */
export interface RawReply {
  raw: string;
  /** Default 200. */
  status?: number;
  /** Default: text/event-stream for streamed requests, else application/json. */
  contentType?: string;
  delayMs?: number;
}

export type ScriptedReply = CompletionReply | ErrorReply | RawReply;
/** Called with the already-recorded request and its 0-based index among model requests. */
export type ScriptFn = (req: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;
export type Responder = ScriptedReply | ScriptFn;

export interface RecordedRequest {
  /** Which route it came on: /chat/completions or /responses. */
  wire: "chat" | "responses";
  /** The parsed JSON body, untouched. */
  body: Record<string, unknown>;
  model: string;
  stream: boolean;
  /** `messages` on the chat wire, `input` on the Responses wire. */
  messages: unknown[];
  tools?: unknown[];
  headers: Record<string, string | string[] | undefined>;
  /** performance.now() once the body was read. */
  receivedAt: number;
}

export interface MockServer {
  /** Base URL ending in /v1, for `new OpenAI({ baseURL })`. */
  url: string;
  /** Model requests (chat completions and Responses) in arrival order (other routes are not recorded). */
  requests: RecordedRequest[];
  /** TCP connections accepted so far (keep-alive reuse keeps this at 1 for consecutive requests). */
  connections: number;
  /** Requests (any route) whose response has neither finished nor been disconnected. */
  inFlight: number;
  maxInFlight: number;
  /** Requests whose client disconnected before the reply ended. */
  aborted: number;
  /** Stops listening and destroys open connections; idempotent. */
  close(): Promise<void>;
  /** Append scripted replies; they are served before a function script is consulted. */
  push(...r: Responder[]): void;
}

export interface MockServerOptions {
  /** Default 0: a random free port. */
  port?: number;
}

let callCounter = 0;
/** Process-wide, so ids never repeat within a conversation that spans several replies. */
function nextCallId(): string {
  callCounter += 1;
  return `call_${callCounter}`;
}

export function textReply(text: string, opts: Omit<CompletionReply, "content"> = {}): CompletionReply {
  return { ...opts, content: text };
}

export function toolReply(
  calls: { id?: string; name: string; args: object }[],
  opts: Omit<CompletionReply, "toolCalls"> = {},
): CompletionReply {
  const toolCalls = calls.map((c) => ({ id: c.id ?? nextCallId(), name: c.name, arguments: JSON.stringify(c.args) }));
  return { ...opts, toolCalls };
}

/** Parses an SSE body into its JSON payloads, skipping `[DONE]` and comment lines. */
export function sseParse(text: string): unknown[] {
  const out: unknown[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""))
      .join("\n");
    if (data === "" || data === "[DONE]") continue;
    out.push(JSON.parse(data));
  }
  return out;
}

export async function startMockServer(
  script: Responder[] | ScriptFn,
  opts: MockServerOptions = {},
): Promise<MockServer> {
  const queue: Responder[] = Array.isArray(script) ? [...script] : [];
  const fallback = Array.isArray(script) ? undefined : script;
  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // A bug in the mock itself: make it loud in the test rather than hang the client.
      if (!res.headersSent && !res.destroyed) sendJson(res, 500, errorBody(`mock server failed: ${String(err)}`));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    mock.inFlight += 1;
    mock.maxInFlight = Math.max(mock.maxInFlight, mock.inFlight);
    const abort = new AbortController();
    const ctx: RequestCtx = { res, signal: abort.signal, dropped: false };
    // 'close' fires both after a normal end and on a disconnect; only the latter leaves the
    // response unfinished. Aborting the controller cancels any pending delay or write.
    res.once("close", () => {
      mock.inFlight -= 1;
      if (!res.writableFinished && !ctx.dropped) mock.aborted += 1;
      abort.abort();
    });

    const rawBody = await readBody(req);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (req.method === "GET" && (path === "/v1/models" || path === "/models")) {
      sendJson(res, 200, {
        object: "list",
        data: [{ id: "mock-model", object: "model", created: 0, owned_by: "mock" }],
      });
      return;
    }
    const wire = path === "/v1/responses" || path === "/responses" ? "responses" : "chat";
    if (req.method !== "POST" || (wire === "chat" && path !== "/v1/chat/completions" && path !== "/chat/completions")) {
      sendJson(res, 404, errorBody(`mock: no route for ${req.method ?? "?"} ${path}`, "invalid_request_error"));
      return;
    }

    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      sendJson(res, 400, errorBody("mock: request body is not JSON", "invalid_request_error"));
      return;
    }
    if (!isRecord(body)) {
      sendJson(res, 400, errorBody("mock: request body is not a JSON object", "invalid_request_error"));
      return;
    }

    const messages = wire === "responses" ? body.input : body.messages;
    const recorded: RecordedRequest = {
      wire,
      body,
      model: typeof body.model === "string" ? body.model : "",
      stream: body.stream === true,
      messages: Array.isArray(messages) ? messages : typeof messages === "string" ? [messages] : [],
      headers: { ...req.headers },
      receivedAt: performance.now(),
    };
    if (Array.isArray(body.tools)) recorded.tools = body.tools;
    const index = mock.requests.length;
    mock.requests.push(recorded);
    // Taken synchronously, so concurrent requests get replies in arrival order.
    const responder = queue.shift() ?? fallback;

    let reply: ScriptedReply;
    if (responder === undefined) {
      reply = { status: 500, body: errorBody(`mock script exhausted (no reply for request #${index + 1})`) };
    } else if (typeof responder === "function") {
      try {
        reply = await responder(recorded, index);
      } catch (err) {
        reply = { status: 500, body: errorBody(`mock responder threw: ${String(err)}`) };
      }
    } else {
      reply = responder;
    }
    if (ctx.signal.aborted) return;
    await serve(ctx, reply, recorded, rawBody, index);
  }

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(opts.port ?? 0, "127.0.0.1", () => {
      http.off("error", reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  http.on("connection", () => {
    mock.connections += 1;
  });

  let closing: Promise<void> | undefined;
  const mock: MockServer = {
    url: `http://127.0.0.1:${port}/v1`,
    requests: [],
    connections: 0,
    inFlight: 0,
    maxInFlight: 0,
    aborted: 0,
    push: (...r) => {
      queue.push(...r);
    },
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        http.close((err) => (err ? reject(err) : resolve()));
        // SDK clients keep connections alive; without this close() waits for their timeout.
        http.closeAllConnections();
      });
      return closing;
    },
  };
  return mock;
}

export interface RequestCtx {
  res: ServerResponse;
  /** Aborted once the response closed, for whatever reason. */
  signal: AbortSignal;
  /** Set before a deliberate drop, so it is not mistaken for a client abort. */
  dropped: boolean;
}

async function serve(
  ctx: RequestCtx,
  reply: ScriptedReply,
  req: RecordedRequest,
  rawBody: string,
  index: number,
): Promise<void> {
  if (reply.delayMs !== undefined && !(await sleep(reply.delayMs, ctx.signal))) return;
  if ("raw" in reply) {
    const contentType = reply.contentType ?? (req.stream ? "text/event-stream" : "application/json");
    ctx.res.writeHead(reply.status ?? 200, { "content-type": contentType });
    ctx.res.end(reply.raw);
  } else if ("status" in reply) {
    sendJson(ctx.res, reply.status, reply.body ?? errorBody(`mock error ${reply.status}`), reply.headers);
  } else if (req.wire === "responses") {
    if (req.stream) await streamResponse(ctx, reply, req, rawBody, index);
    else serveResponseObject(ctx, reply, req, rawBody, index);
  } else if (req.stream) {
    await streamCompletion(ctx, reply, req, rawBody, index);
  } else {
    sendJson(ctx.res, 200, completionObject(reply, req, rawBody, index));
  }
}

export interface ResolvedReply {
  content: string;
  reasoning: string;
  calls: { id: string; name: string; arguments: string }[];
  finishReason: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export function resolveReply(reply: CompletionReply, rawBody: string): ResolvedReply {
  const calls = (reply.toolCalls ?? []).map((c) => ({
    id: c.id ?? nextCallId(),
    name: c.name,
    arguments: c.arguments,
  }));
  const content = reply.content ?? "";
  const argsChars = calls.reduce((n, c) => n + c.arguments.length, 0);
  const prompt = reply.usage?.prompt ?? Math.max(1, Math.ceil(rawBody.length / 4));
  const completion = reply.usage?.completion ?? Math.max(1, Math.ceil((content.length + argsChars) / 4));
  return {
    content,
    reasoning: reply.reasoning ?? "",
    calls,
    finishReason: reply.finishReason ?? (calls.length > 0 ? "tool_calls" : "stop"),
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

function completionObject(reply: CompletionReply, req: RecordedRequest, rawBody: string, index: number): unknown {
  const r = resolveReply(reply, rawBody);
  const message: Record<string, unknown> = {
    role: "assistant",
    // The real API sends null content on a tool-call-only turn; clients must cope with that.
    content: r.calls.length > 0 && reply.content === undefined ? null : r.content,
    refusal: null,
  };
  if (r.reasoning !== "") message.reasoning_content = r.reasoning;
  if (r.calls.length > 0) {
    message.tool_calls = r.calls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return {
    id: `chatcmpl-mock-${index + 1}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: req.model || "mock-model",
    choices: [{ index: 0, message, logprobs: null, finish_reason: r.finishReason }],
    usage: r.usage,
  };
}

/** One SSE chunk to send, with the characters it carries (for tokens-per-second pacing). */
export interface PlannedChunk {
  payload: Record<string, unknown>;
  chars: number;
}

function planChunks(reply: CompletionReply, req: RecordedRequest, rawBody: string, index: number): PlannedChunk[] {
  const r = resolveReply(reply, rawBody);
  const size = Math.max(1, reply.chunkSize ?? 8);
  const head = {
    id: `chatcmpl-mock-${index + 1}`,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: req.model || "mock-model",
  };
  const chunk = (delta: Record<string, unknown>, chars: number, finish: string | null = null): PlannedChunk => ({
    payload: { ...head, choices: [{ index: 0, delta, finish_reason: finish }] },
    chars,
  });

  const out: PlannedChunk[] = [chunk({ role: "assistant", content: "" }, 0)];
  for (const piece of split(r.reasoning, size)) out.push(chunk({ reasoning_content: piece }, piece.length));
  for (const piece of split(r.content, size)) out.push(chunk({ content: piece }, piece.length));
  r.calls.forEach((c, i) => {
    const header = { index: i, id: c.id, type: "function", function: { name: c.name, arguments: "" } };
    out.push(chunk({ tool_calls: [header] }, c.name.length));
    // Real providers fragment arguments arbitrarily; at least two pieces make clients reassemble.
    const argSize = c.arguments.length > 1 ? Math.min(size, Math.ceil(c.arguments.length / 2)) : size;
    for (const piece of split(c.arguments, argSize)) {
      out.push(chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] }, piece.length));
    }
  });
  out.push(chunk({}, 0, r.finishReason));
  const streamOptions = req.body.stream_options;
  if (isRecord(streamOptions) && streamOptions.include_usage === true) {
    out.push({ payload: { ...head, choices: [], usage: r.usage }, chars: 0 });
  }
  return out;
}

async function streamCompletion(
  ctx: RequestCtx,
  reply: CompletionReply,
  req: RecordedRequest,
  rawBody: string,
  index: number,
): Promise<void> {
  const chunks = planChunks(reply, req, rawBody, index);
  ctx.res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  ctx.res.flushHeaders();
  const drop = reply.dropAfterChunks;
  // An endless stream never reaches the finish chunk: everything from it on is replaced.
  const planned = reply.endless
    ? chunks.slice(
        0,
        chunks.findIndex((c) => chunkFinishes(c)),
      )
    : chunks;
  for (const [i, c] of planned.entries()) {
    if (drop !== undefined && i >= drop) return dropConnection(ctx);
    if (reply.trickleAfterChunks === i) return trickle(ctx, reply.keepAliveMs ?? 20);
    if (reply.hangAfterChunks === i) return;
    if (i > 0 && !(await sleep(pace(reply, c.chars), ctx.signal))) return;
    if (!(await write(ctx, `data: ${JSON.stringify(c.payload)}\n\n`))) return;
  }
  if (drop !== undefined) return dropConnection(ctx);
  if (reply.trickleAfterChunks !== undefined) return trickle(ctx, reply.keepAliveMs ?? 20);
  if (reply.hangAfterChunks !== undefined) return;
  if (reply.endless) return endlessStream(ctx, reply, planned[0]!.payload);
  if (!(await write(ctx, "data: [DONE]\n\n"))) return;
  ctx.res.end();
}

function chunkFinishes(c: PlannedChunk): boolean {
  const choices = c.payload.choices;
  return Array.isArray(choices) && isRecord(choices[0]) && typeof choices[0].finish_reason === "string";
}

/** Keep-alive comments until the client goes away: bytes arrive, but never any content. */
export async function trickle(ctx: RequestCtx, everyMs: number): Promise<void> {
  while (await write(ctx, ": keep-alive\n\n")) {
    if (!(await sleep(everyMs, ctx.signal))) return;
  }
}

/** Content (or tool-call arguments) forever, each write awaited (the client's reading paces it). */
async function endlessStream(ctx: RequestCtx, reply: CompletionReply, head: Record<string, unknown>): Promise<void> {
  const piece = "x".repeat(Math.max(1, reply.chunkSize ?? 4096));
  const delta =
    reply.endless === "arguments" ? { tool_calls: [{ index: 0, function: { arguments: piece } }] } : { content: piece };
  const line = `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
  while (await write(ctx, line)) {
    // Lets the event loop see a client disconnect between writes.
    if (!(await sleep(0, ctx.signal))) return;
  }
}

export function pace(reply: CompletionReply, chars: number): number {
  if (reply.chunkDelayMs !== undefined) return reply.chunkDelayMs;
  if (reply.tokensPerSecond !== undefined && reply.tokensPerSecond > 0) {
    return (Math.ceil(chars / 4) * 1000) / reply.tokensPerSecond;
  }
  return 0;
}

export function dropConnection(ctx: RequestCtx): void {
  ctx.dropped = true;
  ctx.res.destroy();
}

/** Resolves true once the data was handed to the socket, false if the response closed first
 *  (awaiting the callback also gives us backpressure for free). */
export function write(ctx: RequestCtx, text: string): Promise<boolean> {
  if (ctx.signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(false);
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    ctx.res.write(text, (err) => {
      ctx.signal.removeEventListener("abort", onAbort);
      resolve(!err);
    });
  });
}

/** Resolves true after `ms`, or false as soon as `signal` aborts, so delays are cancellable. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Consecutive pieces of at most `size` characters; none for an empty string. */
export function split(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (b: Buffer) => parts.push(b));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function errorBody(message: string, type = "mock"): { error: { message: string; type: string; code: null } } {
  return { error: { message, type, code: null } };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

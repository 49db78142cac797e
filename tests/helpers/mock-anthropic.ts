// Owns the Anthropic Messages mock model server for the end-to-end tests: the scripted replies of
// mock-openai.ts (textReply, toolReply, error replies) served on POST /v1/messages in the exact
// Messages wire format (event: + data: SSE lines), with a simulated prompt cache that honours the
// request's cache_control breakpoints, every request recorded and connections counted.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { CompletionReply, ErrorReply, RawReply } from "./mock-openai.js";

export { textReply, toolReply } from "./mock-openai.js";

/**
 * A successful message; textReply/toolReply build one. Of CompletionReply, `reasoning` becomes one
 * signed thinking block, `usage.prompt` the uncached input tokens; finishReason, tokensPerSecond and
 * the trickle/endless options are not spoken here.
 */
export interface AnthropicReply extends Omit<CompletionReply, "usage"> {
  /** Thinking blocks before the text, each with its signature (default `sig-<n>-<i>`). */
  thinking?: { text: string; signature?: string }[];
  /** Redacted thinking blocks (their opaque data) after the thinking ones. */
  redacted?: string[];
  /** Default: "tool_use" with tool calls, else "end_turn". */
  stopReason?: string;
  /** Default: the simulated cache's figures and (content + arguments chars) / 4 output tokens. */
  usage?: { prompt: number; completion: number; cacheRead?: number; cacheWrite?: number };
  /** Destroy the socket after this many SSE events (a dropped connection). */
  dropAfterEvents?: number;
  /** Send nothing more after this many events and never finish (a hung provider). */
  hangAfterEvents?: number;
  /** Send an `event: error` after this many events, e.g. {type: "overloaded_error"}. */
  errorAfterEvents?: { after: number; type: string; message?: string };
}

export type AnthropicScripted = AnthropicReply | ErrorReply | RawReply;
export type AnthropicScriptFn = (
  req: AnthropicRequest,
  index: number,
) => AnthropicScripted | Promise<AnthropicScripted>;
export type AnthropicResponder = AnthropicScripted | AnthropicScriptFn;

export interface AnthropicRequest {
  body: Record<string, unknown>;
  model: string;
  stream: boolean;
  messages: { role: string; content: unknown }[];
  system?: unknown;
  tools?: unknown[];
  headers: Record<string, string | string[] | undefined>;
  /** performance.now() once the body was read. */
  receivedAt: number;
  /** What the simulated cache made of this request, in tokens (characters / 4). */
  cache: { read: number; write: number; total: number };
}

export interface AnthropicMock {
  /** The base URL, as Anthropic's (the SDK appends /v1/messages). */
  url: string;
  requests: AnthropicRequest[];
  inFlight: number;
  /** Requests whose client disconnected before the reply ended. */
  aborted: number;
  /** Distinct TCP connections seen (keep-alive reuse keeps this at 1). */
  connections: number;
  push(...r: AnthropicResponder[]): void;
  close(): Promise<void>;
}

let counter = 0;
const next = () => ++counter;

const STATUS_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

/** The API's error body: {"type":"error","error":{"type","message"},"request_id"}. */
export function anthropicError(status: number, message = `mock error ${status}`): unknown {
  return {
    type: "error",
    error: { type: STATUS_TYPES[status] ?? "api_error", message },
    request_id: `req_mock${next()}`,
  };
}

export async function startAnthropicMock(script: AnthropicResponder[] | AnthropicScriptFn): Promise<AnthropicMock> {
  const queue: AnthropicResponder[] = Array.isArray(script) ? [...script] : [];
  const fallback = Array.isArray(script) ? undefined : script;
  const sockets = new Set<Socket>();
  const cached = new Set<string>();
  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed)
        sendJson(res, 500, anthropicError(500, `mock server failed: ${String(err)}`));
      else res.destroy();
    });
  });
  http.on("connection", (s) => {
    sockets.add(s);
    mock.connections += 1;
    s.once("close", () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    mock.inFlight += 1;
    const abort = new AbortController();
    const ctx: Ctx = { res, signal: abort.signal, dropped: false };
    res.once("close", () => {
      mock.inFlight -= 1;
      if (!res.writableFinished && !ctx.dropped) mock.aborted += 1;
      abort.abort();
    });
    const raw = await readBody(req);
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "POST" || path !== "/v1/messages")
      return sendJson(res, 404, anthropicError(404, `mock: no route for ${req.method} ${path}`));
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return sendJson(res, 400, anthropicError(400, "mock: request body is not JSON"));
    }
    if (!isRecord(body)) return sendJson(res, 400, anthropicError(400, "mock: request body is not an object"));
    // The API refuses these; a mock that accepted them would hide a client bug.
    const invalid = validate(body);
    if (invalid) return sendJson(res, 400, anthropicError(400, invalid));
    const recorded: AnthropicRequest = {
      body,
      model: String(body.model ?? ""),
      stream: body.stream === true,
      messages: body.messages as AnthropicRequest["messages"],
      headers: { ...req.headers },
      receivedAt: performance.now(),
      cache: simulateCache(body, cached),
    };
    if (body.system !== undefined) recorded.system = body.system;
    if (Array.isArray(body.tools)) recorded.tools = body.tools;
    const index = mock.requests.length;
    mock.requests.push(recorded);
    const responder = queue.shift() ?? fallback;
    let reply: AnthropicScripted;
    if (responder === undefined)
      reply = { status: 500, body: anthropicError(500, `mock script exhausted (no reply for request #${index + 1})`) };
    else if (typeof responder === "function") reply = await responder(recorded, index);
    else reply = responder;
    if (reply.delayMs !== undefined && !(await sleep(reply.delayMs, ctx.signal))) return;
    if ("raw" in reply) {
      res.writeHead(reply.status ?? 200, {
        "content-type": reply.contentType ?? (recorded.stream ? "text/event-stream" : "application/json"),
      });
      res.end(reply.raw);
    } else if ("status" in reply) {
      sendJson(res, reply.status, reply.body ?? anthropicError(reply.status), reply.headers);
    } else if (recorded.stream) {
      await stream(ctx, reply, recorded, index);
    } else {
      sendJson(res, 200, wholeMessage(reply, recorded, index));
    }
  }

  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const mock: AnthropicMock = {
    url: `http://127.0.0.1:${port}`,
    requests: [],
    inFlight: 0,
    aborted: 0,
    connections: 0,
    push: (...r) => void queue.push(...r),
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        http.close((err) => (err ? reject(err) : resolve()));
        http.closeAllConnections();
      });
      return closing;
    },
  };
  return mock;
}

/** The checks of the real API that a converter can get wrong. */
function validate(body: Record<string, unknown>): string | null {
  if (typeof body.max_tokens !== "number") return "max_tokens: Field required";
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return "messages: at least one message is required";
  let prev = "";
  let breakpoints = countBreakpoints(body.system) + countBreakpoints(body.tools);
  for (const [i, m] of messages.entries()) {
    if (!isRecord(m)) return `messages.${i}: not an object`;
    if (i === 0 && m.role !== "user") return 'messages: first message must use the "user" role';
    if (m.role === prev) return `messages: roles must alternate between "user" and "assistant" (messages.${i})`;
    prev = String(m.role);
    breakpoints += countBreakpoints(m.content);
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content)
      if (isRecord(b) && b.type === "text" && String(b.text).trim() === "")
        return `messages.${i}: text content blocks must contain non-whitespace text`;
  }
  if (breakpoints > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`;
  const thinking = body.thinking;
  if (isRecord(thinking) && thinking.type === "enabled") {
    const budget = Number(thinking.budget_tokens);
    if (!(budget >= 1024 && budget < Number(body.max_tokens)))
      return "thinking.budget_tokens: must be at least 1024 and less than max_tokens";
    if (body.temperature !== undefined && body.temperature !== 1)
      return "temperature may only be set to 1 when thinking is enabled";
    // Within a tool loop, the assistant step must come back with its thinking first.
    const last = messages[messages.length - 1] as Record<string, unknown>;
    const step = messages[messages.length - 2] as Record<string, unknown> | undefined;
    const inLoop = Array.isArray(last.content) && last.content.some((b) => isRecord(b) && b.type === "tool_result");
    const first =
      step && Array.isArray(step.content) ? (step.content[0] as Record<string, unknown> | undefined) : undefined;
    if (inLoop && step?.role === "assistant" && first?.type !== "thinking" && first?.type !== "redacted_thinking") {
      return `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first?.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`;
    }
  }
  return null;
}

function countBreakpoints(v: unknown): number {
  if (!Array.isArray(v)) return 0;
  return v.filter((b) => isRecord(b) && b.cache_control !== undefined).length;
}

/**
 * A prompt cache like the API's: the request's prefix (tools, system, messages, in that order) up
 * to each breakpoint is written; the longest prefix written by an earlier request is read.
 */
function simulateCache(body: Record<string, unknown>, cached: Set<string>): AnthropicRequest["cache"] {
  const blocks: unknown[] = [
    ...asArray(body.tools),
    ...(typeof body.system === "string" ? [body.system] : asArray(body.system)),
  ];
  for (const m of asArray(body.messages))
    if (isRecord(m)) blocks.push(...(Array.isArray(m.content) ? m.content : [m.content]));
  const strip = (b: unknown) => (isRecord(b) ? JSON.stringify({ ...b, cache_control: undefined }) : JSON.stringify(b));
  let prefix = "";
  let read = 0;
  const writes: string[] = [];
  for (const b of blocks) {
    prefix += strip(b);
    if (!isRecord(b) || b.cache_control === undefined) continue;
    if (cached.has(prefix)) read = prefix.length;
    writes.push(prefix);
  }
  const total = prefix.length;
  const written = writes.length ? writes[writes.length - 1]!.length : 0;
  for (const w of writes) cached.add(w);
  const tokens = (chars: number) => Math.ceil(chars / 4);
  return { read: tokens(read), write: tokens(Math.max(0, written - read)), total: Math.max(1, tokens(total)) };
}

interface Ctx {
  res: ServerResponse;
  signal: AbortSignal;
  dropped: boolean;
}

interface Resolved {
  thinking: { text: string; signature: string }[];
  redacted: string[];
  content: string;
  calls: { id: string; name: string; arguments: string }[];
  stop: string;
  usage: {
    input_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens: number;
    output_tokens: number;
  };
}

function resolve(reply: AnthropicReply, req: AnthropicRequest, index: number): Resolved {
  const thinking = [...(reply.reasoning ? [{ text: reply.reasoning }] : []), ...(reply.thinking ?? [])].map((t, i) => ({
    text: t.text,
    signature: "signature" in t && t.signature ? t.signature : `sig-${index + 1}-${i}`,
  }));
  const calls = (reply.toolCalls ?? []).map((c) => ({
    id: c.id ?? `toolu_mock${next()}`,
    name: c.name,
    arguments: c.arguments,
  }));
  const content = reply.content ?? "";
  const output = Math.max(1, Math.ceil((content.length + calls.reduce((n, c) => n + c.arguments.length, 0)) / 4));
  const u = reply.usage;
  const usage = u
    ? {
        input_tokens: u.prompt,
        cache_read_input_tokens: u.cacheRead ?? 0,
        cache_creation_input_tokens: u.cacheWrite ?? 0,
        output_tokens: u.completion,
      }
    : {
        input_tokens: Math.max(0, req.cache.total - req.cache.read - req.cache.write),
        cache_read_input_tokens: req.cache.read,
        cache_creation_input_tokens: req.cache.write,
        output_tokens: output,
      };
  return {
    thinking,
    redacted: reply.redacted ?? [],
    content,
    calls,
    stop: reply.stopReason ?? (calls.length ? "tool_use" : "end_turn"),
    usage,
  };
}

function wholeMessage(reply: AnthropicReply, req: AnthropicRequest, index: number): unknown {
  const r = resolve(reply, req, index);
  const content: unknown[] = [
    ...r.thinking.map((t) => ({ type: "thinking", thinking: t.text, signature: t.signature })),
    ...r.redacted.map((data) => ({ type: "redacted_thinking", data })),
    ...(r.content ? [{ type: "text", text: r.content }] : []),
    ...r.calls.map((c) => ({
      type: "tool_use",
      id: c.id,
      name: c.name,
      input: JSON.parse(c.arguments || "{}") as unknown,
    })),
  ];
  return {
    id: `msg_mock${index + 1}`,
    type: "message",
    role: "assistant",
    model: req.model,
    content,
    stop_reason: r.stop,
    stop_sequence: null,
    usage: r.usage,
  };
}

/** The event sequence of a streamed message, as the API sends it. */
function plan(reply: AnthropicReply, req: AnthropicRequest, index: number): { event: string; data: unknown }[] {
  const r = resolve(reply, req, index);
  const size = Math.max(1, reply.chunkSize ?? 8);
  const out: { event: string; data: unknown }[] = [];
  const ev = (event: string, data: Record<string, unknown>) => out.push({ event, data: { type: event, ...data } });
  ev("message_start", {
    message: {
      id: `msg_mock${index + 1}`,
      type: "message",
      role: "assistant",
      model: req.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...r.usage, output_tokens: 1 },
    },
  });
  let i = 0;
  for (const t of r.thinking) {
    ev("content_block_start", { index: i, content_block: { type: "thinking", thinking: "", signature: "" } });
    if (i === 0) ev("ping", {});
    for (const piece of split(t.text, size))
      ev("content_block_delta", { index: i, delta: { type: "thinking_delta", thinking: piece } });
    ev("content_block_delta", { index: i, delta: { type: "signature_delta", signature: t.signature } });
    ev("content_block_stop", { index: i++ });
  }
  for (const data of r.redacted) {
    ev("content_block_start", { index: i, content_block: { type: "redacted_thinking", data } });
    ev("content_block_stop", { index: i++ });
  }
  if (r.content) {
    ev("content_block_start", { index: i, content_block: { type: "text", text: "" } });
    if (i === 0) ev("ping", {});
    for (const piece of split(r.content, size))
      ev("content_block_delta", { index: i, delta: { type: "text_delta", text: piece } });
    ev("content_block_stop", { index: i++ });
  }
  for (const c of r.calls) {
    ev("content_block_start", { index: i, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } });
    // The API opens with an empty partial_json, then fragments the input arbitrarily (at least two pieces here).
    ev("content_block_delta", { index: i, delta: { type: "input_json_delta", partial_json: "" } });
    const argSize = c.arguments.length > 1 ? Math.min(size, Math.ceil(c.arguments.length / 2)) : size;
    for (const piece of split(c.arguments, argSize))
      ev("content_block_delta", { index: i, delta: { type: "input_json_delta", partial_json: piece } });
    ev("content_block_stop", { index: i++ });
  }
  ev("message_delta", {
    delta: { stop_reason: r.stop, stop_sequence: null },
    usage: { output_tokens: r.usage.output_tokens },
  });
  ev("message_stop", {});
  return out;
}

async function stream(ctx: Ctx, reply: AnthropicReply, req: AnthropicRequest, index: number): Promise<void> {
  const events = plan(reply, req, index);
  ctx.res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "request-id": `req_mock${index + 1}`,
  });
  ctx.res.flushHeaders();
  for (const [i, e] of events.entries()) {
    if (reply.dropAfterEvents === i) {
      ctx.dropped = true;
      ctx.res.destroy();
      return;
    }
    if (reply.hangAfterEvents === i) return;
    if (reply.errorAfterEvents?.after === i) {
      const { type, message } = reply.errorAfterEvents;
      await write(
        ctx,
        `event: error\ndata: ${JSON.stringify({ type: "error", error: { type, message: message ?? type } })}\n\n`,
      );
      ctx.res.end();
      return;
    }
    if (i > 0 && reply.chunkDelayMs && !(await sleep(reply.chunkDelayMs, ctx.signal))) return;
    if (!(await write(ctx, `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`))) return;
  }
  ctx.res.end();
}

function write(ctx: Ctx, text: string): Promise<boolean> {
  if (ctx.signal.aborted) return Promise.resolve(false);
  return new Promise((done) => ctx.res.write(text, (err) => done(!err && !ctx.signal.aborted)));
}

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((done) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      done(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      done(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function split(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (b: Buffer) => parts.push(b));
    req.on("end", () => done(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

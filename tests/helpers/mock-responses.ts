// Owns the mock server's Responses API wire (POST /v1/responses): the same scripted replies as the
// chat-completions route, served as the real event sequence (response.created, in_progress, output
// items with their parts and deltas, response.completed with usage) or as one response object.
import {
  type CompletionReply,
  type PlannedChunk,
  type RecordedRequest,
  type RequestCtx,
  dropConnection,
  pace,
  resolveReply,
  sendJson,
  sleep,
  split,
  trickle,
  write,
} from "./mock-openai.js";

/** One planned SSE event of the Responses stream. */
interface PlannedEvent extends PlannedChunk {
  /** Set on the final event, which an endless stream never reaches. */
  final?: boolean;
}

interface OutputItems {
  items: Record<string, unknown>[];
  events: PlannedEvent[];
}

/** The output items of a reply and, in order, the stream events that build them. */
function outputOf(
  reply: CompletionReply,
  rawBody: string,
  index: number,
): { r: ReturnType<typeof resolveReply>; out: OutputItems } {
  const r = resolveReply(reply, rawBody);
  const size = Math.max(1, reply.chunkSize ?? 8);
  const out: OutputItems = { items: [], events: [] };
  const ev = (payload: Record<string, unknown>, chars = 0) => out.events.push({ payload, chars });
  const n = index + 1;
  if (r.reasoning !== "" || reply.encryptedReasoning !== undefined) {
    const output_index = out.items.length;
    const id = `rs_mock_${n}`;
    const summary = r.reasoning === "" ? [] : [{ type: "summary_text", text: r.reasoning }];
    ev({ type: "response.output_item.added", output_index, item: { id, type: "reasoning", summary: [] } });
    if (r.reasoning !== "") {
      const head = { item_id: id, output_index, summary_index: 0 };
      ev({ type: "response.reasoning_summary_part.added", ...head, part: { type: "summary_text", text: "" } });
      for (const piece of split(r.reasoning, size))
        ev({ type: "response.reasoning_summary_text.delta", ...head, delta: piece }, piece.length);
      ev({ type: "response.reasoning_summary_text.done", ...head, text: r.reasoning });
      ev({ type: "response.reasoning_summary_part.done", ...head, part: { type: "summary_text", text: r.reasoning } });
    }
    const item = {
      id,
      type: "reasoning",
      summary,
      ...(reply.encryptedReasoning !== undefined ? { encrypted_content: reply.encryptedReasoning } : {}),
    };
    ev({ type: "response.output_item.done", output_index, item });
    out.items.push(item);
  }
  if (r.content !== "" || r.calls.length === 0) {
    const output_index = out.items.length;
    const id = `msg_mock_${n}`;
    const head = { item_id: id, output_index, content_index: 0 };
    ev({
      type: "response.output_item.added",
      output_index,
      item: { id, type: "message", status: "in_progress", role: "assistant", content: [] },
    });
    ev({ type: "response.content_part.added", ...head, part: { type: "output_text", text: "", annotations: [] } });
    for (const piece of split(r.content, size))
      ev({ type: "response.output_text.delta", ...head, delta: piece, logprobs: [] }, piece.length);
    ev({ type: "response.output_text.done", ...head, text: r.content, logprobs: [] });
    const part = { type: "output_text", text: r.content, annotations: [] };
    ev({ type: "response.content_part.done", ...head, part });
    const item = { id, type: "message", status: "completed", role: "assistant", content: [part] };
    ev({ type: "response.output_item.done", output_index, item });
    out.items.push(item);
  }
  for (const c of r.calls) {
    const output_index = out.items.length;
    const id = `fc_mock_${n}_${output_index}`;
    const base = { id, type: "function_call", call_id: c.id, name: c.name };
    ev(
      { type: "response.output_item.added", output_index, item: { ...base, status: "in_progress", arguments: "" } },
      c.name.length,
    );
    // Real servers fragment arguments arbitrarily; at least two pieces make clients reassemble.
    const argSize = c.arguments.length > 1 ? Math.min(size, Math.ceil(c.arguments.length / 2)) : size;
    for (const piece of split(c.arguments, argSize))
      ev({ type: "response.function_call_arguments.delta", item_id: id, output_index, delta: piece }, piece.length);
    ev({
      type: "response.function_call_arguments.done",
      item_id: id,
      output_index,
      name: c.name,
      arguments: c.arguments,
    });
    const item = { ...base, status: "completed", arguments: c.arguments };
    ev({ type: "response.output_item.done", output_index, item });
    out.items.push(item);
  }
  return { r, out };
}

function responseObject(
  reply: CompletionReply,
  req: RecordedRequest,
  index: number,
  status: string,
  output: unknown[],
  usage: unknown,
): Record<string, unknown> {
  return {
    id: `resp_mock_${index + 1}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details:
      status === "incomplete"
        ? { reason: reply.finishReason === "content_filter" ? "content_filter" : "max_output_tokens" }
        : null,
    instructions: req.body.instructions ?? null,
    model: req.model || "mock-model",
    output,
    parallel_tool_calls: true,
    store: req.body.store ?? true,
    tools: req.body.tools ?? [],
    usage,
  };
}

function usageOf(reply: CompletionReply, r: ReturnType<typeof resolveReply>): Record<string, unknown> {
  return {
    input_tokens: r.usage.prompt_tokens,
    input_tokens_details: { cached_tokens: reply.usage?.cached ?? 0 },
    output_tokens: r.usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: reply.usage?.reasoning ?? 0 },
    total_tokens: r.usage.total_tokens,
  };
}

/** "length" and "content_filter" end a response as incomplete; anything else completes it. */
const statusOf = (reply: CompletionReply) =>
  reply.finishReason === "length" || reply.finishReason === "content_filter" ? "incomplete" : "completed";

/** A whole (non-streamed) Responses API reply. */
export function serveResponseObject(
  ctx: RequestCtx,
  reply: CompletionReply,
  req: RecordedRequest,
  rawBody: string,
  index: number,
): void {
  const { r, out } = outputOf(reply, rawBody, index);
  sendJson(ctx.res, 200, responseObject(reply, req, index, statusOf(reply), out.items, usageOf(reply, r)));
}

/** The Responses API event stream for one reply, with the same drop / trickle / hang / pacing options as the chat stream. */
export async function streamResponse(
  ctx: RequestCtx,
  reply: CompletionReply,
  req: RecordedRequest,
  rawBody: string,
  index: number,
): Promise<void> {
  const { r, out } = outputOf(reply, rawBody, index);
  const status = statusOf(reply);
  const shell = responseObject(reply, req, index, "in_progress", [], null);
  const events: PlannedEvent[] = [
    { payload: { type: "response.created", response: shell }, chars: 0 },
    { payload: { type: "response.in_progress", response: shell }, chars: 0 },
    ...out.events,
    {
      payload: {
        type: `response.${status}`,
        response: responseObject(reply, req, index, status, out.items, usageOf(reply, r)),
      },
      chars: 0,
      final: true,
    },
  ];
  ctx.res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  ctx.res.flushHeaders();
  const drop = reply.dropAfterChunks;
  // An endless stream never reaches its first done event: everything from it on is replaced.
  const endlessAt =
    reply.endless === "arguments"
      ? events.findIndex((e) => e.payload.type === "response.function_call_arguments.done")
      : events.findIndex((e) => e.payload.type === "response.output_text.done");
  const planned = reply.endless ? events.slice(0, endlessAt) : events;
  for (const [i, e] of planned.entries()) {
    if (drop !== undefined && i >= drop) return dropConnection(ctx);
    if (reply.trickleAfterChunks === i) return trickle(ctx, reply.keepAliveMs ?? 20);
    if (reply.hangAfterChunks === i) return;
    if (i > 0 && !(await sleep(pace(reply, e.chars), ctx.signal))) return;
    if (!(await write(ctx, sse({ ...e.payload, sequence_number: i })))) return;
  }
  if (drop !== undefined) return dropConnection(ctx);
  if (reply.trickleAfterChunks !== undefined) return trickle(ctx, reply.keepAliveMs ?? 20);
  if (reply.hangAfterChunks !== undefined) return;
  if (reply.endless) return endless(ctx, reply, planned.at(-1)?.payload);
  ctx.res.end();
}

function sse(payload: Record<string, unknown>): string {
  return `event: ${String(payload.type)}\ndata: ${JSON.stringify(payload)}\n\n`;
}

/** Text (or the last call's arguments) forever, each write awaited (the client's reading paces it). */
async function endless(
  ctx: RequestCtx,
  reply: CompletionReply,
  last: Record<string, unknown> | undefined,
): Promise<void> {
  const delta = "x".repeat(Math.max(1, reply.chunkSize ?? 4096));
  const type = reply.endless === "arguments" ? "response.function_call_arguments.delta" : "response.output_text.delta";
  const line = sse({ type, item_id: last?.item_id, output_index: last?.output_index ?? 0, content_index: 0, delta });
  while (await write(ctx, line)) {
    if (!(await sleep(0, ctx.signal))) return;
  }
}

// The bus as a trace (issue 32): invoke_agent per turn (a subagent's under the call that started
// it), chat per model request, execute_tool per call, after the OpenTelemetry GenAI semantic
// conventions; approvals, gate and sandbox refusals and compactions are span events. Pure over the
// API's Tracer: the SDK and exporter are wired in otel.ts.
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import { redact } from "../config/log.js";
import type { BusEvent, EventOf } from "../protocol/events.js";

/** Message content on spans is cut to this many characters (NANOHERMES_TELEMETRY_CONTENT=1). */
export const CONTENT_CAP = 4_000;

const W3C = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A W3C `traceparent` as a remote parent context, or null when it is malformed or all zeros. */
export function contextFromTraceparent(header: string): Context | null {
  const m = W3C.exec(header.trim().toLowerCase());
  if (!m || /^0+$/.test(m[1]!) || /^0+$/.test(m[2]!)) return null;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: m[1]!,
    spanId: m[2]!,
    traceFlags: Number.parseInt(m[3]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  });
}

/** `gen_ai.provider.name`: the preset when it names a known provider, else the wire's owner. */
function providerName(api: string, provider: string | undefined): string {
  if (provider === "azure") return "azure.ai.openai";
  if (provider) return provider;
  return api === "anthropic" ? "anthropic" : "openai";
}

function usageAttributes(usage: {
  prompt: number;
  completion: number;
  cachedPrompt?: number | undefined;
  cacheWrite?: number | undefined;
  reasoning?: number | undefined;
}): Attributes {
  return {
    "gen_ai.usage.input_tokens": usage.prompt,
    "gen_ai.usage.output_tokens": usage.completion,
    "gen_ai.usage.cache_read.input_tokens": usage.cachedPrompt ?? 0,
    "gen_ai.usage.cache_creation.input_tokens": usage.cacheWrite ?? 0,
    "gen_ai.usage.reasoning.output_tokens": usage.reasoning ?? 0,
  };
}

interface AgentSpan {
  span: Span;
  usage: { prompt: number; completion: number; cachedPrompt: number; cacheWrite: number; reasoning: number };
  open: Set<Span>;
}

/** What an observer of the spans may also want: the numbers metrics are made of. */
export interface SpanObserver {
  chat?(attrs: Attributes, durationS: number, usage: { input: number; output: number } | null): void;
  approval?(waitedS: number, decision: string): void;
  sandboxRefused?(cause: string): void;
  compacted?(savedTokens: number): void;
}

/** Contract: `onEvent` never throws on any valid bus event, in any order. */
export class SpanBuilder {
  private readonly conversations = new Map<string, string>();
  private readonly agentNames = new Map<string, string>();
  private readonly agents = new Map<string, AgentSpan>();
  private readonly chats = new Map<string, { span: Span; provider: string }>();
  private readonly tools = new Map<string, Span>();
  /** taskId/callId -> the call's span (a child's parentCallId, an MCP request's traceparent). */
  private readonly callsByTask = new Map<string, Span>();
  private readonly approvals = new Map<string, Span>();
  private readonly parents = new Map<string, Context>();

  constructor(
    private readonly tracer: Tracer,
    private readonly opts: { content: boolean; observer?: SpanObserver },
  ) {}

  /** The next turn of `taskId` continues the caller's trace (the daemon's `traceparent`). False: malformed. */
  continueTrace(taskId: string, traceparent: string): boolean {
    const parent = contextFromTraceparent(traceparent);
    if (parent) this.parents.set(taskId, parent);
    return parent !== null;
  }

  /** The `traceparent` of a running call's span (MCP requests carry it in `_meta`). */
  traceparentFor(taskId: string, callId: string): string | undefined {
    const span = this.callsByTask.get(`${taskId}/${callId}`);
    if (!span) return undefined;
    const c = span.spanContext();
    return `00-${c.traceId}-${c.spanId}-${(c.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, "0")}`;
  }

  private text(value: string): string {
    const clean = redact(value);
    return clean.length > CONTENT_CAP ? `${clean.slice(0, CONTENT_CAP)}…[truncated]` : clean;
  }

  private key(event: BusEvent): string {
    return `${event.taskId}/${event.agentId ?? ""}`;
  }

  private parentOf(event: BusEvent): Context {
    const agent = this.agents.get(this.key(event));
    return agent ? trace.setSpan(ROOT_CONTEXT, agent.span) : ROOT_CONTEXT;
  }

  /** When the event being handled happened (ms since the epoch): spans and their events are timed by it. */
  private at = 0;

  /** `at`: when the event happened (default now); events replayed later keep their own times. */
  onEvent(event: BusEvent, at: number = performance.timeOrigin + performance.now()): void {
    this.at = at;
    switch (event.type) {
      case "session.started":
        if (!event.agentId) this.conversations.set(event.taskId, event.sessionId);
        return;
      case "subagent.updated":
        this.agentNames.set(`${event.taskId}/${event.row.id}`, event.row.name);
        return;
      case "turn.started":
        return this.turnStarted(event);
      case "turn.completed":
        return this.turnCompleted(event);
      case "model.requested":
        return this.chatStarted(event);
      case "model.responded":
        return this.chatEnded(event);
      case "tool.started":
        this.tool(event, event.name, event.callId).setAttribute("nanohermes.tool.kind", event.kind);
        if (this.opts.content)
          this.tool(event, event.name, event.callId).setAttribute(
            "gen_ai.tool.call.arguments",
            this.text(JSON.stringify(event.args)),
          );
        return;
      case "gate.refused":
        this.tool(event, event.tool, event.callId).addEvent(
          "gate.refused",
          {
            "nanohermes.gate.cause": event.cause,
            "nanohermes.gate.reason": redact(event.reason),
          },
          this.at,
        );
        return;
      case "sandbox.refused":
        this.opts.observer?.sandboxRefused?.(event.cause);
        this.tool(event, event.tool, event.callId).addEvent(
          "sandbox.refused",
          {
            "nanohermes.sandbox.cause": event.cause,
            "nanohermes.sandbox.reason": redact(event.reason),
          },
          this.at,
        );
        return;
      case "approval.requested": {
        const span = this.tool(event, event.tool, event.callId);
        this.approvals.set(`${event.taskId}/${event.requestId}`, span);
        span.addEvent(
          "approval.requested",
          {
            "nanohermes.approval.request_id": event.requestId,
            "nanohermes.approval.reason": redact(event.reason),
          },
          this.at,
        );
        return;
      }
      case "approval.resolved": {
        const id = `${event.taskId}/${event.requestId}`;
        const span = this.approvals.get(id);
        this.approvals.delete(id);
        if (event.waitedMs !== undefined) this.opts.observer?.approval?.(event.waitedMs / 1000, event.decision);
        span?.addEvent(
          "approval.resolved",
          {
            "nanohermes.approval.request_id": event.requestId,
            "nanohermes.approval.decision": event.decision,
            ...(event.by ? { "nanohermes.approval.by": event.by } : {}),
            ...(event.waitedMs !== undefined ? { "nanohermes.approval.wait_ms": event.waitedMs } : {}),
          },
          this.at,
        );
        return;
      }
      case "tool.completed":
        return this.toolCompleted(event);
      case "context.compacting":
        this.agents.get(this.key(event))?.span.addEvent(
          "context.compacting",
          {
            "nanohermes.compaction.tokens_before": event.tokensBefore,
            "nanohermes.compaction.forced": event.forced,
          },
          this.at,
        );
        return;
      case "context.compacted":
        if (event.tokensBefore !== undefined && event.tokensAfter !== undefined)
          this.opts.observer?.compacted?.(event.tokensBefore - event.tokensAfter);
        this.agents.get(this.key(event))?.span.addEvent(
          "context.compacted",
          {
            "nanohermes.compaction.folded": event.folded,
            "nanohermes.compaction.kept": event.kept,
            "nanohermes.compaction.failed": event.failed,
            ...(event.tokensBefore !== undefined ? { "nanohermes.compaction.tokens_before": event.tokensBefore } : {}),
            ...(event.tokensAfter !== undefined ? { "nanohermes.compaction.tokens_after": event.tokensAfter } : {}),
          },
          this.at,
        );
        return;
      default:
        return;
    }
  }

  private turnStarted(event: EventOf<"turn.started">): void {
    const key = this.key(event);
    this.endAgent(key, "superseded");
    let parent = ROOT_CONTEXT;
    if (event.agentId && event.parentCallId) {
      const call = this.callsByTask.get(`${event.taskId}/${event.parentCallId}`);
      if (call) parent = trace.setSpan(ROOT_CONTEXT, call);
    } else if (!event.agentId) {
      parent = this.parents.get(event.taskId) ?? ROOT_CONTEXT;
      this.parents.delete(event.taskId);
    }
    const name = event.agentId ? (this.agentNames.get(key) ?? event.agentId) : "nanohermes";
    const conversation = this.conversations.get(event.taskId);
    const span = this.tracer.startSpan(
      `invoke_agent ${name}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: this.at,
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.name": name,
          "gen_ai.agent.id": event.agentId ?? "main",
          ...(conversation ? { "gen_ai.conversation.id": conversation } : {}),
          "nanohermes.task.id": event.taskId,
          "nanohermes.turn.id": event.turnId,
          ...(this.opts.content
            ? {
                "gen_ai.input.messages": JSON.stringify([
                  { role: "user", parts: [{ type: "text", content: this.text(event.prompt) }] },
                ]),
              }
            : {}),
        },
      },
      parent,
    );
    this.agents.set(key, {
      span,
      usage: { prompt: 0, completion: 0, cachedPrompt: 0, cacheWrite: 0, reasoning: 0 },
      open: new Set(),
    });
  }

  private turnCompleted(event: EventOf<"turn.completed">): void {
    const agent = this.agents.get(this.key(event));
    if (!agent) return;
    agent.span.setAttributes({
      ...usageAttributes(event.usage),
      "nanohermes.turn.reason": event.reason,
      "nanohermes.turn.steps": event.steps,
      ...(this.opts.content && event.response
        ? {
            "gen_ai.output.messages": JSON.stringify([
              { role: "assistant", parts: [{ type: "text", content: this.text(event.response) }] },
            ]),
          }
        : {}),
    });
    if (event.reason === "error" || event.reason === "max_iterations") {
      agent.span.setAttribute("error.type", event.reason);
      agent.span.setStatus({ code: SpanStatusCode.ERROR, ...(event.error ? { message: event.error } : {}) });
    }
    this.endAgent(this.key(event), event.reason);
  }

  /** Ends an agent span and whatever of it is still open (a stopped turn's request or call). */
  private endAgent(key: string, why: string): void {
    const agent = this.agents.get(key);
    if (!agent) return;
    for (const span of agent.open) {
      span.setAttribute("error.type", why);
      span.end(this.at);
    }
    agent.span.end(this.at);
    this.agents.delete(key);
  }

  private chatStarted(event: EventOf<"model.requested">): void {
    const provider = providerName(event.api, event.provider);
    const span = this.tracer.startSpan(
      `chat ${event.model}`,
      {
        kind: SpanKind.CLIENT,
        startTime: this.at,
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": provider,
          "gen_ai.request.model": event.model,
          "nanohermes.request.id": event.requestId,
          "nanohermes.request.attempt": event.attempt,
          "nanohermes.request.purpose": event.purpose,
        },
      },
      this.parentOf(event),
    );
    this.chats.set(`${this.key(event)}/${event.requestId}/${event.attempt}`, { span, provider });
    this.agents.get(this.key(event))?.open.add(span);
  }

  private chatEnded(event: EventOf<"model.responded">): void {
    const id = `${this.key(event)}/${event.requestId}/${event.attempt}`;
    const chat = this.chats.get(id);
    if (!chat) return;
    const { span, provider } = chat;
    this.chats.delete(id);
    this.agents.get(this.key(event))?.open.delete(span);
    const attrs: Attributes = {
      "gen_ai.response.model": event.model,
      ...(event.finishReason ? { "gen_ai.response.finish_reasons": [event.finishReason] } : {}),
      ...(event.usage ? usageAttributes(event.usage) : {}),
      ...(event.errorType ? { "error.type": event.errorType } : {}),
    };
    span.setAttributes(attrs);
    if (event.error) span.setStatus({ code: SpanStatusCode.ERROR, message: event.error });
    span.end(this.at);
    this.opts.observer?.chat?.(
      {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": provider,
        "gen_ai.request.model": event.model,
        "gen_ai.response.model": event.model,
        ...(event.errorType ? { "error.type": event.errorType } : {}),
      },
      event.durationMs / 1000,
      event.usage ? { input: event.usage.prompt, output: event.usage.completion } : null,
    );
  }

  /** The call's span, started at the first event that names it (a refused call has no tool.started). */
  private tool(event: BusEvent, name: string, callId: string): Span {
    const id = `${this.key(event)}/${callId}`;
    let span = this.tools.get(id);
    if (span) return span;
    span = this.tracer.startSpan(
      `execute_tool ${name}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: this.at,
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": name,
          "gen_ai.tool.call.id": callId,
          "gen_ai.tool.type": "function",
        },
      },
      this.parentOf(event),
    );
    this.tools.set(id, span);
    this.callsByTask.set(`${event.taskId}/${callId}`, span);
    this.agents.get(this.key(event))?.open.add(span);
    return span;
  }

  private toolCompleted(event: EventOf<"tool.completed">): void {
    const span = this.tool(event, event.name, event.callId);
    this.tools.delete(`${this.key(event)}/${event.callId}`);
    this.callsByTask.delete(`${event.taskId}/${event.callId}`);
    this.agents.get(this.key(event))?.open.delete(span);
    span.setAttributes({
      "nanohermes.tool.status": event.status,
      ...(event.kind ? { "nanohermes.tool.kind": event.kind } : {}),
      ...(event.gate ? { "nanohermes.gate.decision": event.gate } : {}),
      "nanohermes.sandbox.outcome": event.sandbox ?? "none",
      "nanohermes.tool.duration_ms": event.durationMs,
      ...(event.waitedMs !== undefined ? { "nanohermes.approval.wait_ms": event.waitedMs } : {}),
      ...(this.opts.content ? { "gen_ai.tool.call.result": this.text(event.forModel) } : {}),
    });
    if (event.status !== "ok") {
      span.setAttribute("error.type", event.status);
      span.setStatus({ code: SpanStatusCode.ERROR, message: redact(event.display) });
    }
    span.end(this.at);
  }
}

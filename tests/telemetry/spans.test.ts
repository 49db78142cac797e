// The bus as spans (src/telemetry/spans.ts), with the SDK's in-memory exporter: message content
// only when asked for, redacted and cut; a stopped turn's open request and call end with it;
// approvals are span events with the wait; a malformed traceparent is refused.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { expect, it } from "vitest";
import { registerSecret } from "../../src/config/log.js";
import type { BusEvent } from "../../src/protocol/events.js";
import { CONTENT_CAP, contextFromTraceparent, SpanBuilder } from "../../src/telemetry/spans.js";

function harness(content: boolean) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const spans = new SpanBuilder(provider.getTracer("test"), { content });
  const feed = (...events: BusEvent[]) => {
    for (const e of events) spans.onEvent(e);
  };
  return { exporter, feed, spans };
}

const SECRET = "sk-live-0123456789abcdef";
const usage = { prompt: 10, completion: 2 };

function turn(prompt: string, response: string): BusEvent[] {
  const t = { taskId: "t" };
  return [
    { type: "turn.started", ...t, turnId: "turn-1", prompt },
    { type: "model.requested", ...t, requestId: "r1", attempt: 1, model: "m", api: "chat", purpose: "step" },
    {
      type: "model.responded",
      ...t,
      requestId: "r1",
      attempt: 1,
      model: "m",
      durationMs: 5,
      finishReason: "tool_calls",
      usage,
    },
    {
      type: "tool.started",
      ...t,
      callId: "c1",
      name: "run_command",
      kind: "exec",
      args: { command: `echo ${SECRET}` },
      summary: "echo",
    },
    {
      type: "approval.requested",
      ...t,
      requestId: "q1",
      callId: "c1",
      tool: "run_command",
      kind: "exec",
      title: "Run",
      detail: "echo",
      reason: "asks",
    },
    { type: "approval.resolved", ...t, requestId: "q1", decision: "once", by: "user", waitedMs: 1234, callId: "c1" },
    {
      type: "tool.completed",
      ...t,
      callId: "c1",
      name: "run_command",
      status: "ok",
      forModel: "x".repeat(CONTENT_CAP + 50),
      display: "ok",
      durationMs: 3,
      gate: "approved",
    },
    { type: "turn.completed", ...t, turnId: "turn-1", reason: "completed", response, steps: 1, usage },
  ];
}

it("puts message content on spans only when asked for, redacted and cut to CONTENT_CAP", () => {
  registerSecret(SECRET);
  for (const content of [false, true]) {
    const h = harness(content);
    h.feed(...turn(`use ${SECRET} please`, "done"));
    const spans = h.exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === "invoke_agent nanohermes")!;
    const call = spans.find((s) => s.name === "execute_tool run_command")!;
    if (!content) {
      for (const s of spans)
        expect(
          Object.keys(s.attributes).filter((k) => /messages|arguments|result/.test(k)),
          s.name,
        ).toEqual([]);
      continue;
    }
    expect(String(root.attributes["gen_ai.input.messages"])).toContain("use [redacted] please");
    expect(String(root.attributes["gen_ai.output.messages"])).toContain("done");
    expect(String(call.attributes["gen_ai.tool.call.arguments"])).toBe('{"command":"echo [redacted]"}');
    const result = String(call.attributes["gen_ai.tool.call.result"]);
    expect(result.endsWith("…[truncated]")).toBe(true);
    expect(result.length).toBe(CONTENT_CAP + "…[truncated]".length);
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain(SECRET);
  }
});

it("records the approval on the call's span, with who answered and the wait", () => {
  const h = harness(false);
  h.feed(...turn("go", "done"));
  const call = h.exporter.getFinishedSpans().find((s) => s.name === "execute_tool run_command")!;
  expect(call.events.map((e) => e.name)).toEqual(["approval.requested", "approval.resolved"]);
  expect(call.events[1]!.attributes).toMatchObject({
    "nanohermes.approval.decision": "once",
    "nanohermes.approval.by": "user",
    "nanohermes.approval.wait_ms": 1234,
  });
  expect(call.attributes).toMatchObject({ "nanohermes.gate.decision": "approved", "nanohermes.tool.status": "ok" });
});

it("a stopped turn ends its open request and call with it, marked", () => {
  const h = harness(false);
  const t = { taskId: "t" };
  h.feed(
    { type: "turn.started", ...t, turnId: "turn-1", prompt: "go" },
    { type: "tool.started", ...t, callId: "c9", name: "run_command", kind: "exec", args: {}, summary: "" },
    { type: "model.requested", ...t, requestId: "r2", attempt: 1, model: "m", api: "chat", purpose: "step" },
    { type: "turn.completed", ...t, turnId: "turn-1", reason: "interrupted", response: "", steps: 1, usage },
  );
  const spans = h.exporter.getFinishedSpans();
  expect(spans.map((s) => s.name).sort()).toEqual(["chat m", "execute_tool run_command", "invoke_agent nanohermes"]);
  for (const s of spans.filter((x) => x.name !== "invoke_agent nanohermes"))
    expect(s.attributes["error.type"], s.name).toBe("interrupted");
});

it("continues only a well-formed traceparent", () => {
  const h = harness(false);
  expect(h.spans.continueTrace("t", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBe(true);
  expect(h.spans.continueTrace("t", "00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBe(false);
  expect(contextFromTraceparent("garbage")).toBeNull();
  h.feed({ type: "turn.started", taskId: "t", turnId: "turn-1", prompt: "go" });
  h.feed({ type: "turn.completed", taskId: "t", turnId: "turn-1", reason: "completed", response: "", steps: 0, usage });
  const root = h.exporter.getFinishedSpans()[0]!;
  expect(root.spanContext().traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  expect(root.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
});

// The OpenTelemetry side of telemetry (issue 32, item 2), loaded only when it is on: the trace SDK
// with a batch processor and the official OTLP/HTTP exporter (protobuf or JSON), fed by the bus
// through SpanBuilder, and the metrics (metrics.ts) fed by its observer hooks. Exports run in the background; nothing here waits on the collector but
// `shutdown`, and that only up to its cap.
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import { VERSION } from "../version.js";
import type { OtelOptions } from "./otel-options.js";
import { createMetrics } from "./metrics.js";
import { SpanBuilder } from "./spans.js";
import type { Telemetry } from "./start.js";

// Both exporters are imported statically: this whole module is a chunk loaded only when telemetry
// is on, and a dynamic import of a CommonJS package from a split chunk gives only its default export.
function exporterFor(options: OtelOptions): SpanExporter {
  const config = {
    url: options.tracesUrl,
    headers: options.headers,
    timeoutMillis: options.exportTimeoutMs,
    // No socket kept open after an export: an idle process (the one-shot run at its end) can exit.
    keepAlive: false,
  };
  return options.protocol === "http/json" ? new JsonTraceExporter(config) : new ProtoTraceExporter(config);
}

export async function createOtel(options: OtelOptions): Promise<Telemetry> {
  const exporter = exporterFor(options);
  const resource = resourceFromAttributes(options.resource);
  const metrics = createMetrics(options, resource);
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor(exporter, {
        scheduledDelayMillis: 1_000,
        exportTimeoutMillis: options.exportTimeoutMs,
        maxQueueSize: 4_096,
      }),
    ],
  });
  const spans = new SpanBuilder(provider.getTracer("nanohermes", VERSION), {
    content: options.content,
    observer: metrics.observer,
  });
  return {
    onEvent: (event, at) => spans.onEvent(event, at),
    continueTrace: (taskId, traceparent) => spans.continueTrace(taskId, traceparent),
    traceparentFor: (taskId, callId) => spans.traceparentFor(taskId, callId),
    shutdown: (capMs) => capped(Promise.allSettled([provider.shutdown(), metrics.shutdown()]), capMs),
  };
}

/** Resolves when `work` settles or after `ms`, whichever is first; never rejects. */
function capped(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}

// The metrics of telemetry (issue 32, item 2): the GenAI client histograms
// (gen_ai.client.token.usage, gen_ai.client.operation.duration) and NanoHermes's approval wait,
// sandbox refusals and compaction savings, fed by SpanBuilder's observer hooks and exported over
// OTLP/HTTP with the traces' protocol, endpoint and headers.
import type { Attributes } from "@opentelemetry/api";
import { OTLPMetricExporter as JsonMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtoMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import type { Resource } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { VERSION } from "../version.js";
import type { OtelOptions } from "./otel-options.js";
import type { SpanObserver } from "./spans.js";

/** The semantic conventions' advised buckets for token counts and for durations in seconds. */
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const SECOND_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

export interface Metrics {
  observer: SpanObserver;
  shutdown(): Promise<void>;
}

export function createMetrics(options: OtelOptions, resource: Resource): Metrics {
  const config = {
    url: options.metricsUrl,
    headers: options.headers,
    timeoutMillis: options.exportTimeoutMs,
    keepAlive: false,
  };
  const exporter = options.protocol === "http/json" ? new JsonMetricExporter(config) : new ProtoMetricExporter(config);
  const provider = new MeterProvider({
    resource,
    // Exported once a minute and at exit (shutdown collects a last time).
    readers: [
      new PeriodicExportingMetricReader({
        exporter,
        exportIntervalMillis: 60_000,
        exportTimeoutMillis: options.exportTimeoutMs,
      }),
    ],
  });
  const meter = provider.getMeter("nanohermes", VERSION);
  const tokens = meter.createHistogram("gen_ai.client.token.usage", {
    unit: "{token}",
    description: "Tokens used per model request, by gen_ai.token.type (input, output).",
    advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
  });
  const duration = meter.createHistogram("gen_ai.client.operation.duration", {
    unit: "s",
    description: "Duration of a model request attempt.",
    advice: { explicitBucketBoundaries: SECOND_BUCKETS },
  });
  const approvalWait = meter.createHistogram("nanohermes.approval.wait", {
    unit: "s",
    description: "How long an approval question waited for its answer.",
    advice: { explicitBucketBoundaries: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600] },
  });
  const refusals = meter.createCounter("nanohermes.sandbox.refusals", {
    unit: "{call}",
    description: "Tool calls the write boundary or the sandbox refused, by cause.",
  });
  const saved = meter.createCounter("nanohermes.compaction.saved_tokens", {
    unit: "{token}",
    description: "Estimated tokens a compaction took out of the context.",
  });
  const observer: SpanObserver = {
    chat: (attrs: Attributes, seconds, usage) => {
      duration.record(seconds, attrs);
      if (usage) {
        tokens.record(usage.input, { ...attrs, "gen_ai.token.type": "input" });
        tokens.record(usage.output, { ...attrs, "gen_ai.token.type": "output" });
      }
    },
    approval: (seconds, decision) => approvalWait.record(seconds, { "nanohermes.approval.decision": decision }),
    sandboxRefused: (cause) => refusals.add(1, { "nanohermes.sandbox.cause": cause }),
    compacted: (tokensSaved) => saved.add(Math.max(0, tokensSaved)),
  };
  return { observer, shutdown: () => provider.shutdown() };
}

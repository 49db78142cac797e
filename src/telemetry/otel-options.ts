// OpenTelemetry export settings from the standard OTEL_* variables (issue 32, item 2), read without
// loading any OpenTelemetry code: a bad value is a clear error before the turn, not a lost trace.
import { VERSION } from "../version.js";

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface OtelOptions {
  protocol: OtlpProtocol;
  /** Where spans are POSTed (…/v1/traces). */
  tracesUrl: string;
  /** Where metrics are POSTed (…/v1/metrics), with the traces' protocol and headers. */
  metricsUrl: string;
  headers: Record<string, string>;
  /** service.name, service.version and OTEL_RESOURCE_ATTRIBUTES. */
  resource: Record<string, string>;
  /** NANOHERMES_TELEMETRY_CONTENT: prompts, replies and tool arguments and results on spans (redacted, truncated). */
  content: boolean;
  /** One export may take this long (a collector that hangs costs at most this, in the background). */
  exportTimeoutMs: number;
}

/** The exporter's default endpoint (an OpenTelemetry Collector on this machine). */
export const DEFAULT_OTLP_ENDPOINT = "http://localhost:4318";

/** `k=v,k2=v2`, values percent-decoded (the OTEL_*_HEADERS and OTEL_RESOURCE_ATTRIBUTES format). */
export function parseKeyValues(text: string, variable: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(",")) {
    const item = raw.trim();
    if (!item) continue;
    const at = item.indexOf("=");
    if (at <= 0) throw new Error(`${variable}: "${item}" is not KEY=VALUE`);
    try {
      out[decodeURIComponent(item.slice(0, at).trim())] = decodeURIComponent(item.slice(at + 1).trim());
    } catch {
      throw new Error(`${variable}: "${item}" has a bad percent-encoding`);
    }
  }
  return out;
}

function checkedUrl(url: string, variable: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${variable}: "${url}" is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new Error(`${variable}: "${url}" must be http:// or https://`);
  return url;
}

/** Contract: throws an Error with one line naming the variable when one is unusable. */
export function otelOptions(env: NodeJS.ProcessEnv, content: boolean): OtelOptions {
  const protocolVar = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const protocol = (env[protocolVar] || "http/protobuf").trim();
  if (protocol !== "http/protobuf" && protocol !== "http/json")
    throw new Error(
      `${protocolVar}: "${protocol}" is not supported; use http/protobuf or http/json${protocol === "grpc" ? " (gRPC export is not built in)" : ""}`,
    );
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const root = checkedUrl(base || DEFAULT_OTLP_ENDPOINT, "OTEL_EXPORTER_OTLP_ENDPOINT").replace(/\/+$/, "");
  const tracesUrl = traces ? checkedUrl(traces, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") : `${root}/v1/traces`;
  const metrics = env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim();
  const metricsUrl = metrics ? checkedUrl(metrics, "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT") : `${root}/v1/metrics`;
  const headers = {
    ...parseKeyValues(env.OTEL_EXPORTER_OTLP_HEADERS ?? "", "OTEL_EXPORTER_OTLP_HEADERS"),
    ...parseKeyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? "", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"),
  };
  const resource = {
    "service.name": "nanohermes",
    "service.version": VERSION,
    ...parseKeyValues(env.OTEL_RESOURCE_ATTRIBUTES ?? "", "OTEL_RESOURCE_ATTRIBUTES"),
    ...(env.OTEL_SERVICE_NAME?.trim() ? { "service.name": env.OTEL_SERVICE_NAME.trim() } : {}),
  };
  return { protocol, tracesUrl, metricsUrl, headers, resource, content, exportTimeoutMs: 5_000 };
}

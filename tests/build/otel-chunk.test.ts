// Start-up weight of telemetry (issue 32, item 5): the OpenTelemetry SDK and exporters are one
// chunk, reached only by start.ts's dynamic import when telemetry is on; cli.js, the one-shot path,
// the daemon and the UI never load them statically.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { staticallyLoaded, type BuildMeta } from "../helpers/build-meta.js";

const dist = resolve(import.meta.dirname, "../../dist");

it("OpenTelemetry is bundled in a chunk no entry loads statically", () => {
  const meta = JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as BuildMeta;
  const chunkOf = (source: string) =>
    Object.entries(meta.outputs).find(([, o]) => Object.keys(o.inputs).includes(source))![0];
  const inputsOf = (from: string) =>
    new Set([...staticallyLoaded(meta, from)].flatMap((path) => Object.keys(meta.outputs[path]?.inputs ?? {})));
  const isOtel = (input: string) =>
    input.includes("node_modules/@opentelemetry/") ||
    ["src/telemetry/otel.ts", "src/telemetry/metrics.ts"].includes(input);
  for (const entry of [
    "src/cli.ts",
    "src/oneshot/run.ts",
    "src/daemon/run.ts",
    "src/ui/run.ts",
    "src/telemetry/start.ts",
  ]) {
    const loaded = [...inputsOf(chunkOf(entry))];
    expect(loaded.filter(isOtel), entry).toEqual([]);
  }
  // ...and it is there: the trace and metrics SDKs, their OTLP/HTTP exporters and the span builder, one dynamic import away from start.ts.
  const otel = chunkOf("src/telemetry/otel.ts");
  const withOtel = inputsOf(otel);
  for (const part of [
    "sdk-trace-base",
    "exporter-trace-otlp-http",
    "exporter-trace-otlp-proto",
    "sdk-metrics",
    "exporter-metrics-otlp-http",
    "exporter-metrics-otlp-proto",
    "resources",
    "api",
  ])
    expect(
      [...withOtel].some((i) => i.includes(`node_modules/@opentelemetry/${part}/`)),
      part,
    ).toBe(true);
  expect(withOtel.has("src/telemetry/spans.ts") && withOtel.has("src/telemetry/metrics.ts")).toBe(true);
  const start = meta.outputs[chunkOf("src/telemetry/start.ts")]!;
  expect(start.imports.some((i) => i.kind === "dynamic-import" && staticallyLoaded(meta, i.path).has(otel))).toBe(true);
});

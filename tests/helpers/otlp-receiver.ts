// A real OTLP/HTTP receiver for tests: a local server that takes POST /v1/traces and /v1/metrics in both
// protocols the exporter speaks (application/x-protobuf and application/json) and decodes them to
// one plain shape. The protobuf side is a small wire-format reader of the OTLP trace messages
// (opentelemetry-proto: trace/v1/trace.proto, common/v1/common.proto), no library.
import { createServer, type IncomingMessage, type Server } from "node:http";

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  /** "" for a root span. */
  parentSpanId: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code: number; message: string };
  resource: Record<string, unknown>;
  startNs: bigint;
  endNs: bigint;
}

/** One data point of a metric: a histogram's count and sum, or a sum's value. */
export interface ReceivedPoint {
  metric: string;
  unit: string;
  attributes: Record<string, unknown>;
  count?: number;
  sum?: number;
  value?: number;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Every data point of every metrics export, in order (cumulative: the last one per series counts). */
  points: ReceivedPoint[];
  /** Content types of the requests received, in order. */
  contentTypes: string[];
  close(): Promise<void>;
}

// ---- protobuf wire format ----
type Field = { no: number; wire: number; value: bigint | Uint8Array };

function* fields(buf: Uint8Array): Generator<Field> {
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[pos++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  const fixed = (n: number): bigint => {
    let v = 0n;
    for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(buf[pos + i]!);
    pos += n;
    return v;
  };
  while (pos < buf.length) {
    const key = Number(varint());
    const no = key >> 3;
    const wire = key & 7;
    if (wire === 0) yield { no, wire, value: varint() };
    else if (wire === 1) yield { no, wire, value: fixed(8) };
    else if (wire === 5) yield { no, wire, value: fixed(4) };
    else if (wire === 2) {
      const len = Number(varint());
      yield { no, wire, value: buf.subarray(pos, pos + len) };
      pos += len;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
}

const text = (v: bigint | Uint8Array) => Buffer.from(v as Uint8Array).toString("utf8");
const hex = (v: bigint | Uint8Array) => Buffer.from(v as Uint8Array).toString("hex");

function anyValue(buf: Uint8Array): unknown {
  for (const f of fields(buf)) {
    switch (f.no) {
      case 1:
        return text(f.value);
      case 2:
        return f.value === 1n;
      case 3:
        return Number(BigInt.asIntN(64, f.value as bigint));
      case 4:
        return Buffer.from(new BigUint64Array([f.value as bigint]).buffer).readDoubleLE(0);
      case 5:
        return [...fields(f.value as Uint8Array)].filter((v) => v.no === 1).map((v) => anyValue(v.value as Uint8Array));
    }
  }
  return null;
}

function keyValues(list: Uint8Array[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list) {
    let key = "";
    let value: unknown = null;
    for (const f of fields(kv)) {
      if (f.no === 1) key = text(f.value);
      if (f.no === 2) value = anyValue(f.value as Uint8Array);
    }
    out[key] = value;
  }
  return out;
}

function protoSpan(buf: Uint8Array, resource: Record<string, unknown>): ReceivedSpan {
  const span: ReceivedSpan = {
    name: "",
    traceId: "",
    spanId: "",
    parentSpanId: "",
    kind: 0,
    attributes: {},
    events: [],
    status: { code: 0, message: "" },
    resource,
    startNs: 0n,
    endNs: 0n,
  };
  const attrs: Uint8Array[] = [];
  for (const f of fields(buf)) {
    if (f.no === 1) span.traceId = hex(f.value);
    else if (f.no === 2) span.spanId = hex(f.value);
    else if (f.no === 4) span.parentSpanId = hex(f.value);
    else if (f.no === 5) span.name = text(f.value);
    else if (f.no === 6) span.kind = Number(f.value);
    else if (f.no === 7) span.startNs = f.value as bigint;
    else if (f.no === 8) span.endNs = f.value as bigint;
    else if (f.no === 9) attrs.push(f.value as Uint8Array);
    else if (f.no === 11) {
      let name = "";
      const eventAttrs: Uint8Array[] = [];
      for (const e of fields(f.value as Uint8Array)) {
        if (e.no === 2) name = text(e.value);
        if (e.no === 3) eventAttrs.push(e.value as Uint8Array);
      }
      span.events.push({ name, attributes: keyValues(eventAttrs) });
    } else if (f.no === 15)
      for (const s of fields(f.value as Uint8Array)) {
        if (s.no === 2) span.status.message = text(s.value);
        if (s.no === 3) span.status.code = Number(s.value);
      }
  }
  span.attributes = keyValues(attrs);
  return span;
}

function decodeProto(body: Buffer): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of fields(body)) {
    if (rs.no !== 1) continue;
    let resource: Record<string, unknown> = {};
    const scopes: Uint8Array[] = [];
    for (const f of fields(rs.value as Uint8Array)) {
      if (f.no === 1)
        resource = keyValues(
          [...fields(f.value as Uint8Array)].filter((a) => a.no === 1).map((a) => a.value as Uint8Array),
        );
      if (f.no === 2) scopes.push(f.value as Uint8Array);
    }
    for (const scope of scopes)
      for (const f of fields(scope)) if (f.no === 2) out.push(protoSpan(f.value as Uint8Array, resource));
  }
  return out;
}

// ---- OTLP/JSON ----
type JsonValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonValue[] };
};
type JsonKv = { key: string; value: JsonValue };

function jsonValue(v: JsonValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(jsonValue);
  return null;
}

const jsonKvs = (list: JsonKv[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));

/** OTLP/JSON ids are hex strings (the spec); base64 is accepted too, as older exporters sent it. */
function jsonId(id: string | undefined): string {
  if (!id) return "";
  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, "base64").toString("hex");
}

function decodeJson(body: Buffer): ReceivedSpan[] {
  // biome-ignore lint/suspicious/noExplicitAny: the OTLP/JSON document as received
  const doc = JSON.parse(body.toString("utf8")) as { resourceSpans?: any[] };
  const out: ReceivedSpan[] = [];
  for (const rs of doc.resourceSpans ?? []) {
    const resource = jsonKvs(rs.resource?.attributes);
    for (const scope of rs.scopeSpans ?? [])
      for (const s of scope.spans ?? [])
        out.push({
          name: s.name,
          traceId: jsonId(s.traceId),
          spanId: jsonId(s.spanId),
          parentSpanId: jsonId(s.parentSpanId),
          kind: s.kind ?? 0,
          attributes: jsonKvs(s.attributes),
          events: (s.events ?? []).map((e: { name: string; attributes?: JsonKv[] }) => ({
            name: e.name,
            attributes: jsonKvs(e.attributes),
          })),
          status: { code: s.status?.code ?? 0, message: s.status?.message ?? "" },
          resource,
          startNs: BigInt(s.startTimeUnixNano ?? 0),
          endNs: BigInt(s.endTimeUnixNano ?? 0),
        });
  }
  return out;
}

const double = (v: bigint | Uint8Array) => Buffer.from(new BigUint64Array([v as bigint]).buffer).readDoubleLE(0);

/** metrics/v1: ResourceMetrics(1) > ScopeMetrics(2) > Metric(2) { name 1, unit 3, sum 7, histogram 9 }. */
function decodeProtoMetrics(body: Buffer): ReceivedPoint[] {
  const out: ReceivedPoint[] = [];
  for (const rm of fields(body))
    for (const sm of fields(rm.value as Uint8Array))
      if (sm.no === 2)
        for (const m of fields(sm.value as Uint8Array))
          if (m.no === 2) {
            let metric = "";
            let unit = "";
            const data: { kind: number; buf: Uint8Array }[] = [];
            for (const f of fields(m.value as Uint8Array)) {
              if (f.no === 1) metric = text(f.value);
              if (f.no === 3) unit = text(f.value);
              if (f.no === 7 || f.no === 9) data.push({ kind: f.no, buf: f.value as Uint8Array });
            }
            for (const d of data)
              for (const dp of fields(d.buf))
                if (dp.no === 1) {
                  const attrs: Uint8Array[] = [];
                  const point: ReceivedPoint = { metric, unit, attributes: {} };
                  for (const f of fields(dp.value as Uint8Array)) {
                    // NumberDataPoint: attributes 7, as_double 4, as_int 6; HistogramDataPoint: attributes 9, count 4, sum 5.
                    if ((d.kind === 7 && f.no === 7) || (d.kind === 9 && f.no === 9)) attrs.push(f.value as Uint8Array);
                    if (d.kind === 7 && f.no === 4) point.value = double(f.value);
                    if (d.kind === 7 && f.no === 6) point.value = Number(BigInt.asIntN(64, f.value as bigint));
                    if (d.kind === 9 && f.no === 4) point.count = Number(f.value);
                    if (d.kind === 9 && f.no === 5) point.sum = double(f.value);
                  }
                  point.attributes = keyValues(attrs);
                  out.push(point);
                }
          }
  return out;
}

function decodeJsonMetrics(body: Buffer): ReceivedPoint[] {
  // biome-ignore lint/suspicious/noExplicitAny: the OTLP/JSON document as received
  const doc = JSON.parse(body.toString("utf8")) as { resourceMetrics?: any[] };
  const out: ReceivedPoint[] = [];
  for (const rm of doc.resourceMetrics ?? [])
    for (const sm of rm.scopeMetrics ?? [])
      for (const m of sm.metrics ?? []) {
        for (const dp of m.histogram?.dataPoints ?? [])
          out.push({
            metric: m.name,
            unit: m.unit ?? "",
            attributes: jsonKvs(dp.attributes),
            count: Number(dp.count),
            sum: dp.sum,
          });
        for (const dp of m.sum?.dataPoints ?? [])
          out.push({
            metric: m.name,
            unit: m.unit ?? "",
            attributes: jsonKvs(dp.attributes),
            value: dp.asDouble ?? Number(dp.asInt),
          });
      }
  return out;
}

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Starts the receiver on a free loopback port; `url` is its base (the exporter adds /v1/traces). */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedPoint[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    void body(req).then((data) => {
      const type = String(req.headers["content-type"] ?? "");
      contentTypes.push(type);
      if (req.method !== "POST" || (req.url !== "/v1/traces" && req.url !== "/v1/metrics")) {
        res.writeHead(404).end();
        return;
      }
      const json = type.includes("json");
      try {
        if (req.url === "/v1/metrics") points.push(...(json ? decodeJsonMetrics(data) : decodeProtoMetrics(data)));
        else spans.push(...(json ? decodeJson(data) : decodeProto(data)));
      } catch (error) {
        res.writeHead(400).end(String(error));
        return;
      }
      res.writeHead(200, { "Content-Type": type.includes("json") ? "application/json" : "application/x-protobuf" });
      res.end(type.includes("json") ? "{}" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    points,
    contentTypes,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

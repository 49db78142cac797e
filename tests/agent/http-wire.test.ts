// The HTTP/SSE wire against a real local server that writes its bytes in awkward pieces.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { endpointUrl, errorMessage, post, sseData, WireError } from "../../src/agent/http-wire.js";

let server: Server | undefined;
afterEach(() => new Promise<void>((res) => (server ? server.close(() => res()) : res())));

/** Serves `pieces` one write at a time, a few ms apart. */
async function serve(pieces: (string | Buffer)[], status = 200, headers: Record<string, string> = { "content-type": "text/event-stream" }): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(status, headers);
    let i = 0;
    const next = () => {
      if (i === pieces.length) return res.end();
      res.write(pieces[i++]);
      setTimeout(next, 2);
    };
    next();
  });
  await new Promise<void>((res) => server!.listen(0, "127.0.0.1", res));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function collect(baseUrl: string): Promise<string[]> {
  const signal = new AbortController().signal;
  const res = await post({ baseUrl, apiKey: "k", body: {}, signal, idleTimeoutMs: 5000, userAgent: "t" });
  const out: string[] = [];
  for await (const data of sseData(res, signal)) out.push(data);
  return out;
}

describe("server-sent events", () => {
  it("joins lines split across writes, handles CRLF, comments, missing spaces and multi-line data", async () => {
    const url = await serve([": keep-alive\r\n\r\n", "data: {\"a\"", ":1}\r\n\r", "\ndata:{\"b\":2}\n\n", "data: line1\ndata: line2\n\n", "data: [DONE]\n\n", "data: after-done\n\n"]);
    expect(await collect(url)).toEqual(['{"a":1}', '{"b":2}', "line1\nline2"]);
  });

  it("keeps a multi-byte character split across writes intact", async () => {
    const bytes = Buffer.from('data: {"t":"日本"}\n\n');
    const url = await serve([bytes.subarray(0, 13), bytes.subarray(13)]);
    expect(await collect(url)).toEqual(['{"t":"日本"}']);
  });

  it("turns an `event: error` payload into an error", async () => {
    const url = await serve(['data: {"x":1}\n\n', 'event: error\ndata: {"error":{"message":"overloaded"}}\n\n']);
    await expect(collect(url)).rejects.toMatchObject({ message: "overloaded" });
  });

  it("reports HTTP errors with the body's message, status and Retry-After", async () => {
    const url = await serve(['{"error":{"message":"slow down","type":"rate_limit"}}'], 429, { "content-type": "application/json", "retry-after": "2" });
    const err = (await collect(url).catch((e: unknown) => e)) as WireError;
    expect(err).toBeInstanceOf(WireError);
    expect([err.status, err.message, err.retryAfterMs]).toEqual([429, "429 slow down", 2000]);
  });

  it("aborts a request in flight", async () => {
    const url = await serve(Array.from({ length: 200 }, () => "data: {}\n\n"));
    const c = new AbortController();
    const res = await post({ baseUrl: url, apiKey: undefined, body: {}, signal: c.signal, idleTimeoutMs: 5000, userAgent: "t" });
    const seen: string[] = [];
    const run = (async () => {
      for await (const d of sseData(res, c.signal)) {
        seen.push(d);
        if (seen.length === 3) c.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ aborted: true });
    expect(seen.length).toBeLessThan(200);
  });

  it("times out a silent server", async () => {
    server = createServer(() => {});
    await new Promise<void>((res) => server!.listen(0, "127.0.0.1", res));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const err = await post({ baseUrl: url, apiKey: "k", body: {}, signal: new AbortController().signal, idleTimeoutMs: 200, userAgent: "t" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: "no response for 0 s", status: undefined });
    server.closeAllConnections();
  });
});

describe("connections", () => {
  it("reuses one keep-alive connection for consecutive streamed requests", async () => {
    const sockets = new Set<unknown>();
    server = createServer((req, res) => {
      sockets.add(req.socket);
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: {"n":1}\n\n');
      res.end("data: [DONE]\n\n");
    });
    await new Promise<void>((res) => server!.listen(0, "127.0.0.1", res));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    for (let i = 0; i < 5; i++) expect(await collect(url)).toEqual(['{"n":1}']);
    expect(sockets.size).toBe(1);
  });

  it("ends at [DONE] even when the server never ends the response", async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: {"n":1}\n\ndata: [DONE]\n\n');
      // ...and then nothing, ever.
    });
    await new Promise<void>((res) => server!.listen(0, "127.0.0.1", res));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    expect(await collect(url)).toEqual(['{"n":1}']);
    server.closeAllConnections();
  });
});

describe("helpers", () => {
  it("builds the endpoint from a base URL with or without a trailing slash", () => {
    expect(endpointUrl("http://h:1/v1/").href).toBe("http://h:1/v1/chat/completions");
    expect(endpointUrl(undefined).href).toBe("https://api.openai.com/v1/chat/completions");
  });

  it("extracts error messages from the shapes providers use", () => {
    expect(errorMessage('{"error":{"message":"m1"}}')).toBe("m1");
    expect(errorMessage('{"error":"m2"}')).toBe("m2");
    expect(errorMessage('{"message":"m3"}')).toBe("m3");
    expect(errorMessage("<html>\n  Bad Gateway </html>")).toBe("<html> Bad Gateway </html>");
    expect(errorMessage("")).toBe("(empty body)");
  });
});

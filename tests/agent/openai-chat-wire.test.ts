// The chat-completions client (openai SDK) against a real local server that writes its bytes in
// awkward pieces: SSE framing, [DONE], errors as values, abort, keep-alive reuse.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../../src/agent/model-client.js";
import { OpenAIChatClient } from "../../src/agent/providers/openai-chat.js";
import { errorMessage } from "../../src/agent/providers/openai-sdk.js";

let server: Server | undefined;
afterEach(
  () =>
    new Promise<void>((res) => {
      server?.closeAllConnections();
      server ? server.close(() => res()) : res();
    }),
);

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((res) => server!.listen(0, "127.0.0.1", res));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** Serves `pieces` one write at a time, a few ms apart. */
function serve(
  pieces: (string | Buffer)[],
  status = 200,
  headers: Record<string, string> = { "content-type": "text/event-stream" },
): Promise<string> {
  return listen((_req, res) => {
    res.writeHead(status, headers);
    let i = 0;
    const next = () => {
      if (i === pieces.length) return res.end();
      res.write(pieces[i++]);
      setTimeout(next, 2);
    };
    next();
  });
}

function request(signal = new AbortController().signal): ModelRequest {
  return { model: "m", messages: [{ role: "user", content: "hi" }], tools: [], stream: true, thinking: "off", signal };
}

function run(url: string, signal?: AbortSignal, onText: (t: string) => void = () => {}) {
  const client = new OpenAIChatClient({ baseUrl: url, apiKey: "k", timeoutMs: 5_000 });
  return client.complete(request(signal), { onText, onReasoning: () => {} });
}

describe("server-sent events", () => {
  it("joins lines split across writes, handles CRLF, comments and missing spaces, and ignores data after [DONE]", async () => {
    const a = chunk({ content: "one " });
    const url = await serve([
      ": keep-alive\r\n\r\n",
      a.slice(0, 20),
      a.slice(20).replace("\n\n", "\r\n\r"),
      "\n",
      chunk({ reasoning_content: "hm" }).replace("data: ", "data:"),
      chunk({ content: "two" }, "stop"),
      "data: [DONE]\n\n",
      chunk({ content: "after-done" }),
    ]);
    expect(await run(url)).toMatchObject({
      ok: true,
      reply: { content: "one two", reasoning: "hm", finishReason: "stop" },
    });
  });

  it("keeps a multi-byte character split across writes intact", async () => {
    const bytes = Buffer.from(chunk({ content: "日本" }, "stop"));
    const at = bytes.indexOf(Buffer.from("日")) + 1;
    const url = await serve([bytes.subarray(0, at), bytes.subarray(at)]);
    expect(await run(url)).toMatchObject({ ok: true, reply: { content: "日本" } });
  });

  it("turns an error payload mid-stream into a retryable failure", async () => {
    const url = await serve([chunk({ content: "x" }), 'data: {"error":{"message":"overloaded"}}\n\n']);
    const outcome = await run(url);
    expect(outcome).toMatchObject({ ok: false, error: { status: undefined, aborted: false } });
    expect(!outcome.ok && outcome.error.message).toMatch(/overloaded/);
  });

  it("reports HTTP errors with the body's message, status and Retry-After", async () => {
    const url = await serve(['{"error":{"message":"slow down","type":"rate_limit"}}'], 429, {
      "content-type": "application/json",
      "retry-after": "2",
    });
    expect(await run(url)).toEqual({
      ok: false,
      error: { status: 429, message: "429 slow down", aborted: false, retryAfterMs: 2000 },
    });
  });

  it("aborts a request in flight at once and says so", async () => {
    const url = await serve(Array.from({ length: 400 }, () => chunk({ content: "x" })));
    const c = new AbortController();
    const seen: string[] = [];
    const outcome = await run(url, c.signal, (t) => {
      seen.push(t);
      if (seen.length === 3) c.abort();
    });
    expect(outcome).toMatchObject({ ok: false, error: { aborted: true } });
    expect(seen.length).toBeLessThan(400);
  });
});

describe("connections", () => {
  it("reuses one keep-alive connection for consecutive streamed requests", async () => {
    const sockets = new Set<unknown>();
    const url = await listen((req, res) => {
      sockets.add(req.socket);
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk({ content: "n" }, "stop"));
      res.end("data: [DONE]\n\n");
    });
    const client = new OpenAIChatClient({ baseUrl: url, apiKey: "k", timeoutMs: 5_000 });
    for (let i = 0; i < 5; i++)
      expect(await client.complete(request(), { onText: () => {}, onReasoning: () => {} })).toMatchObject({
        ok: true,
        reply: { content: "n" },
      });
    expect(sockets.size).toBe(1);
  });

  it("ends after [DONE] even when the server never ends the response", async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`${chunk({ content: "n" }, "stop")}data: [DONE]\n\n`);
      // ...and then nothing, ever.
    });
    expect(await run(url)).toMatchObject({ ok: true, reply: { content: "n", finishReason: "stop" } });
  });
});

describe("helpers", () => {
  it("extracts error messages from the shapes providers use", () => {
    expect(errorMessage('{"error":{"message":"m1"}}')).toBe("m1");
    expect(errorMessage('{"error":"m2"}')).toBe("m2");
    expect(errorMessage('{"message":"m3"}')).toBe("m3");
    expect(errorMessage("<html>\n  Bad Gateway </html>")).toBe("<html> Bad Gateway </html>");
    expect(errorMessage("")).toBe("(empty body)");
  });
});

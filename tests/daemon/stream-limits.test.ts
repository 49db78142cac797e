// The daemon's event streams are bounded: a follower that reads slower than a busy turn writes is
// dropped once its queue passes the backlog and catches up with Last-Event-ID; followers per
// session and streams in all are counted and refused past their limits.
import { request, createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { noExtensions } from "../../src/agent/extensions.js";
import { startDaemonServer, type DaemonServer } from "../../src/daemon/server.js";
import { DaemonSessions } from "../../src/daemon/sessions.js";
import { SseParser } from "../../src/remote/sse.js";
import { backpressuredWriter, type StreamLimits } from "../../src/daemon/stream-limits.js";
import { tempDir } from "../helpers/cli.js";
import { http, openEvents, type WireJson } from "../helpers/daemon.js";
import { startMockServer, textReply, toolReply, type MockServer } from "../helpers/mock-openai.js";
import { testSettings } from "../helpers/settings.js";
import { waitFor } from "../helpers/wait.js";

let server: DaemonServer | undefined;
let sessions: DaemonSessions | undefined;
let model: MockServer | undefined;
let plain: Server | undefined;
afterEach(async () => {
  await server?.close();
  await sessions?.shutdown();
  await model?.close();
  plain?.closeAllConnections();
  plain?.close();
  server = sessions = model = plain = undefined;
});

async function start(
  script: Parameters<typeof startMockServer>[0],
  streamLimits: Partial<StreamLimits>,
  maxConnections?: number,
): Promise<DaemonServer> {
  model = await startMockServer(script);
  const settings = testSettings({ baseUrl: model.url, apiKey: "k" });
  sessions = new DaemonSessions({
    settings,
    sessionDir: join(tempDir(), "sessions"),
    extensions: Promise.resolve(noExtensions()),
    approvalWaitMs: 300,
  });
  await sessions.init();
  server = await startDaemonServer({
    sessions,
    port: 0,
    host: "127.0.0.1",
    token: null,
    socketPath: null,
    streamLimits,
    ...(maxConnections ? { maxConnections } : {}),
  });
  return server;
}

/** An event stream over a raw socket that stops reading at once; `drain()` reads what arrived until the server closed it. */
async function pausedFollower(
  url: string,
  path: string,
): Promise<{ drain(): Promise<{ events: WireJson[]; ids: string[] }> }> {
  const base = new URL(url);
  const socket = connect({ host: base.hostname, port: Number(base.port) });
  await new Promise<void>((r) => socket.once("connect", () => r()));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
  socket.pause();
  socket.on("error", () => {});
  return {
    drain: () =>
      new Promise((done) => {
        const parts: Buffer[] = [];
        socket.on("data", (b: Buffer) => parts.push(b));
        socket.on("close", () => {
          const raw = Buffer.concat(parts).toString("latin1");
          // The body is chunked: take the whole chunks before the cut.
          let at = raw.indexOf("\r\n\r\n") + 4;
          let body = "";
          for (;;) {
            const nl = raw.indexOf("\r\n", at);
            if (nl === -1) break;
            const size = parseInt(raw.slice(at, nl), 16);
            if (!Number.isFinite(size) || size === 0 || nl + 2 + size > raw.length) break;
            body += raw.slice(nl + 2, nl + 2 + size);
            at = nl + 2 + size + 2;
          }
          const events: WireJson[] = [];
          const ids: string[] = [];
          for (const m of new SseParser().feed(Buffer.from(body, "latin1").toString("utf8"))) {
            if (m.event === "ready") continue;
            events.push(JSON.parse(m.data));
            if (m.id) ids.push(m.id);
          }
          done({ events, ids });
        });
        socket.resume();
      }),
  };
}

const deltas = (events: WireJson[]) =>
  events
    .filter((e) => e.type === "assistant.delta")
    .map((e) => e.text as string)
    .join("");

describe("daemon event streams", () => {
  it("drops a follower that does not read during a busy turn; it catches up with Last-Event-ID", async () => {
    const answer = (c: string) =>
      Array.from({ length: 450 }, (_, i) => `${c}${String(i).padStart(5, "0")}`.padEnd(2_000, c)).join("");
    const d = await start(
      [
        toolReply([{ name: "no_such_tool", args: {} }], { content: answer("a"), chunkSize: 2_000 }),
        textReply(answer("b"), { chunkSize: 2_000 }),
      ],
      { backlogBytes: 16 * 1024 },
    );
    const slow = await pausedFollower(d.url, "/v1/sessions/busy/events");
    const turn = await http(d.url, "/", {
      body: JSON.stringify({ prompt: "talk" }),
      headers: { "X-Session-Id": "busy" },
    });
    expect(turn.json.reason).toBe("completed");
    const first = await slow.drain();
    // Dropped mid-turn: the server closed the stream before the turn's end.
    expect(first.events.some((e) => e.type === "turn.completed")).toBe(false);
    expect(first.ids.length).toBeGreaterThan(0);
    const again = await openEvents(d.url, "/v1/sessions/busy/events", {
      headers: { "Last-Event-ID": first.ids.at(-1)! },
    });
    await again.waitFor((e) => e.type === "turn.completed");
    again.close();
    // Nothing lost, nothing twice: the catch-up (not limited by the backlog) starts where the drop cut.
    expect(deltas(first.events) + deltas(again.events)).toBe(answer("a") + answer("b"));
  });

  it("refuses followers past the per-session limit and streams past the total", async () => {
    const d = await start(() => textReply("x"), { followersPerSession: 2, streams: 3 });
    const a = await openEvents(d.url, "/v1/sessions/one/events");
    const b = await openEvents(d.url, "/v1/sessions/one/events");
    const third = await http(d.url, "/v1/sessions/one/events");
    expect(third.status).toBe(429);
    expect(third.json.error).toBe('session "one" already has 2 followers');
    const c = await openEvents(d.url, "/v1/sessions/two/events");
    const fourth = await http(d.url, "/v1/sessions/three/events");
    expect(fourth.status).toBe(503);
    // A closed stream frees its place.
    a.close();
    await waitFor(
      async () => {
        const next = await openEvents(d.url, "/v1/sessions/one/events");
        next.close();
        return next.status === 200;
      },
      { what: "a stream opens in the place the closed one freed" },
    );
    b.close();
    c.close();
  });

  it("closes connections past the per-listener limit as they arrive", async () => {
    const d = await start(() => textReply("x"), {}, 3);
    const held = await Promise.all([0, 1, 2].map(() => openEvents(d.url, "/v1/sessions/c/events")));
    const port = Number(new URL(d.url).port);
    const extra = connect({ host: "127.0.0.1", port });
    extra.on("error", () => {});
    let answer = "";
    extra.on("data", (b: Buffer) => (answer += b.toString()));
    extra.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    // The daemon closes it without an answer (a fourth connection would get its 200 otherwise).
    await new Promise<void>((r) => extra.on("close", () => r()));
    expect(answer).toBe("");
    for (const h of held) h.close();
    await waitFor(async () => (await http(d.url, "/health")).status === 200, {
      what: "an answer once the held connections closed",
    });
  });

  it("backpressuredWriter destroys a stream whose queue passes the backlog, however small each write", async () => {
    let writes = 0;
    let destroyed: Promise<void> = Promise.resolve();
    plain = createServer((_req, res) => {
      res.writeHead(200);
      const writer = backpressuredWriter(res, 32 * 1024);
      writer.live();
      const write = writer.write;
      destroyed = new Promise((done) => res.on("close", () => done()));
      const pump = () => {
        for (let i = 0; i < 1_000 && !res.destroyed; i++, writes++) write("e".repeat(100));
        if (!res.destroyed) setImmediate(pump);
      };
      pump();
    });
    await new Promise<void>((r) => plain!.listen(0, "127.0.0.1", r));
    const port = (plain.address() as AddressInfo).port;
    await new Promise<void>((resolve) => {
      const req = request({ host: "127.0.0.1", port, path: "/" }, (res) => {
        res.pause();
        res.on("error", () => {});
        resolve();
      });
      // The server may cut the connection before the headers are parsed.
      req.on("error", () => resolve());
      req.end();
    });
    await waitFor(() => writes > 0, { what: "writes above 0" });
    await destroyed;
    // Stopped within the kernel's buffers plus the backlog, not after millions of queued writes.
    expect(writes).toBeLessThan(200_000);
  });
});

// A daemon (or anything posing as one) that sends a line without end: the parser holds at most
// its cap, the client stops following with the reason and does not reconnect to be sent the same
// line again (issue 27: the remote stream had no line cap).
import { createServer, type Server } from "node:http";
import { afterEach, expect, it } from "vitest";
import { DaemonClient } from "../../src/remote/client.js";
import { SSE_LINE_CAP, SseLineTooLong, SseParser, sseMessage } from "../../src/remote/sse.js";

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

it("the parser refuses an unended line past its cap, after the messages before it", () => {
  const parser = new SseParser(1000);
  expect(parser.feed(sseMessage({ data: "first" }))).toEqual([{ data: "first" }]);
  // Under the cap and ended: fine, however it arrives.
  const long = "x".repeat(900);
  expect(parser.feed(`data: ${long.slice(0, 400)}`)).toEqual([]);
  expect(parser.feed(`${long.slice(400)}\n\n`)).toEqual([{ data: long }]);
  parser.feed(`data: ${"y".repeat(600)}`);
  expect(() => parser.feed("y".repeat(600))).toThrow(SseLineTooLong);
  expect(() => new SseParser(2 * 1024 * 1024).feed("z".repeat(3 * 1024 * 1024))).toThrow(/passed 2 MB without ending/);
});

it("the client stops following a stream whose line passes the cap, says why, and does not reconnect", async () => {
  let connections = 0;
  server = createServer((req, res) => {
    connections++;
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.write(sseMessage({ event: "ready", data: "{}" }));
    // One line of more than the cap, in 1 MB pieces, never ended.
    const piece = "a".repeat(1024 * 1024);
    let sent = 0;
    const more = () => {
      while (sent <= SSE_LINE_CAP + piece.length) {
        sent += piece.length;
        if (!res.write(sent === piece.length ? `data: ${piece}` : piece)) return void res.once("drain", more);
      }
    };
    more();
    req.on("close", () => res.destroy());
  });
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  const client = new DaemonClient({ kind: "http", base: new URL(`http://127.0.0.1:${port}`) }, null);
  const states: { connected: boolean; error?: string; retryInMs?: number }[] = [];
  const stopped = new Promise<void>((done) => {
    const stream = client.follow("s1", {
      onEvent: () => {},
      onState: (state) => {
        states.push(state);
        if (!state.connected) {
          stream.close();
          done();
        }
      },
    });
  });
  await stopped;
  expect(states[0]).toEqual({ connected: true });
  expect(states.at(-1)).toEqual({
    connected: false,
    error: "a line of the event stream passed 32 MB without ending; stopped reading it",
    retryInMs: -1,
  });
  // Time for a reconnection to show, were one scheduled (the first retry waits 500 ms).
  await new Promise((r) => setTimeout(r, 800));
  expect(connections).toBe(1);
});

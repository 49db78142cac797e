// The daemon's client side: the SSE parser, addresses, and the remote-task bridge against a real
// daemon that is restarted under it (the stream reconnects by itself and nothing is lost).
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DaemonClient, parseAddress, parseEvent } from "../../src/remote/client.js";
import { RemoteTasks } from "../../src/remote/remote-tasks.js";
import { SseParser, sseComment, sseMessage } from "../../src/remote/sse.js";
import { Bus } from "../../src/protocol/bus.js";
import type { BusEvent } from "../../src/protocol/events.js";
import { tempDir } from "../helpers/cli.js";
import { startDaemonProcess, type RunningDaemonProcess } from "../helpers/daemon.js";
import { startMockServer, textReply, type MockServer } from "../helpers/mock-openai.js";
import { waitFor } from "../helpers/wait.js";

describe("SseParser", () => {
  it("parses messages split anywhere, with any line ending, skipping comments", () => {
    const wire =
      sseMessage({ id: "b.1", event: "x", data: '{"a":1}' }) +
      sseComment("ping") +
      "data: line one\r\ndata: line two\r\n\r\n" +
      "id: b.3\rdata:no-space\r\r" +
      "event: only\n\n";
    for (const size of [1, 2, 3, 7, wire.length]) {
      const parser = new SseParser();
      const out = [];
      for (let i = 0; i < wire.length; i += size) out.push(...parser.feed(wire.slice(i, i + size)));
      expect(out, `chunks of ${size}`).toEqual([
        { id: "b.1", event: "x", data: '{"a":1}' },
        { data: "line one\nline two" },
        { id: "b.3", data: "no-space" },
      ]);
    }
  });

  it("keeps multi-byte characters whole and JSON with newlines escaped", () => {
    const data = JSON.stringify({ text: "日本語\n😀 line" });
    const parser = new SseParser();
    expect(parser.feed(sseMessage({ data }))).toEqual([{ data }]);
  });
});

describe("parseAddress", () => {
  it("takes unix sockets, http(s) URLs and host:port, and explains anything else", () => {
    expect(parseAddress("unix:/run/nh.sock", "/cwd")).toEqual({ kind: "unix", socketPath: "/run/nh.sock" });
    expect(parseAddress("unix:rel.sock", "/cwd")).toEqual({ kind: "unix", socketPath: "/cwd/rel.sock" });
    expect(parseAddress("/abs/d.sock", "/cwd")).toEqual({ kind: "unix", socketPath: "/abs/d.sock" });
    const https = parseAddress("https://agent.example.com/nh", "/cwd");
    expect(https.kind === "http" && https.base.href).toBe("https://agent.example.com/nh/");
    const bare = parseAddress("127.0.0.1:8787", "/cwd");
    expect(bare.kind === "http" && bare.base.href).toBe("http://127.0.0.1:8787/");
    expect(() => parseAddress("ftp://x", "/cwd")).toThrow(/only http, https and unix/);
    expect(() => parseAddress("http://", "/cwd")).toThrow(/not a daemon address/);
  });

  it("reports a missing daemon and a wrong token in words", async () => {
    const client = new DaemonClient(parseAddress(`unix:${join(tempDir(), "none.sock")}`, "/"), null);
    await expect(client.health()).rejects.toThrow(
      /no daemon at unix:.*none\.sock \(start one with nanohermes --daemon\)/,
    );
  });
});

describe("daemon events are checked with the bus schema", () => {
  it("passes a valid event on and names what is wrong with an invalid one", () => {
    expect(parseEvent(JSON.stringify({ type: "assistant.delta", taskId: "t1", text: "hi" }))).toEqual({
      type: "assistant.delta",
      taskId: "t1",
      text: "hi",
    });
    expect(parseEvent(JSON.stringify({ type: "assistant.delta", taskId: "t1", text: 7 }))).toMatch(
      /^assistant\.delta: text: /,
    );
    expect(parseEvent(JSON.stringify({ type: "no.such", taskId: "t1" }))).toMatch(/^no\.such: /);
    expect(parseEvent(JSON.stringify({ taskId: "t1" }))).toMatch(/^an event without a type: /);
    expect(parseEvent("{oops")).toBe("not JSON: {oops");
  });

  it("a stream drops an invalid event, says so, and goes on with the next", async () => {
    // A daemon of another version, stood in for by a server that answers the events stream.
    const server = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(sseMessage({ event: "ready", data: "{}" }));
      res.write(sseMessage({ id: "1", data: JSON.stringify({ type: "assistant.delta", taskId: "s", text: 1 }) }));
      res.write(sseMessage({ id: "2", data: JSON.stringify({ type: "assistant.delta", taskId: "s", text: "ok" }) }));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const { port } = server.address() as AddressInfo;
    const client = new DaemonClient(parseAddress(`127.0.0.1:${port}`, "/"), null);
    const events: BusEvent[] = [];
    const invalid: string[] = [];
    let stream: { close(): void } | undefined;
    try {
      // The valid event comes after the invalid one: once it is here, the stream went past both.
      await new Promise<void>((done) => {
        stream = client.follow("s", {
          onEvent: (e) => {
            events.push(e);
            done();
          },
          onInvalid: (r) => invalid.push(r),
        });
      });
      expect(invalid).toEqual([expect.stringMatching(/^assistant\.delta: text: /)]);
      expect(events).toEqual([{ type: "assistant.delta", taskId: "s", text: "ok" }]);
    } finally {
      stream?.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});

describe("RemoteTasks against a real daemon", () => {
  let model: MockServer | undefined;
  const daemons: RunningDaemonProcess[] = [];
  afterEach(async () => {
    await Promise.all(daemons.splice(0).map((d) => d.stop("SIGKILL")));
    await model?.close();
  });

  it("renames events to the local task, sends commands, and reconnects across a daemon restart", async () => {
    model = await startMockServer((req) => textReply(`answer ${req.messages.length}`));
    const home = tempDir("nh-home-");
    const sessionDir = join(tempDir("nh-sessions-"), "s");
    const workspace = tempDir("nh-ws-");
    const start = async () => {
      const d = await startDaemonProcess({ modelUrl: model!.url, home, sessionDir, workspace });
      daemons.push(d);
      return d;
    };
    const first = await start();
    const bus = new Bus();
    const events: BusEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const client = new DaemonClient(parseAddress(`unix:${first.socket}`, "/"), null);
    const remote = new RemoteTasks({ bus, claim: client, refreshMs: 0 });
    const until = (pred: (e: BusEvent) => boolean, what: string) => waitFor(() => events.find(pred), { what });

    bus.send({ type: "task.create", taskId: "work1" });
    const created = events.find((e) => e.type === "task.updated");
    expect(created?.type === "task.updated" && created.task.location).toBe("remote");
    bus.send({ type: "user.submit", taskId: "work1", text: "hello" });
    const done = await until((e) => e.type === "turn.completed", "turn.completed");
    expect(done.taskId).toBe("work1");
    expect(done.type === "turn.completed" && done.response).toMatch(/^answer \d+$/);
    // Every task.updated from the daemon is shown as remote, without the daemon's file path.
    for (const e of events)
      if (e.type === "task.updated") expect([e.task.location, e.task.sessionFile]).toEqual(["remote", null]);
    // Images go up to the daemon first; a missing one is a clear notice and nothing is sent.
    bus.send({ type: "user.submit", taskId: "work1", text: "look", images: [join(workspace, "missing.png")] });
    await until(
      (e) =>
        e.type === "notice" && /sending the prompt with its images failed .*no such file: .*missing\.png/.test(e.text),
      "the image notice",
    );
    const png = join(tempDir(), "shot.png");
    await sharp({ create: { width: 30, height: 10, channels: 3, background: "blue" } })
      .png()
      .toFile(png);
    const before = model.requests.length;
    events.length = 0;
    bus.send({ type: "user.submit", taskId: "work1", text: "look at this", images: [png] });
    await until((e) => e.type === "turn.completed", "the image turn");
    const sent = (model.requests[before]!.messages as { role: string; content: unknown }[])
      .filter((m) => m.role === "user")
      .at(-1)!.content as { type: string }[];
    expect(sent.map((c) => c.type)).toEqual(["text", "image_url"]);
    events.length = 0;

    expect(await first.stop("SIGTERM")).toBe(0);
    await until((e) => e.type === "notice" && /lost the daemon .*reconnecting/.test(e.text), "the lost notice");
    events.length = 0;
    await start();
    await until((e) => e.type === "notice" && /reconnected to unix:/.test(e.text), "the reconnected notice");
    // A new daemon life: the snapshot comes again, with the saved history, before the notice
    // (which the snapshot would otherwise wipe from the transcript).
    const loaded = await until((e) => e.type === "session.loaded", "session.loaded");
    expect(events.findIndex((e) => e.type === "session.loaded")).toBeLessThan(
      events.findIndex((e) => e.type === "notice" && /reconnected/.test(e.text)),
    );
    expect(
      loaded.type === "session.loaded" &&
        loaded.messages.map((m) => (typeof m.content === "string" ? m.content : "(parts)")),
    ).toEqual(["hello", expect.stringMatching(/^answer/), "(parts)", expect.stringMatching(/^answer/)]);
    bus.send({ type: "user.submit", taskId: "work1", text: "again" });
    const second = await until((e) => e.type === "turn.completed", "the second turn");
    expect(second.taskId).toBe("work1");
    expect(model.requests.at(-1)!.messages).toHaveLength(6);

    // Attach mode picks up sessions other clients start (a script's POST /), without following them.
    await client.request("POST", "/", { prompt: "from a script" });
    events.length = 0;
    await remote.refresh();
    const listed = events.find((e) => e.type === "task.updated" && e.taskId === "default");
    expect(listed?.type === "task.updated" && listed.task).toMatchObject({
      title: "from a script",
      status: "done",
      location: "remote",
    });
    expect(remote.has("default")).toBe(true);

    // Deleting in attach mode deletes the daemon's session.
    bus.send({ type: "task.delete", taskId: "work1" });
    await until((e) => e.type === "task.removed", "task.removed");
    expect((await client.sessions()).map((s) => s.id)).toEqual(["default"]);
    remote.close();
  });

  it("in the local UI, deleting a remote task forgets it here and leaves the daemon's session", async () => {
    model = await startMockServer(() => textReply("kept"));
    const d = await startDaemonProcess({ modelUrl: model.url });
    daemons.push(d);
    const client = new DaemonClient(parseAddress(`unix:${d.socket}`, "/"), null);
    await client.request("POST", "/", { prompt: "hi" });
    const bus = new Bus();
    const events: BusEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const changes: unknown[] = [];
    const ws = tempDir("nh-ws-");
    const remote = new RemoteTasks({ bus, workspace: ws, onChange: (id, change) => changes.push([id, change]) });
    remote.add("L1", client, "default", { title: "hi" });
    // /export writes the daemon's copy of the conversation here.
    bus.send({ type: "task.export", taskId: "L1", format: "markdown", path: "remote.md" });
    await waitFor(() => events.some((e) => e.type === "notice"), { what: "the export's notice" });
    expect(events.find((e) => e.type === "notice")).toMatchObject({
      level: "info",
      text: `exported to ${join(ws, "remote.md")}`,
    });
    const markdown = readFileSync(join(ws, "remote.md"), "utf8");
    expect(markdown).toContain("hi");
    expect(markdown).toContain("kept");
    bus.send({ type: "task.delete", taskId: "L1" });
    expect(events.at(-1)).toEqual({ type: "task.removed", taskId: "L1" });
    expect(changes).toEqual([["L1", { removed: true }]]);
    expect((await client.sessions()).map((s) => s.id)).toEqual(["default"]);
    remote.close();
  });
});

// The daemon end to end: the real program with --daemon, the mock model over HTTP, requests over
// real TCP and the real Unix socket.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync, chmodSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { BusEventSchema } from "../../src/protocol/events.js";
import { collect, startCli, tempDir, testEnv } from "../helpers/cli.js";
import { http, openEvents, daemonsStoppedAfterEach } from "../helpers/daemon.js";
import { mockModel } from "../helpers/e2e-env.js";
import { waitFor } from "../helpers/wait.js";
import { textReply, toolReply, type RecordedRequest } from "../helpers/mock-openai.js";

const TOKEN = "0123456789abcdef0123456789abcdef0123456789abcdef";
const daemon = daemonsStoppedAfterEach();

function tokenFile(): string {
  const file = join(tempDir("nh-token-"), "token");
  writeFileSync(file, `${TOKEN}\n`, { mode: 0o600 });
  return file;
}

const lastUser = (req: RecordedRequest) => {
  const users = (req.messages as { role: string; content: unknown }[]).filter((m) => m.role === "user");
  return String(users[users.length - 1]?.content ?? "");
};
const prompt = (text: string) => JSON.stringify({ prompt: text });
const auth = { Authorization: `Bearer ${TOKEN}` };

describe("daemon: the seed's endpoints", () => {
  it("answers POST / with the response and the session, and GET /health without auth", async () => {
    const model = await mockModel((req) => textReply(`echo: ${lastUser(req)}`));
    const d = await daemon({ modelUrl: model.url, args: ["--daemon-token-file", tokenFile()] });
    const health = await http(d.url, "/health");
    expect(health.status).toBe(200);
    expect(health.json).toMatchObject({ status: "ok", sessions: 0 });

    const answer = await http(d.url, "/", { body: prompt("hello"), headers: auth });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/application\/json/);
    expect(answer.json).toMatchObject({ response: "echo: hello", session: "default", reason: "completed" });
    expect(answer.json.usage.prompt).toBeGreaterThan(0);
    // One atomic JSON file per session, private to the user.
    const file = join(d.sessionDir, "default.json");
    expect(JSON.parse(readFileSync(file, "utf8")).messages.length).toBeGreaterThan(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(d.sessionDir).mode & 0o777).toBe(0o700);
    expect((await http(d.url, "/health")).json).toMatchObject({ status: "ok", sessions: 1, running: 0 });
  });

  it("refuses a missing or wrong token with 401 and accepts the right one", async () => {
    const model = await mockModel(() => textReply("ok"));
    const d = await daemon({ modelUrl: model.url, args: ["--daemon-token-file", tokenFile()] });
    const none = await http(d.url, "/", { body: prompt("hi") });
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(none.json.error).toMatch(/Authorization: Bearer/);
    for (const header of [
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      "Bearer ",
      `Basic ${TOKEN}`,
      TOKEN,
      `Bearer ${TOKEN} extra`,
    ]) {
      const wrong = await http(d.url, "/", { body: prompt("hi"), headers: { Authorization: header } });
      expect(wrong.status, header).toBe(401);
    }
    for (const path of ["/v1/sessions", "/v1/sessions/default/events", "/v1/sessions/default/cancel"]) {
      expect((await http(d.url, path, { method: path.endsWith("cancel") ? "POST" : "GET" })).status, path).toBe(401);
    }
    expect(model.requests).toHaveLength(0);
    const right = await http(d.url, "/", { body: prompt("hi"), headers: { Authorization: `bearer ${TOKEN}` } });
    expect(right.status).toBe(200);
    expect(right.json.response).toBe("ok");
    expect(d.stderr()).toMatch(/refused POST \/ from .*: no token/);
    expect(d.stderr()).not.toContain(TOKEN);
  });

  it("keeps sessions apart by X-Session-Id and rejects ids that could name another path", async () => {
    const model = await mockModel((req) =>
      textReply(`seen ${(req.messages as unknown[]).length} messages: ${lastUser(req)}`),
    );
    const d = await daemon({ modelUrl: model.url });
    await http(d.url, "/", { body: prompt("alpha secret"), headers: { "X-Session-Id": "a" } });
    const b = await http(d.url, "/", { body: prompt("beta"), headers: { "X-Session-Id": "b_2-B" } });
    expect(b.json.session).toBe("b_2-B");
    // Session b never saw session a's messages.
    expect(JSON.stringify(model.requests[1]!.messages)).not.toContain("alpha secret");
    const a2 = await http(d.url, "/", { body: prompt("again"), headers: { "X-Session-Id": "a" } });
    const detail = await http(d.url, "/v1/sessions/a");
    expect(detail.json).toMatchObject({ id: "a", title: "alpha secret", running: false, status: "done" });
    expect(
      detail.json.messages
        .filter((m: { role: string }) => m.role === "user")
        .map((m: { content: string }) => m.content),
    ).toEqual(["alpha secret", "again"]);
    expect((await http(d.url, "/v1/sessions/never-seen")).status).toBe(404);
    // Following a new id does not make a session of it: only saved (or running) ones count.
    const ghost = await openEvents(d.url, "/v1/sessions/ghost/events");
    await ghost.waitFor((e) => e.type === "session.loaded");
    expect((await http(d.url, "/health")).json.sessions).toBe(2);
    expect((await http(d.url, "/v1/sessions")).json.sessions.map((s: { id: string }) => s.id).sort()).toEqual([
      "a",
      "b_2-B",
    ]);
    ghost.close();
    expect(JSON.stringify(model.requests[2]!.messages)).toContain("alpha secret");
    expect(a2.json.session).toBe("a");

    const outside = dirname(d.sessionDir);
    const before = readdirSync(outside).sort();
    for (const id of ["../x", "..", "a/b", "a\\b", "a.json", "x".repeat(65), "", "a b", "a;b", "%2e%2e"]) {
      const answer = await http(d.url, "/", { body: prompt("hi"), headers: { "X-Session-Id": id } });
      expect(answer.status, JSON.stringify(id)).toBe(400);
      expect(answer.json.error).toMatch(/invalid X-Session-Id/);
    }
    for (const path of [
      "/v1/sessions/..%2Fx/cancel",
      "/v1/sessions/%2e%2e%2fetc/cancel",
      "/v1/sessions/a%00/cancel",
      "/v1/sessions/%E0%A4%A/cancel",
      `/v1/sessions/${"y".repeat(65)}/cancel`,
    ]) {
      const answer = await http(d.url, path, { method: "POST" });
      expect(answer.status, path).toBe(400);
    }
    // Dot segments are resolved before routing: they never reach a session.
    expect((await http(d.url, "/v1/sessions/../../etc/cancel", { method: "POST" })).status).toBe(404);
    expect(readdirSync(outside).sort()).toEqual(before);
    // Open sessions are locked (one writer each): only the lock files are there beside them.
    expect(
      readdirSync(d.sessionDir)
        .filter((n) => !n.endsWith(".lock"))
        .sort(),
    ).toEqual(["a.json", "b_2-B.json"]);
    expect(model.requests).toHaveLength(3);
  });

  it("answers bad requests with JSON errors and a status code", async () => {
    const model = await mockModel(() => textReply("ok"));
    const d = await daemon({ modelUrl: model.url });
    const cases: [string, Parameters<typeof http>[2], number, RegExp][] = [
      ["/", { body: "{not json" }, 400, /not valid JSON/],
      ["/", { body: "[1,2]" }, 400, /JSON object/],
      ["/", { body: "{}" }, 400, /"prompt"/],
      ["/", { body: '{"prompt": 5}' }, 400, /"prompt"/],
      ["/", { body: '{"prompt": "   "}' }, 400, /empty/],
      ["/", { method: "GET" }, 405, /POST/],
      ["/health", { method: "POST", body: "{}" }, 405, /GET/],
      ["/nope", {}, 404, /no such endpoint/],
      ["/v1/sessions/a/nope", {}, 404, /no such endpoint/],
      ["/v1/sessions/a/cancel", { body: '{"force": "yes"}' }, 400, /force/],
      ["/v1/sessions/a/commands", { body: '{"type": "task.create"}' }, 400, /cannot be sent/],
      ["/v1/sessions/a/commands", { body: '{"type": "user.submit"}' }, 400, /not a valid command: text/],
      ["/v1/sessions/a/commands", { body: '{"type": "rm -rf"}' }, 400, /not a valid command/],
      ["/v1/sessions/zzz", { method: "DELETE" }, 404, /no session/],
    ];
    for (const [path, opts, status, message] of cases) {
      const answer = await http(d.url, path, opts);
      expect(answer.status, `${path} ${opts?.body ?? opts?.method}`).toBe(status);
      expect(answer.headers["content-type"]).toMatch(/application\/json/);
      expect(answer.json.error, path).toMatch(message);
    }
    expect((await http(d.url, "/", { method: "PUT", body: "{}" })).headers.allow).toBe("POST");
    expect(model.requests).toHaveLength(0);
    // Still serving.
    expect((await http(d.url, "/", { body: prompt("hi") })).json.response).toBe("ok");
  });

  it("without a token, refuses what a web page could send: an Origin, or a Host that is not loopback", async () => {
    const model = await mockModel(() => textReply("ok"));
    const d = await daemon({ modelUrl: model.url });
    // A cross-site form post (text/plain, no preflight) from a page in the user's browser.
    const csrf = await http(d.url, "/", {
      body: prompt("rm -rf ~"),
      headers: { Origin: "https://evil.example", "Content-Type": "text/plain" },
    });
    expect(csrf.status).toBe(403);
    expect(csrf.json.error).toMatch(/web pages are refused/);
    // A DNS-rebound page: same origin to the browser, so no Origin, but its own Host name.
    const rebound = await http(d.url, "/v1/sessions", { headers: { Host: `evil.example:${d.port}` } });
    expect(rebound.status).toBe(403);
    expect(rebound.json.error).toMatch(/not a loopback name/);
    expect(model.requests).toHaveLength(0);
    for (const host of [`localhost:${d.port}`, `127.0.0.1:${d.port}`, "localhost"]) {
      expect((await http(d.url, "/v1/sessions", { headers: { Host: host } })).status, host).toBe(200);
    }
    // With a token, the token is the check (a page cannot know it).
    const t = await daemon({ modelUrl: model.url, args: ["--daemon-token-file", tokenFile()] });
    expect(
      (await http(t.url, "/", { body: prompt("hi"), headers: { ...auth, Host: "agent.example.com" } })).status,
    ).toBe(200);
  });

  it("refuses oversize bodies with 413, declared or streamed, and keeps serving", async () => {
    const model = await mockModel(() => textReply("fine"));
    const d = await daemon({ modelUrl: model.url });
    const huge = prompt("x".repeat(2 * 1024 * 1024));
    const declared = await http(d.url, "/", { body: huge });
    expect(declared.status).toBe(413);
    expect(declared.json.error).toMatch(/limit/);
    const streamed = await http(d.url, "/", { body: huge, chunked: true }).catch((error: NodeJS.ErrnoException) => ({
      status: -1,
      code: error.code,
    }));
    // The daemon answers 413 and closes; the client may see the answer or a reset mid-upload.
    expect([413, -1]).toContain(streamed.status);
    expect(model.requests).toHaveLength(0);
    expect((await http(d.url, "/", { body: prompt("small") })).json.response).toBe("fine");
  });
});

describe("daemon: the /v1 API", () => {
  it("serves one session's requests one turn at a time and different sessions in parallel", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const model = await mockModel(async (req) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // The model's latency: a window in which a second turn run in parallel would show as inFlight 2.
      await new Promise((r) => setTimeout(r, 300));
      inFlight--;
      return textReply(`re: ${lastUser(req)}`);
    });
    const d = await daemon({ modelUrl: model.url });
    const [first, second] = await Promise.all([
      http(d.url, "/", { body: prompt("first"), headers: { "X-Session-Id": "same" } }),
      waitFor(() => inFlight === 1, { what: "the first turn's model request" }).then(() =>
        http(d.url, "/", { body: prompt("second"), headers: { "X-Session-Id": "same" } }),
      ),
    ]);
    expect(first.json.response).toBe("re: first");
    expect(second.json.response).toBe("re: second");
    expect(maxInFlight).toBe(1);
    // The second turn came after the first and saw it whole.
    const seen = JSON.stringify(model.requests[1]!.messages);
    expect(seen).toContain("first");
    expect(seen).toContain("re: first");

    maxInFlight = 0;
    const ids = ["p1", "p2", "p3"];
    const answers = await Promise.all(
      ids.map((id) => http(d.url, "/", { body: prompt(`to ${id}`), headers: { "X-Session-Id": id } })),
    );
    expect(answers.map((a) => a.json.response)).toEqual(ids.map((id) => `re: to ${id}`));
    expect(maxInFlight).toBe(3);
  });

  it("streams a turn as server-sent bus events that end with turn.completed", async () => {
    const model = await mockModel([
      toolReply([{ name: "run_command", args: { command: "echo streamed-output" } }]),
      textReply("all done", { chunkSize: 3 }),
    ]);
    const d = await daemon({ modelUrl: model.url, args: ["--daemon-token-file", tokenFile()] });
    const stream = await openEvents(d.url, "/v1/sessions/s1/turns", { body: prompt("run it"), headers: auth });
    expect(stream.status).toBe(200);
    await stream.ended;
    const types = stream.events.map((e) => e.type);
    // From the submit (the task turns running) to the turn's end.
    expect(types[0]).toBe("task.updated");
    expect(types.indexOf("turn.started")).toBeLessThan(types.indexOf("tool.started"));
    expect(types).toContain("tool.started");
    expect(types).toContain("tool.completed");
    expect(types.filter((t) => t === "assistant.delta").length).toBeGreaterThan(1);
    expect(types.lastIndexOf("turn.completed")).toBeGreaterThan(types.indexOf("tool.completed"));
    for (const event of stream.events) {
      expect(BusEventSchema.safeParse(event).success, event.type).toBe(true);
      expect(event.taskId).toBe("s1");
    }
    const completed = stream.events.find((e) => e.type === "turn.completed");
    expect(completed).toMatchObject({ reason: "completed", response: "all done" });
    // Every message carries an increasing id and its type as the SSE event name.
    // The first message is the stream's version line, without an id; the bus events follow.
    expect(stream.messages[0]).toMatchObject({ event: "observer.started" });
    expect(stream.messages[0]!.id).toBeUndefined();
    const seqs = stream.messages.slice(1).map((m) => Number(m.id!.split(".")[1]));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(stream.messages.every((m) => m.event === JSON.parse(m.data).type)).toBe(true);
    // Without the token, no stream.
    expect((await http(d.url, "/v1/sessions/s1/turns", { body: prompt("x") })).status).toBe(401);
  });

  it("cancels a turn during a long command: at the step boundary, or at once with force", async () => {
    const model = await mockModel((req) => {
      const text = lastUser(req);
      const last = (req.messages as { role: string }[]).at(-1)!;
      if (last.role === "tool") return textReply("after the command");
      return toolReply([
        {
          name: "run_command",
          args: { command: text.includes("forced") ? "sleep 30; echo never" : "sleep 2; echo slept" },
        },
      ]);
    });
    const d = await daemon({ modelUrl: model.url });
    // Nothing running: nothing to cancel.
    expect((await http(d.url, "/v1/sessions/c1/cancel", { body: "{}" })).json).toEqual({
      cancelled: false,
      session: "c1",
    });

    const turn = http(d.url, "/", { body: prompt("gentle"), headers: { "X-Session-Id": "c1" } });
    const events = await openEvents(d.url, "/v1/sessions/c1/events");
    await events.waitFor((e) => e.type === "tool.started");
    const started = Date.now();
    expect((await http(d.url, "/v1/sessions/c1/cancel", { body: "{}" })).json).toEqual({
      cancelled: true,
      session: "c1",
    });
    const answer = await turn;
    // The command finished (a step boundary comes after it), then the turn stopped: no second request.
    expect(answer.status).toBe(200);
    expect(answer.json.reason).toBe("interrupted");
    expect(model.requests).toHaveLength(1);
    const finished = await events.waitFor((e) => e.type === "tool.completed");
    expect(finished.status).toBe("ok");
    events.close();

    const forced = http(d.url, "/", { body: prompt("forced"), headers: { "X-Session-Id": "c2" } });
    const events2 = await openEvents(d.url, "/v1/sessions/c2/events");
    await events2.waitFor((e) => e.type === "tool.started");
    expect((await http(d.url, "/v1/sessions/c2/cancel", { body: '{"force": true}' })).json.cancelled).toBe(true);
    const answer2 = await forced;
    expect(answer2.json.reason).toBe("interrupted");
    // At once, not after the command: it was stopped, not left to finish.
    expect((await events2.waitFor((e) => e.type === "tool.completed")).status).toBe("aborted");
    expect(model.requests).toHaveLength(2);
    events2.close();
    expect(started).toBeGreaterThan(0);
    expect(d.stderr()).toMatch(/session c2: cancel requested \(force\)/);
  });

  it("goes on after SIGHUP (the terminal it was started from went away)", async () => {
    const model = await mockModel(() => textReply("still here"));
    const d = await daemon({ modelUrl: model.url });
    d.child.kill("SIGHUP");
    // The signal is pending before the request is sent, and the turn takes several turns of the
    // daemon's event loop: a daemon that ended on SIGHUP would not answer it.
    expect((await http(d.url, "/", { body: prompt("hello?") })).json.response).toBe("still here");
    expect(d.child.exitCode).toBeNull();
  });

  it("keeps sessions across a restart, saving a running turn on SIGTERM", async () => {
    const model = await mockModel(async (req) => {
      if (lastUser(req) === "slow") await new Promise((r) => setTimeout(r, 1500));
      return textReply(`re: ${lastUser(req)}`);
    });
    const home = tempDir("nh-home-");
    const sessionDir = join(tempDir("nh-sessions-"), "s");
    const workspace = tempDir("nh-ws-");
    const first = await daemon({ modelUrl: model.url, home, sessionDir, workspace });
    await http(first.url, "/", { body: prompt("remember the word kumquat"), headers: { "X-Session-Id": "keep" } });
    const slow = http(first.url, "/", { body: prompt("slow"), headers: { "X-Session-Id": "other" } });
    await waitFor(() => model.requests.some((r) => lastUser(r) === "slow"), { what: "the slow turn's model request" });
    expect(await first.stop("SIGTERM")).toBe(0);
    // The request in flight still got its answer: the turn was stopped.
    expect((await slow).json).toMatchObject({ session: "other", reason: "interrupted" });
    expect(first.stderr()).toMatch(/SIGTERM: stopping the turns and saving the sessions/);
    expect(existsSync(first.socket)).toBe(false);
    // The interrupted turn's prompt was saved too.
    expect(readFileSync(join(sessionDir, "other.json"), "utf8")).toContain("slow");

    const second = await daemon({ modelUrl: model.url, home, sessionDir, workspace });
    expect(second.stderr()).toMatch(/\(2 found\)/);
    expect((await http(second.url, "/health")).json.sessions).toBe(2);
    const listed = await http(second.url, "/v1/sessions");
    expect(listed.json.sessions.map((s: { id: string }) => s.id).sort()).toEqual(["keep", "other"]);
    expect(listed.json.sessions.find((s: { id: string }) => s.id === "keep")).toMatchObject({
      title: "remember the word kumquat",
      running: false,
    });
    const again = await http(second.url, "/", {
      body: prompt("what was the word?"),
      headers: { "X-Session-Id": "keep" },
    });
    expect(again.json.response).toBe("re: what was the word?");
    expect(JSON.stringify(model.requests.at(-1)!.messages)).toContain("kumquat");
  });

  it("lets a client attach mid-turn, drop, and pick up exactly what it missed with Last-Event-ID", async () => {
    const model = await mockModel(() =>
      textReply("one two three four five six seven eight nine ten", { chunkSize: 4, chunkDelayMs: 60 }),
    );
    const d = await daemon({ modelUrl: model.url });
    await http(d.url, "/", { body: prompt("warm up"), headers: { "X-Session-Id": "live" } });
    const turn = http(d.url, "/", { body: prompt("count"), headers: { "X-Session-Id": "live" } });
    const first = await openEvents(d.url, "/v1/sessions/live/events");
    // Snapshot: the task, the history before this turn, then the turn so far.
    await first.waitFor((e) => e.type === "assistant.delta");
    expect(first.events[0].type).toBe("task.updated");
    expect(first.events[0].task.status).toBe("running");
    expect(first.events[1]).toMatchObject({ type: "session.started", sessionId: "live", workspace: d.workspace });
    expect(first.events[2].type).toBe("session.loaded");
    expect(first.events[2].messages.map((m: { content: string }) => m.content)).toEqual([
      "warm up",
      "one two three four five six seven eight nine ten",
    ]);
    expect(first.events[3]).toMatchObject({ type: "turn.started", prompt: "count" });
    await waitFor(() => first.events.filter((e) => e.type === "assistant.delta").length >= 2, {
      what: "a second delta on the first connection",
    });
    first.close();
    const lastId = first.messages.at(-1)!.id!;
    const resumed = await openEvents(d.url, "/v1/sessions/live/events", { headers: { "Last-Event-ID": lastId } });
    const done = await resumed.waitFor((e) => e.type === "turn.completed");
    expect(done.response).toBe("one two three four five six seven eight nine ten");
    // No snapshot on resume, and the deltas of both connections make the whole answer once.
    expect(resumed.events.map((e) => e.type)).not.toContain("session.loaded");
    expect(resumed.messages.find((m) => m.event === "ready")?.data).toBe('{"snapshot":false}');
    const text = (events: { type: string; text?: string }[]) =>
      events
        .filter((e) => e.type === "assistant.delta")
        .map((e) => e.text)
        .join("");
    expect(text(first.events) + text(resumed.events)).toBe("one two three four five six seven eight nine ten");
    resumed.close();
    await turn;
    // An id from another daemon life (or unknown) gets the snapshot again.
    const stale = await openEvents(d.url, "/v1/sessions/live/events", { headers: { "Last-Event-ID": "zzzzzz.5" } });
    const loaded = await stale.waitFor((e) => e.type === "session.loaded");
    expect(loaded.messages).toHaveLength(4);
    stale.close();
  });

  it("finishes and saves a streamed turn whose client went away", async () => {
    const model = await mockModel(() => textReply("a slow but complete answer", { chunkSize: 2, chunkDelayMs: 40 }));
    const d = await daemon({ modelUrl: model.url });
    const stream = await openEvents(d.url, "/v1/sessions/gone/turns", { body: prompt("talk") });
    await stream.waitFor((e) => e.type === "assistant.delta");
    stream.close();
    await waitFor(async () => (await http(d.url, "/health")).json.running === 0, { what: "the turn finished" });
    const detail = await http(d.url, "/v1/sessions/gone");
    expect(detail.json.messages.at(-1)).toMatchObject({ role: "assistant", content: "a slow but complete answer" });
    expect(detail.json.status).toBe("done");
  });

  it("takes commands: steering a running turn, undo, delete", async () => {
    const model = await mockModel(async (req) => {
      const last = (req.messages as { role: string }[]).at(-1)!;
      if (lastUser(req) === "long" && last.role === "user")
        return toolReply([{ name: "run_command", args: { command: "sleep 1" } }]);
      if (last.role === "tool") return textReply("the command ran");
      return textReply(`re: ${lastUser(req)}`);
    });
    const d = await daemon({ modelUrl: model.url });
    const events = await openEvents(d.url, "/v1/sessions/cmd/events");
    expect(
      (await http(d.url, "/v1/sessions/cmd/commands", { body: JSON.stringify({ type: "user.submit", text: "long" }) }))
        .status,
    ).toBe(202);
    await events.waitFor((e) => e.type === "tool.started");
    await http(d.url, "/v1/sessions/cmd/commands", {
      body: JSON.stringify({ type: "user.submit", text: "also this", mode: "steer" }),
    });
    await events.waitFor((e) => e.type === "queue.updated" && e.items.length === 1);
    const completed = await events.waitFor((e) => e.type === "turn.completed");
    expect(completed.response).toBe("re: also this");
    // A POST / waits for a turn started through /commands.
    await http(d.url, "/v1/sessions/cmd/commands", { body: JSON.stringify({ type: "user.submit", text: "long" }) });
    const after = await http(d.url, "/", { body: prompt("next"), headers: { "X-Session-Id": "cmd" } });
    expect(after.json.response).toBe("re: next");
    await events.waitFor((e) => e.type === "turn.completed" && e.response === "re: next");
    expect(events.events.filter((e) => e.type === "turn.completed")).toHaveLength(3);
    await http(d.url, "/v1/sessions/cmd/commands", { body: JSON.stringify({ type: "session.undo", n: 1 }) });
    await events.waitFor((e) => e.type === "notice" && /dropped the last 1 turn/.test(e.text));
    const gone = await http(d.url, "/v1/sessions/cmd", { method: "DELETE" });
    expect(gone.status).toBe(204);
    await events.waitFor((e) => e.type === "task.removed");
    expect(existsSync(join(d.sessionDir, "cmd.json"))).toBe(false);
    expect((await http(d.url, "/health")).json.sessions).toBe(0);
    events.close();
  });
});

describe("daemon: images", () => {
  it("takes uploaded images for a prompt, and only those", async () => {
    const model = await mockModel(() => textReply("I see it"));
    const d = await daemon({ modelUrl: model.url });
    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: "green" } })
      .png()
      .toBuffer();
    const up = await http(d.url, "/v1/sessions/img/images", {
      body: png,
      headers: { "X-File-Name": encodeURIComponent("shot 1.png") },
    });
    expect(up.status).toBe(201);
    expect(dirname(up.json.path)).toBe(join(d.sessionDir, ".uploads"));
    expect(up.json.path).toMatch(/-shot_1\.png$/);
    expect(statSync(up.json.path).mode & 0o777).toBe(0o600);
    const events = await openEvents(d.url, "/v1/sessions/img/events");
    await events.waitFor((e) => e.type === "session.loaded");
    expect(
      (
        await http(d.url, "/v1/sessions/img/commands", {
          body: JSON.stringify({ type: "user.submit", text: "what is this?", images: [up.json.path] }),
        })
      ).status,
    ).toBe(202);
    await events.waitFor((e) => e.type === "turn.completed");
    const content = (model.requests[0]!.messages as { role: string; content: unknown }[]).find(
      (m) => m.role === "user",
    )!.content as { type: string; image_url?: { url: string } }[];
    expect(content.map((c) => c.type)).toEqual(["text", "image_url"]);
    expect(content[1]!.image_url!.url).toMatch(/^data:image\/png;base64,/);
    events.close();
    // A path the daemon did not receive as an upload is refused: no reading its other files.
    for (const path of [
      "/etc/passwd",
      join(d.sessionDir, "img.json"),
      join(d.sessionDir, ".uploads", "..", "img.json"),
    ]) {
      const refused = await http(d.url, "/v1/sessions/img/commands", {
        body: JSON.stringify({ type: "user.submit", text: "x", images: [path] }),
      });
      expect(refused.status, path).toBe(409);
      expect(refused.json.error).toMatch(/images must be uploaded first/);
    }
    expect((await http(d.url, "/v1/sessions/img/images", { body: Buffer.alloc(0) })).status).toBe(400);
    // Over 12 MiB: 413, or a reset when the daemon closes before the upload is through.
    const huge = await http(d.url, "/v1/sessions/img/images", { body: Buffer.alloc(13 * 1024 * 1024) }).catch(() => ({
      status: -1,
    }));
    expect([413, -1]).toContain(huge.status);
    expect(model.requests).toHaveLength(1);
  });
});

describe("daemon: files and rewind", () => {
  it("sends a file before a turn and now, and restores the daemon's files through commands", async () => {
    const model = await mockModel((req) => {
      const last = (req.messages as { role: string }[]).at(-1)!;
      if (last.role === "tool") return textReply("wrote it");
      return toolReply([{ name: "write_file", args: { path: "made.txt", content: "by the agent\n" } }]);
    });
    const d = await daemon({ modelUrl: model.url });
    await http(d.url, "/", { body: prompt("make a file"), headers: { "X-Session-Id": "rw" } });
    expect(existsSync(join(d.workspace, "made.txt"))).toBe(true);
    // A remote UI's turn diff: the file now and before turn 1 (absent then), read on the daemon.
    const file = await http(d.url, `/v1/sessions/rw/file?path=made.txt&turn=1`);
    expect(file.json).toEqual({ path: join(d.workspace, "made.txt"), now: "by the agent\n", before: null });
    expect(
      (await http(d.url, `/v1/sessions/rw/file?path=${encodeURIComponent(join(d.workspace, "made.txt"))}`)).json,
    ).toEqual({ path: join(d.workspace, "made.txt"), now: "by the agent\n" });
    for (const bad of [
      "path=../outside.txt",
      "path=%2Fetc%2Fpasswd",
      "",
      "path=made.txt&turn=0",
      "path=made.txt&turn=x",
    ]) {
      const refused = await http(d.url, `/v1/sessions/rw/file?${bad}`);
      expect(refused.status, bad).toBe(400);
    }
    const events = await openEvents(d.url, "/v1/sessions/rw/events");
    await events.waitFor((e) => e.type === "session.loaded");
    // The snapshot carries the turns' file changes, for the Turns tab of a UI that attaches later.
    const reported = await events.waitFor((e) => e.type === "checkpoints.updated");
    expect(reported.turns[0].changes[0]).toMatchObject({
      path: join(d.workspace, "made.txt"),
      before: "absent",
      after: "present",
      by: "write_file",
    });
    expect(
      (
        await http(d.url, "/v1/sessions/rw/commands", {
          body: JSON.stringify({ type: "session.rewind", turn: 1, what: "both" }),
        })
      ).status,
    ).toBe(202);
    await events.waitFor((e) => e.type === "session.loaded" && e.messages.length === 0);
    expect(existsSync(join(d.workspace, "made.txt"))).toBe(false);
    events.close();
  });
});

describe("daemon: approvals", () => {
  it("refuses a call that needs approval when nobody is attached, and asks an attached front end", async () => {
    const model = await mockModel((req) => {
      const last = (req.messages as { role: string; content: string }[]).at(-1)!;
      if (last.role === "tool") return textReply(`tool said: ${last.content.slice(0, 160)}`);
      return toolReply([{ name: "run_command", args: { command: `touch ${lastUser(req)}.txt` } }]);
    });
    const d = await daemon({ modelUrl: model.url, args: ["--approval", "on-request"] });
    // Nobody watching: refused at once, the turn goes on.
    const alone = await http(d.url, "/", { body: prompt("unwatched"), headers: { "X-Session-Id": "ap" } });
    expect(alone.json.response).toMatch(/needs approval .*nobody can answer/);
    expect(existsSync(join(d.workspace, "unwatched.txt"))).toBe(false);

    // A front end attached: the approval is asked, a stray answer is refused, the right one runs it.
    const events = await openEvents(d.url, "/v1/sessions/ap/events");
    await events.waitFor((e) => e.type === "session.loaded");
    const turn = http(d.url, "/", { body: prompt("watched"), headers: { "X-Session-Id": "ap" } });
    const asked = await events.waitFor((e) => e.type === "approval.requested");
    expect(asked.detail).toContain("touch watched.txt");
    const stray = await http(d.url, "/v1/sessions/ap/commands", {
      body: JSON.stringify({ type: "approval.reply", requestId: "nope", decision: "once" }),
    });
    expect(stray.status).toBe(409);
    expect(stray.json.error).toMatch(/no approval nope is waiting/);
    const other = await http(d.url, "/v1/sessions/elsewhere/commands", {
      body: JSON.stringify({ type: "approval.reply", requestId: asked.requestId, decision: "once" }),
    });
    expect(other.status).toBe(409);
    const ok = await http(d.url, "/v1/sessions/ap/commands", {
      body: JSON.stringify({ type: "approval.reply", requestId: asked.requestId, decision: "once" }),
    });
    expect(ok.status).toBe(202);
    expect((await turn).json.response).toMatch(/tool said: /);
    expect(existsSync(join(d.workspace, "watched.txt"))).toBe(true);
    events.close();
  });
});

describe("daemon: the Unix socket and start-up checks", () => {
  it("serves the socket (mode 600) without the token, replaces a stale socket, refuses a second daemon", async () => {
    const model = await mockModel(() => textReply("via socket"));
    const home = tempDir("nh-home-");
    const socket = join(home, "d.sock");
    writeFileSync(socket, "stale");
    const d = await daemon({ modelUrl: model.url, home, socket, args: ["--daemon-token-file", tokenFile()] });
    expect(statSync(socket).isSocket()).toBe(true);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    const answer = await http("http://localhost", "/", { socketPath: socket, body: prompt("hi") });
    expect(answer.status).toBe(200);
    expect(answer.json.response).toBe("via socket");
    expect((await http(d.url, "/", { body: prompt("hi") })).status).toBe(401);

    const second = startCli(["--daemon", "--daemon-port", "0", "--daemon-socket", socket, "--base-url", model.url], {
      env: testEnv({ NANOHERMES_HOME: home }),
    });
    const result = await collect(second);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/another daemon is listening on/);
    expect(statSync(socket).isSocket()).toBe(true);
  });

  it("attach says clearly when there is no daemon, when the token is wrong, and when there is no terminal", async () => {
    const home = tempDir("nh-home-");
    const none = await collect(startCli(["attach"], { env: testEnv({ NANOHERMES_HOME: home }) }));
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      `nanohermes: cannot attach to unix:${join(home, "daemon.sock")}: no daemon at unix:${join(home, "daemon.sock")} (start one with nanohermes --daemon)`,
    );
    const model = await mockModel(() => textReply("x"));
    const d = await daemon({ modelUrl: model.url, args: ["--daemon-token-file", tokenFile()] });
    const wrong = await collect(startCli(["attach", d.url], { env: testEnv({ NANOHERMES_DAEMON_TOKEN: "nope" }) }));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /cannot attach to http:\/\/127\.0\.0\.1:\d+: wrong token \(pass --daemon-token-file FILE or set NANOHERMES_DAEMON_TOKEN\)/,
    );
    const noTty = await collect(startCli(["attach", d.url, "--daemon-token-file", tokenFile()], { env: testEnv() }));
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toMatch(/attach needs a terminal/);
    const bad = await collect(startCli(["attach", "ftp://x"], { env: testEnv() }));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/only http, https and unix: addresses are supported/);
  });

  it("refuses to listen beyond loopback without a token, and an empty or unreadable token file", async () => {
    const env = testEnv({ OPENAI_API_KEY: "sk" });
    const open = await collect(
      startCli(["--daemon", "--daemon-host", "0.0.0.0", "--daemon-port", "0", "--daemon-socket", "off"], { env }),
    );
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/reachable from other machines: set a token first/);
    const empty = join(tempDir(), "empty");
    writeFileSync(empty, "\n");
    const emptyRun = await collect(
      startCli(["--daemon", "--daemon-token-file", empty, "--daemon-port", "0", "--daemon-socket", "off"], { env }),
    );
    expect(emptyRun.code).toBe(2);
    expect(emptyRun.stderr).toMatch(/is empty/);
    const missing = await collect(
      startCli(["--daemon", "--daemon-token-file", "/nonexistent/t", "--daemon-port", "0", "--daemon-socket", "off"], {
        env,
      }),
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the token file .*ENOENT/);
    const long = await collect(
      startCli(
        [
          "--daemon",
          "--daemon-port",
          "0",
          "--daemon-socket",
          join(tempDir(), "x".repeat(120), "d.sock"),
          "--base-url",
          "http://127.0.0.1:9",
        ],
        { env },
      ),
    );
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/longer than 107 bytes; choose a shorter one with --daemon-socket PATH/);
    const port = await collect(startCli(["--daemon", "--daemon-port", "99999"], { env }));
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/--daemon-port expects an integer from 0 to 65535/);
  });

  it("keeps its sessions apart from the UI's by default", async () => {
    const model = await mockModel(() => textReply("apart"));
    const home = tempDir("nh-home-");
    // A session of the local UI: the daemon must not serve (or write) it.
    mkdirSync(join(home, "sessions"), { recursive: true });
    writeFileSync(
      join(home, "sessions", "20261130-010203-abcdef.json"),
      JSON.stringify([{ role: "user", content: "local" }]),
    );
    const d = await daemon({ modelUrl: model.url, home, sessionDir: null });
    expect(d.stderr()).toContain(`sessions ${join(home, "daemon-sessions")} (0 found)`);
    await http(d.url, "/", { body: prompt("x"), headers: { "X-Session-Id": "remote1" } });
    expect(readdirSync(join(home, "daemon-sessions")).sort()).toEqual(["remote1.json", "remote1.json.lock"]);
    expect(readdirSync(join(home, "sessions"))).toEqual(["20261130-010203-abcdef.json"]);
    expect((await http(d.url, "/v1/sessions")).json.sessions.map((s: { id: string }) => s.id)).toEqual(["remote1"]);
  });

  it("takes the seed's --session DIR/default.json as the session folder", async () => {
    const model = await mockModel(() => textReply("stored"));
    const dir = join(tempDir(), "legacy");
    const d = await daemon({ modelUrl: model.url, args: ["--session", join(dir, "default.json")] });
    await http(d.url, "/", { body: prompt("x"), headers: { "X-Session-Id": "s1" } });
    expect(readdirSync(dir)).toContain("s1.json");
  });

  it("warns about a token file others can read, and takes the token from the environment", async () => {
    const model = await mockModel(() => textReply("env token"));
    const loose = tokenFile();
    chmodSync(loose, 0o644);
    const d = await daemon({ modelUrl: model.url, args: ["--daemon-token-file", loose] });
    expect(d.stderr()).toMatch(/can be read by other users; chmod 600 it/);
    const e = await daemon({ modelUrl: model.url, env: { NANOHERMES_DAEMON_TOKEN: "from-env" } });
    // A short token works, with a word about it.
    expect(e.stderr()).toMatch(/token is shorter than 16 characters; make one with: openssl rand -hex 24/);
    expect(d.stderr()).not.toMatch(/shorter than 16/);
    expect((await http(e.url, "/", { body: prompt("x") })).status).toBe(401);
    expect(
      (await http(e.url, "/", { body: prompt("x"), headers: { Authorization: "Bearer from-env" } })).json.response,
    ).toBe("env token");
  });
});

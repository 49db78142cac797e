// The daemon end to end: the real program with --daemon, the mock model over HTTP, requests over
// real TCP and the real Unix socket.
import { existsSync, readdirSync, statSync, writeFileSync, chmodSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BusEventSchema } from "../../src/protocol/events.js";
import { collect, startCli, tempDir, testEnv } from "../helpers/cli.js";
import { http, openEvents, startDaemonProcess, type RunningDaemonProcess } from "../helpers/daemon.js";
import { startMockServer, textReply, toolReply, type MockServer, type RecordedRequest } from "../helpers/mock-openai.js";

const TOKEN = "0123456789abcdef0123456789abcdef0123456789abcdef";
const running: { daemons: RunningDaemonProcess[]; mocks: MockServer[] } = { daemons: [], mocks: [] };

afterEach(async () => {
  await Promise.all(running.daemons.splice(0).map((d) => d.stop("SIGKILL")));
  await Promise.all(running.mocks.splice(0).map((m) => m.close()));
});

async function mock(script: Parameters<typeof startMockServer>[0]): Promise<MockServer> {
  const server = await startMockServer(script);
  running.mocks.push(server);
  return server;
}

async function daemon(opts: Parameters<typeof startDaemonProcess>[0]): Promise<RunningDaemonProcess> {
  const d = await startDaemonProcess(opts);
  running.daemons.push(d);
  return d;
}

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
    const model = await mock((req) => textReply(`echo: ${lastUser(req)}`));
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
    const model = await mock(() => textReply("ok"));
    const d = await daemon({ modelUrl: model.url, args: ["--daemon-token-file", tokenFile()] });
    const none = await http(d.url, "/", { body: prompt("hi") });
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(none.json.error).toMatch(/Authorization: Bearer/);
    for (const header of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, "Bearer ", `Basic ${TOKEN}`, TOKEN, `Bearer ${TOKEN} extra`]) {
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
    const model = await mock((req) => textReply(`seen ${(req.messages as unknown[]).length} messages: ${lastUser(req)}`));
    const d = await daemon({ modelUrl: model.url });
    await http(d.url, "/", { body: prompt("alpha secret"), headers: { "X-Session-Id": "a" } });
    const b = await http(d.url, "/", { body: prompt("beta"), headers: { "X-Session-Id": "b_2-B" } });
    expect(b.json.session).toBe("b_2-B");
    // Session b never saw session a's messages.
    expect(JSON.stringify(model.requests[1]!.messages)).not.toContain("alpha secret");
    const a2 = await http(d.url, "/", { body: prompt("again"), headers: { "X-Session-Id": "a" } });
    expect(JSON.stringify(model.requests[2]!.messages)).toContain("alpha secret");
    expect(a2.json.session).toBe("a");

    const outside = dirname(d.sessionDir);
    const before = readdirSync(outside).sort();
    for (const id of ["../x", "..", "a/b", "a\\b", "a.json", "x".repeat(65), "", "a b", "a;b", "%2e%2e"]) {
      const answer = await http(d.url, "/", { body: prompt("hi"), headers: { "X-Session-Id": id } });
      expect(answer.status, JSON.stringify(id)).toBe(400);
      expect(answer.json.error).toMatch(/invalid X-Session-Id/);
    }
    for (const path of ["/v1/sessions/..%2Fx/cancel", "/v1/sessions/%2e%2e%2fetc/cancel", "/v1/sessions/a%00/cancel", "/v1/sessions/%E0%A4%A/cancel", `/v1/sessions/${"y".repeat(65)}/cancel`]) {
      const answer = await http(d.url, path, { method: "POST" });
      expect(answer.status, path).toBe(400);
    }
    // Dot segments are resolved before routing: they never reach a session.
    expect((await http(d.url, "/v1/sessions/../../etc/cancel", { method: "POST" })).status).toBe(404);
    expect(readdirSync(outside).sort()).toEqual(before);
    expect(readdirSync(d.sessionDir).sort()).toEqual(["a.json", "b_2-B.json"]);
    expect(model.requests).toHaveLength(3);
  });

  it("answers bad requests with JSON errors and a status code", async () => {
    const model = await mock(() => textReply("ok"));
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

  it("refuses oversize bodies with 413, declared or streamed, and keeps serving", async () => {
    const model = await mock(() => textReply("fine"));
    const d = await daemon({ modelUrl: model.url });
    const huge = prompt("x".repeat(2 * 1024 * 1024));
    const declared = await http(d.url, "/", { body: huge });
    expect(declared.status).toBe(413);
    expect(declared.json.error).toMatch(/limit/);
    const streamed = await http(d.url, "/", { body: huge, chunked: true }).catch((error: NodeJS.ErrnoException) => ({ status: -1, code: error.code }));
    // The daemon answers 413 and closes; the client may see the answer or a reset mid-upload.
    expect([413, -1]).toContain(streamed.status);
    expect(model.requests).toHaveLength(0);
    expect((await http(d.url, "/", { body: prompt("small") })).json.response).toBe("fine");
  });
});

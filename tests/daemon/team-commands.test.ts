// Commands for a turn that runs on another daemon (issue 34, open item 2): the built program, two
// daemons on one private PostgreSQL, the mock model. The turn is posted while only daemon A runs
// (so A runs it); B starts afterwards and a front end attached to B steers the turn, is asked for
// its approvals and answers them, or stops it with force: B relays each to A.
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { http, openEvents, type RunningDaemonProcess, daemonsStoppedAfterEach } from "../helpers/daemon.js";
import { mockModel } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { pgClusterPerFile } from "../helpers/postgres.js";

const db = pgClusterPerFile("cmd");
const daemon = daemonsStoppedAfterEach();

type Message = { role: string; content: string | null };

async function team(script: Parameters<typeof mockModel>[0]) {
  const model = await mockModel(script);
  const url = await db.database();
  const workspace = tempDir("nh-ws-");
  return {
    model,
    workspace,
    async start(): Promise<RunningDaemonProcess> {
      return daemon({ modelUrl: model.url, workspace, args: ["--database-url", url] });
    },
  };
}

const prompt = (text: string) => JSON.stringify({ prompt: text });
const send = (d: RunningDaemonProcess, session: string, body: object) =>
  http(d.url, `/v1/sessions/${session}/commands`, { body: JSON.stringify(body) });
/** The tool call's shell line: says it started (a file), then waits for the test's `go` file. */
const WAIT = "touch waiting; until test -f go; do sleep 0.05; done; echo went";

it("a front end on B steers a turn running on A, is asked for its approval and answers it", async () => {
  const t = await team((req) => {
    const messages = req.messages as Message[];
    const results = messages.filter((m) => m.role === "tool").length;
    if (results === 0) return toolReply([{ id: "call_wait", name: "run_command", args: { command: WAIT } }]);
    if (results === 1)
      return toolReply([{ id: "call_chmod", name: "run_command", args: { command: "chmod -R 777 victim" } }]);
    return textReply(`tool said: ${messages.at(-1)!.content}`);
  });
  mkdirSync(join(t.workspace, "victim"));
  const a = await t.start();
  const posted = http(a.url, "/", { body: prompt("tidy the folder"), headers: { "X-Session-Id": "relay" } });
  await expect.poll(() => existsSync(join(t.workspace, "waiting")), { timeout: 20_000 }).toBe(true);
  // A runs the turn; B starts now and a front end attaches to B (none to A).
  const b = await t.start();
  const follow = await openEvents(b.url, "/v1/sessions/relay/events");
  // The snapshot comes after B recorded the attachment, which A reads before a relayed command.
  await follow.waitFor((e) => e.type === "session.loaded");
  const steer = await send(b, "relay", { type: "user.submit", mode: "steer", text: "and make victim writable" });
  expect(steer.status).toBe(202);
  writeFileSync(join(t.workspace, "go"), "");
  const card = await follow.waitFor((e) => e.type === "approval.requested", 20_000);
  // An answer to no card is refused by A, and the refusal comes back through B.
  const wrong = await send(b, "relay", { type: "approval.reply", requestId: "nope", decision: "once" });
  expect(wrong.status).toBe(409);
  expect(wrong.json.error).toBe('no approval nope is waiting in session "relay"');
  const right = await send(b, "relay", { type: "approval.reply", requestId: card.requestId, decision: "once" });
  expect(right.status).toBe(202);
  const answer = await posted;
  expect(answer.json).toMatchObject({ reason: "completed", response: expect.stringMatching(/^tool said: /) });
  expect(statSync(join(t.workspace, "victim")).mode & 0o777).toBe(0o777);
  // The steer reached the model at the step boundary after the waiting call, on A.
  const second = t.model.requests[1]!.messages as Message[];
  expect(second.filter((m) => m.role === "user").map((m) => m.content)).toContainEqual(
    expect.stringContaining("and make victim writable"),
  );
  expect(t.model.requests).toHaveLength(3);
  follow.close();
}, 60_000);

it("cancel with force on B kills the tool running on A; without a turn, a steer on B is the next prompt", async () => {
  const t = await team((req) => {
    const messages = req.messages as Message[];
    if (messages.at(-1)!.role === "user" && messages.at(-1)!.content === "wait forever")
      return toolReply([{ id: "call_long", name: "run_command", args: { command: `${WAIT}; sleep 600` } }]);
    return textReply(`saw ${messages.filter((m) => m.role === "user").length} prompts`);
  });
  const a = await t.start();
  const posted = http(a.url, "/", { body: prompt("wait forever"), headers: { "X-Session-Id": "stop" } });
  await expect.poll(() => existsSync(join(t.workspace, "waiting")), { timeout: 20_000 }).toBe(true);
  const b = await t.start();
  const cancel = await http(b.url, "/v1/sessions/stop/cancel", { body: '{"force": true}' });
  expect(cancel.json).toEqual({ cancelled: true, session: "stop" });
  // Without force the turn would wait for the call (it never ends): with it, the call is killed.
  const answer = await posted;
  expect(answer.json.reason).toBe("interrupted");
  expect(existsSync(join(t.workspace, "go"))).toBe(false);
  const detail = await http(a.url, "/v1/sessions/stop");
  const result = (detail.json.messages as (Message & { tool_call_id?: string })[]).find(
    (m) => m.tool_call_id === "call_long",
  );
  expect(result?.content).toMatch(/\[interrupted\] stopped by the user after [\d.]+ s\n\(no output\)$/);
  // Nothing runs now: a steer sent to B is taken as the next prompt, through the queue.
  const follow = await openEvents(b.url, "/v1/sessions/stop/events");
  expect((await send(b, "stop", { type: "user.submit", mode: "steer", text: "go on" })).status).toBe(202);
  const done = await follow.waitFor((e) => e.type === "turn.completed", 20_000);
  expect(done.response).toBe("saw 2 prompts");
  follow.close();
}, 60_000);

it("a prompt with an image uploaded to B carries the image to whichever daemon runs it; a steer with one is refused", async () => {
  const t = await team(() => textReply("I see it"));
  const [a, b] = [await t.start(), await t.start()];
  const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: "green" } })
    .png()
    .toBuffer();
  const up = await http(b.url, "/v1/sessions/img/images", { body: png, headers: { "X-File-Name": "shot.png" } });
  expect(up.status).toBe(201);
  const follow = await openEvents(a.url, "/v1/sessions/img/events");
  await follow.waitFor((e) => e.type === "session.loaded");
  const steer = await send(b, "img", { type: "user.submit", mode: "steer", text: "x", images: [up.json.path] });
  expect(steer.status).toBe(409);
  expect(steer.json.error).toMatch(/steers with text only/);
  // Only B's own uploads: a path A never received is refused by A, as on one daemon.
  const elsewhere = await send(a, "img", { type: "user.submit", text: "x", images: [up.json.path] });
  expect(elsewhere.status).toBe(409);
  expect(elsewhere.json.error).toMatch(/images must be uploaded first/);
  expect((await send(b, "img", { type: "user.submit", text: "what is this?", images: [up.json.path] })).status).toBe(
    202,
  );
  expect(await follow.waitFor((e) => e.type === "turn.completed", 20_000)).toMatchObject({ response: "I see it" });
  const content = (t.model.requests[0]!.messages as { role: string; content: unknown }[]).find(
    (m) => m.role === "user",
  )!.content as { type: string; image_url?: { url: string } }[];
  expect(content.map((c) => c.type)).toEqual(["text", "image_url"]);
  expect(content[1]!.image_url!.url).toMatch(/^data:image\/png;base64,/);
  expect(t.model.requests).toHaveLength(1);
  follow.close();
}, 60_000);

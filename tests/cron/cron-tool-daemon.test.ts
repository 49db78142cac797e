// The cron tool end to end against the mock model: a daemon session's model creates a job, the
// attached front end approves it, the daemon plans and runs it, and the scheduled run is not offered
// the tool; a one-shot run with nobody to ask is refused and stores nothing.
import { expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { http, openEvents, type WireJson, daemonsStoppedAfterEach } from "../helpers/daemon.js";
import { mockModel } from "../helpers/e2e-env.js";
import { waitFor } from "../helpers/wait.js";
import { textReply, toolReply, type RecordedRequest } from "../helpers/mock-openai.js";

const daemon = daemonsStoppedAfterEach();

/** Asks every 250 ms until `probe` has an answer (the schedule runs on real time). */
const until = <T>(what: string, probe: () => Promise<T | null | undefined | false>) =>
  waitFor(probe, { what, timeoutMs: 40_000, everyMs: 250 }) as Promise<T>;

type Message = { role: string; content: unknown };
const messagesOf = (req: RecordedRequest) => req.messages as Message[];
const lastUser = (req: RecordedRequest) =>
  String(
    messagesOf(req)
      .filter((m) => m.role === "user")
      .at(-1)?.content ?? "",
  );
const toolNames = (req: RecordedRequest) =>
  (req.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
const lastTool = (req: RecordedRequest) => {
  const last = messagesOf(req).at(-1)!;
  return last.role === "tool" ? String(last.content) : null;
};

const CREATE = {
  action: "create",
  name: "standup",
  schedule: "*/2 * * * * *",
  prompt: "scheduled: say hi",
  tz: "UTC",
};

it("the model creates a job, the attached user approves it, and the daemon runs it without offering the tool", async () => {
  const model = await mockModel((req) => {
    if (lastUser(req).includes("scheduled: say hi")) return textReply("hi from the schedule");
    const result = lastTool(req);
    if (result !== null) return textReply(`tool said: ${result.slice(0, 200)}`);
    return toolReply([{ name: "cron", args: CREATE }]);
  });
  const d = await daemon({ modelUrl: model.url });
  const events = await openEvents(d.url, "/v1/sessions/chat/events");
  await events.waitFor((e) => e.type === "session.loaded");
  const turn = http(d.url, "/", {
    body: JSON.stringify({ prompt: "every 2 seconds, say hi" }),
    headers: { "X-Session-Id": "chat" },
  });
  const asked = await events.waitFor((e) => e.type === "approval.requested");
  expect(asked.title).toBe("cron create standup */2 * * * * *");
  // Consent to scheduled work is offered for this task only.
  expect(asked.alwaysWorkspace).toBe(false);
  const ok = await http(d.url, "/v1/sessions/chat/commands", {
    body: JSON.stringify({ type: "approval.reply", requestId: asked.requestId, decision: "once" }),
  });
  expect(ok.status).toBe(202);
  expect((await turn).json.response).toMatch(/tool said: created standup {2}\*\/2 \* \* \* \* \* \[UTC\]/);
  events.close();

  const job = (await http(d.url, "/v1/cron/jobs/standup")).json;
  expect(job).toMatchObject({ name: "standup", workspace: d.workspace, approval: "never", enabled: true });
  // The tool woke the daemon: the job runs on its schedule, each run a task of its own.
  const run = await until("a completed run", async () =>
    (await http(d.url, "/v1/cron/jobs/standup/runs")).json.runs.find((r: WireJson) => r.status === "completed"),
  );
  expect(run.response).toBe("hi from the schedule");
  const scheduled = model.requests.filter((r) => lastUser(r).includes("scheduled: say hi"));
  const chat = model.requests.filter((r) => lastUser(r).includes("every 2 seconds"));
  expect(scheduled.length).toBeGreaterThan(0);
  expect(chat.length).toBeGreaterThan(0);
  // Offered in the user's session, never inside a scheduled run (nor to anything it could start).
  for (const r of chat) expect(toolNames(r)).toContain("cron");
  for (const r of scheduled) {
    expect(toolNames(r)).not.toContain("cron");
    expect(toolNames(r)).toContain("read_file");
  }
}, 60_000);

it("a one-shot run with nobody to ask is refused the job, and nothing is stored", async () => {
  const model = await mockModel((req) => {
    const result = lastTool(req);
    return result !== null ? textReply(`tool said: ${result}`) : toolReply([{ name: "cron", args: CREATE }]);
  });
  const home = tempDir("nh-home-");
  const ws = tempDir("nh-ws-");
  const env = testEnv({ NANOHERMES_HOME: home, OPENAI_API_KEY: "sk-test" });
  const result = await runCli(["-p", "schedule a standup", "--base-url", model.url, "--sandbox", "off"], {
    env,
    cwd: ws,
  });
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(
    /tool said: not run: this call needs approval .*nobody can answer here.*--allow tool:cron or --yolo/,
  );
  const listed = await runCli(["cron", "list", "--json"], { env, cwd: ws });
  expect(JSON.parse(listed.stdout).jobs).toEqual([]);
  // `nanohermes tool cron` is the same tool: without a terminal the change is refused, listing reads.
  const typed = await runCli(["tool", "cron", JSON.stringify(CREATE)], { env, cwd: ws });
  expect(typed.code).toBe(1);
  expect(typed.stdout).toMatch(/nobody can answer here/);
  const allowed = await runCli(["tool", "cron", JSON.stringify(CREATE), "--allow", "tool:cron"], { env, cwd: ws });
  expect(allowed.code).toBe(0);
  expect(allowed.stdout).toMatch(/^created standup/);
  const list = await runCli(["tool", "cron", '{"action":"list"}'], { env, cwd: ws });
  expect(list.stdout).toMatch(/^standup {2}\*\/2 \* \* \* \* \* \[UTC\]/);
}, 60_000);

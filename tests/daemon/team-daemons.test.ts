// Daemons in a team (issue 34, items 2, 3 and 5): the built program, several daemons on one private
// PostgreSQL cluster (one per file, a database per test), the mock model. Any daemon serves any
// session; a daemon killed mid-turn leaves the turn to another, which resumes it from the last
// whole step and never runs the in-flight tool call again.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import {
  http,
  openEvents,
  startDaemonProcess,
  type RunningDaemonProcess,
  daemonsStoppedAfterEach,
} from "../helpers/daemon.js";
import { mockModel } from "../helpers/e2e-env.js";
import { textReply, toolReply, type MockServer } from "../helpers/mock-openai.js";
import { pgClusterPerFile } from "../helpers/postgres.js";
import { waitFor } from "../helpers/wait.js";

const TOKEN = "0123456789abcdef0123456789abcdef0123456789abcdef";
const auth = { Authorization: `Bearer ${TOKEN}` };
const db = pgClusterPerFile("team");
const daemon = daemonsStoppedAfterEach();

/** A team: one database, one token file, one workspace; `start` adds a daemon. */
async function team(model: MockServer, env: Record<string, string> = {}) {
  const url = await db.database();
  const tokenFile = join(tempDir("nh-token-"), "token");
  writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
  const workspace = tempDir("nh-ws-");
  return {
    url,
    workspace,
    async start(): Promise<RunningDaemonProcess> {
      return daemon({
        modelUrl: model.url,
        workspace,
        args: ["--daemon-token-file", tokenFile, "--database-url", url],
        env,
      });
    },
  };
}

const prompt = (text: string) => JSON.stringify({ prompt: text });
const lastUser = (messages: unknown[]) =>
  (messages as { role: string; content: unknown }[]).filter((m) => m.role === "user").at(-1)?.content;

describe("daemons sharing one PostgreSQL", () => {
  it("name their store at start; /health reports the database and the queue; a bad URL is refused clearly", async () => {
    const model = await mockModel(() => textReply("ok"));
    const t = await team(model);
    const a = await t.start();
    expect(a.stderr()).toMatch(/store: PostgreSQL postgres:\/\/nh@127\.0\.0\.1:\d+\/team\d+ \(schema 6\)/);
    const health = await http(a.url, "/health");
    expect(health.json).toMatchObject({ status: "ok", store: "postgres", database: "ok", queueDepth: 0 });
    const embedded = await daemon({ modelUrl: model.url });
    expect(embedded.stderr()).toMatch(/store: embedded \(session files in /);
    expect((await http(embedded.url, "/health")).json.store).toBe("embedded");
    await expect(
      startDaemonProcess({ modelUrl: model.url, args: ["--database-url", "mysql://x@y/z"] }),
    ).rejects.toThrow(/must be a postgres:\/\/USER@HOST:PORT\/DB URL/);
  });

  it("serve any session from any daemon: post to A, follow and cancel from B, go on from B with the history", async () => {
    const model = await mockModel((req) =>
      lastUser(req.messages) === "count slowly"
        ? textReply("one two three four five six seven eight nine ten eleven twelve", {
            chunkSize: 3,
            chunkDelayMs: 150,
          })
        : textReply(`seen ${(req.messages as unknown[]).length} messages`),
    );
    const t = await team(model);
    const [a, b] = [await t.start(), await t.start()];
    const posted = http(a.url, "/", { body: prompt("count slowly"), headers: { ...auth, "X-Session-Id": "shared" } });
    const follow = await openEvents(b.url, "/v1/sessions/shared/events", { headers: auth });
    await follow.waitFor((e) => e.type === "assistant.delta", 20_000);
    const cancel = await http(b.url, "/v1/sessions/shared/cancel", { body: "{}", headers: auth });
    expect(cancel.json).toEqual({ cancelled: true, session: "shared" });
    const answer = await posted;
    expect(answer.json).toMatchObject({ session: "shared", reason: "interrupted" });
    const done = await follow.waitFor((e) => e.type === "turn.completed", 20_000);
    expect(done.reason).toBe("interrupted");
    // Every event B relayed is the shared store's (t.<seq>), in order.
    const seqs = follow.messages.filter((m) => m.id?.startsWith("t.")).map((m) => Number(m.id!.slice(2)));
    expect(seqs.length).toBeGreaterThan(2);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    follow.close();
    // B lists the session and its next turn sees the first one's prompt.
    const list = await http(b.url, "/v1/sessions", { headers: auth });
    expect(list.json.sessions.map((s: { id: string }) => s.id)).toEqual(["shared"]);
    const next = await http(b.url, "/", { body: prompt("and now?"), headers: { ...auth, "X-Session-Id": "shared" } });
    expect(next.json.reason).toBe("completed");
    const last = model.requests.at(-1)!.messages as { role: string; content: string }[];
    expect(last.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["count slowly", "and now?"]);
    // Without the token B refuses, as one daemon does.
    expect((await http(b.url, "/v1/sessions/shared/cancel", { body: "{}" })).status).toBe(401);
  });

  it("takes an attached front end's prompt and stop through the team: /commands on one daemon, events on another", async () => {
    const model = await mockModel((req) =>
      lastUser(req.messages) === "long one"
        ? textReply("a b c d e f g h i j k l m n o p", { chunkSize: 2, chunkDelayMs: 150 })
        : textReply("short answer"),
    );
    const t = await team(model);
    const [a, b] = [await t.start(), await t.start()];
    const send = (d: RunningDaemonProcess, body: object) =>
      http(d.url, "/v1/sessions/ui/commands", { body: JSON.stringify(body), headers: auth });
    const follow = await openEvents(a.url, "/v1/sessions/ui/events", { headers: auth });
    expect((await send(b, { type: "user.submit", text: "short one" })).status).toBe(202);
    expect(await follow.waitFor((e) => e.type === "turn.completed", 20_000)).toMatchObject({
      reason: "completed",
      response: "short answer",
    });
    expect((await send(b, { type: "user.submit", text: "long one" })).status).toBe(202);
    // The long turn is streaming: a delta after its turn.started.
    await expect
      .poll(
        () => {
          const start = follow.events.findIndex((e) => e.type === "turn.started" && e.prompt === "long one");
          return start >= 0 && follow.events.slice(start).some((e) => e.type === "assistant.delta");
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    expect((await send(a, { type: "turn.interrupt" })).status).toBe(202);
    const ends = () => follow.events.filter((e) => e.type === "turn.completed");
    await expect.poll(() => ends().length, { timeout: 20_000 }).toBe(2);
    expect(ends()[1].reason).toBe("interrupted");
    // An image that is not this daemon's upload is refused with a reason, not dropped.
    const image = await send(a, { type: "user.submit", text: "x", images: ["/tmp/x.png"] });
    expect(image.status).toBe(409);
    expect(image.json.error).toMatch(/images must be uploaded first/);
    follow.close();
  });

  it("run a team turn through the one gate: a blocked command is refused, a dangerous one with nobody to ask", async () => {
    const model = await mockModel((req) => {
      const last = (req.messages as { role: string; content: unknown }[]).at(-1)!;
      if (last.role === "tool") return textReply(`tool said: ${String(last.content)}`);
      return toolReply([{ name: "run_command", args: { command: String(last.content) } }]);
    });
    const t = await team(model);
    mkdirSync(join(t.workspace, "victim"));
    writeFileSync(join(t.workspace, "victim", "keep.txt"), "keep\n");
    const [a, b] = [await t.start(), await t.start()];
    const ask = async (d: RunningDaemonProcess, text: string) =>
      (await http(d.url, "/", { body: prompt(text), headers: { ...auth, "X-Session-Id": "gate" } })).json as {
        response: string;
        reason: string;
      };
    const blocked = await ask(a, "rm -rf --no-preserve-root victim");
    expect(blocked.response).toMatch(/^tool said: refused: refused in every mode/);
    expect(blocked.reason).toBe("completed");
    const dangerous = await ask(b, "chmod -R 777 victim");
    expect(dangerous.response).toMatch(/^tool said: not run: this call needs approval/);
    expect(readFileSync(join(t.workspace, "victim", "keep.txt"), "utf8")).toBe("keep\n");
    expect(statSync(join(t.workspace, "victim")).mode & 0o777).not.toBe(0o777);
  });

  it("keeps one session's turns in arrival order when they are posted to two daemons", async () => {
    // The first turn is slow, so the others wait in the queue behind it.
    const model = await mockModel((req) =>
      lastUser(req.messages) === "turn 0"
        ? textReply("the first turn takes a while", { chunkSize: 2, chunkDelayMs: 100 })
        : textReply("done"),
    );
    const t = await team(model);
    const [a, b] = [await t.start(), await t.start()];
    const post = (d: RunningDaemonProcess, text: string) =>
      http(d.url, "/", { body: prompt(text), headers: { ...auth, "X-Session-Id": "fifo" } });
    const answers = [post(a, "turn 0")];
    await expect.poll(() => model.requests.length, { timeout: 20_000 }).toBe(1);
    for (let i = 1; i < 4; i++) {
      answers.push(post(i % 2 ? b : a, `turn ${i}`));
      // Posted one after another: each is in the queue before the next is sent.
      await expect.poll(async () => (await http(a.url, "/health")).json.queueDepth, { timeout: 20_000 }).toBe(i);
    }
    const results = (await Promise.all(answers)) as { json: { reason: string } }[];
    expect(results.map((r) => r.json.reason)).toEqual(["completed", "completed", "completed", "completed"]);
    expect(model.requests.map((r) => lastUser(r.messages))).toEqual(["turn 0", "turn 1", "turn 2", "turn 3"]);
    // Each turn saw every earlier one, whichever daemon ran it.
    expect(
      model.requests.map((r) => (r.messages as { role: string }[]).filter((m) => m.role === "user").length),
    ).toEqual([1, 2, 3, 4]);
  });

  it("kill -9 of the daemon running a turn: another resumes it from the last whole step, the running call reported as interrupted, never run again", async () => {
    const marker = "ran.txt";
    const model = await mockModel((req) => {
      const messages = req.messages as { role: string; content: string }[];
      const last = messages.at(-1)!;
      if (lastUser(messages) === "build it" && last.role === "user")
        return toolReply([
          { id: "call_slow", name: "run_command", args: { command: `echo once >> ${marker}; sleep 20` } },
        ]);
      return textReply("finished after the restart");
    });
    const t = await team(model, { NANOHERMES_TEAM_LEASE_MS: "1500" });
    const a = await t.start();
    const follow = await openEvents(a.url, "/v1/sessions/crash/events", { headers: auth });
    void http(a.url, "/", { body: prompt("build it"), headers: { ...auth, "X-Session-Id": "crash" } }).catch(() => {});
    await follow.waitFor((e) => e.type === "tool.started", 20_000);
    await waitFor(() => readFileSync(join(t.workspace, marker), "utf8"), { what: `the command wrote ${marker}` });
    follow.close();
    await a.stop("SIGKILL");
    const b = await t.start();
    // B takes the turn once A's lease runs out, and finishes it.
    const detail = await waitFor(
      async () => {
        const d = await http(b.url, "/v1/sessions/crash", { headers: auth });
        return d.json.messages?.at(-1)?.content === "finished after the restart" ? d : null;
      },
      { what: "B finished the turn after A's lease ran out", timeoutMs: 20_000, everyMs: 50 },
    );
    const messages = detail.json.messages as { role: string; content: string | null; tool_call_id?: string }[];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user", "assistant"]);
    expect(messages[0]!.content).toBe("build it");
    expect(messages[2]).toMatchObject({ tool_call_id: "call_slow" });
    expect(messages[2]!.content).toMatch(/^\[interrupted\] the daemon running this call stopped/);
    expect(messages[3]!.content).toMatch(/another daemon resumes it.*run_command \(call_slow\)/);
    expect(messages[4]!.content).toBe("finished after the restart");
    // The command ran once: on A, before the kill.
    expect(readFileSync(join(t.workspace, marker), "utf8")).toBe("once\n");
    expect(model.requests).toHaveLength(2);
  });

  it("fires each scheduled instant once across three daemons; the others record who fired it", async () => {
    const model = await mockModel(() => textReply("checked"));
    const t = await team(model);
    const daemons = [await t.start(), await t.start(), await t.start()];
    // Each daemon has its own home (its own cron.db, as on three machines); the job is added on
    // one of them and the team's table gives it to the others.
    const added = await http(daemons[0]!.url, "/v1/cron/jobs", {
      body: JSON.stringify({ name: "tick", schedule: "*/2 * * * * *", prompt: "check it", workspace: t.workspace }),
      headers: auth,
    });
    expect(added.status).toBe(201);
    type Run = { scheduledFor: number; status: string; error: string | null; node?: string };
    const viewOf = async (d: (typeof daemons)[number]) =>
      (await http(d.url, "/v1/cron/jobs/tick/runs", { headers: auth })).json.runs as Run[];
    // Each daemon's own rows (its view also holds the others', with their node).
    const runsOf = async () =>
      Promise.all(daemons.map(async (d) => (await viewOf(d)).filter((r) => r.node === undefined)));
    // Instants every daemon has settled (none still claimed or running).
    const settled = (all: Run[][]) => {
      const by = new Map<number, Run[]>();
      for (const runs of all)
        for (const run of runs) by.set(run.scheduledFor, [...(by.get(run.scheduledFor) ?? []), run]);
      return [...by.values()].filter(
        (runs) => runs.length === 3 && runs.every((r) => r.status === "completed" || r.status === "skipped"),
      );
    };
    let instants: Run[][] = [];
    await expect
      .poll(
        async () => {
          instants = settled(await runsOf());
          return instants.length;
        },
        { timeout: 40_000, interval: 250 },
      )
      .toBeGreaterThanOrEqual(3);
    for (const runs of instants) {
      expect(runs.filter((r) => r.status === "completed")).toHaveLength(1);
      for (const r of runs.filter((x) => x.status === "skipped")) expect(r.error).toMatch(/^fired by \S+:\d+$/);
    }
    // Any daemon's view has the three rows of an instant: the team's runs.
    const first = instants[0]![0]!.scheduledFor;
    await expect
      .poll(
        async () =>
          (await viewOf(daemons[1]!))
            .filter((r) => r.scheduledFor === first)
            .map((r) => r.status)
            .sort(),
        {
          timeout: 20_000,
        },
      )
      .toEqual(["completed", "skipped", "skipped"]);
    // One model request per fired instant, not three.
    const fired = settled(await runsOf()).length;
    expect(model.requests.length).toBeLessThanOrEqual(fired + 3);
    expect(model.requests.length).toBeGreaterThanOrEqual(fired);
  }, 60_000);
});

// Attaching mid-turn to a turn that runs on another daemon (issue 34, open item 3): the built
// program, two daemons on one private PostgreSQL, the mock model. The snapshot B sends holds the
// turn's finished steps (the session as stored); the events that follow start after the seq that
// stored copy reflects, so a front end (the UI's own transcript reducer here) shows each step once.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { emptyTranscript, reduceTranscript, type TranscriptState } from "../../src/ui/state/transcript.js";
import { tempDir } from "../helpers/cli.js";
import { openEvents, http, type WireJson, daemonsStoppedAfterEach } from "../helpers/daemon.js";
import { mockModel } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { pgClusterPerFile } from "../helpers/postgres.js";

const pgFile = pgClusterPerFile("attach");
const daemon = daemonsStoppedAfterEach();

type Message = { role: string; content: string | null };

/** What the UI would show after these events. */
const shown = (events: WireJson[]): TranscriptState =>
  events.reduce((state: TranscriptState, event) => reduceTranscript(state, event), emptyTranscript());
const count = (state: TranscriptState, pred: (b: WireJson) => boolean) => state.blocks.filter(pred).length;

it("a front end attached to B mid-turn sees the finished steps of A's turn once, then the rest live", async () => {
  const model = await mockModel((req) => {
    const results = (req.messages as Message[]).filter((m) => m.role === "tool").length;
    if (results === 0) return toolReply([{ id: "call_first", name: "run_command", args: { command: "echo first" } }]);
    if (results === 1)
      return toolReply([
        {
          id: "call_wait",
          name: "run_command",
          args: { command: "touch waiting; until test -f go; do sleep 0.05; done; echo went" },
        },
      ]);
    return textReply("both done");
  });
  const url = await pgFile.cluster.createDatabase("attach");
  const workspace = tempDir("nh-ws-");
  const start = async () => {
    return daemon({ modelUrl: model.url, workspace, args: ["--database-url", url] });
  };
  const a = await start();
  const posted = http(a.url, "/", {
    body: JSON.stringify({ prompt: "do two things" }),
    headers: { "X-Session-Id": "mid" },
  });
  await expect.poll(() => existsSync(join(workspace, "waiting")), { timeout: 20_000 }).toBe(true);
  // The first step is in the store (user, the call, its result) before B attaches.
  const { default: pg } = await import("pg");
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await expect
      .poll(async () => (await db.query("SELECT messages FROM nh_sessions WHERE id = 'mid'")).rows[0]?.messages ?? 0, {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(3);
  } finally {
    await db.end();
  }

  const b = await start();
  const follow = await openEvents(b.url, "/v1/sessions/mid/events");
  await follow.waitFor((e) => e.type === "tool.started" && e.callId === "call_wait", 20_000);
  const midway = shown(follow.events);
  expect(midway.running).toBe(true);
  expect(count(midway, (x) => x.kind === "user")).toBe(1);
  expect(count(midway, (x) => x.kind === "tool" && x.callId === "call_first")).toBe(1);
  expect(count(midway, (x) => x.kind === "tool" && x.callId === "call_wait")).toBe(1);

  writeFileSync(join(workspace, "go"), "");
  await follow.waitFor((e) => e.type === "turn.completed", 20_000);
  expect((await posted).json.reason).toBe("completed");
  const end = shown(follow.events);
  expect(end.running).toBe(false);
  expect(end.blocks.filter((x) => x.kind === "user").map((x) => (x as { text: string }).text)).toEqual([
    "do two things",
  ]);
  expect(count(end, (x) => x.kind === "tool" && x.callId === "call_first")).toBe(1);
  expect(count(end, (x) => x.kind === "tool" && x.callId === "call_wait")).toBe(1);
  expect(count(end, (x) => x.kind === "assistant" && x.text === "both done")).toBe(1);
  // Every relayed event after the snapshot is the shared store's, each once, in order.
  const seqs = follow.messages.filter((m) => m.id?.startsWith("t.")).map((m) => Number(m.id!.slice(2)));
  expect(new Set(seqs).size).toBe(seqs.length);
  expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
  follow.close();
}, 60_000);

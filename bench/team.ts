// Team daemons (issue 34): 50 sessions x 5 turns through POST / (each session's turns in
// sequence, the sessions at once, spread over the daemons), the mock model answering after a fixed
// delay. One daemon on the embedded store is the baseline; 1, 2 and 4 daemons on one PostgreSQL
// (a private cluster started here) are compared with it in the same run. Every answer is checked
// against its prompt (a lost, doubled or misrouted turn is a violation). Run alone:
// NANOHERMES_BENCH_ONLY=team npm run bench.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { tempDir } from "../tests/helpers/cli.js";
import { http, startDaemonProcess, type RunningDaemonProcess } from "../tests/helpers/daemon.js";
import { startMockServer, textReply, type RecordedRequest } from "../tests/helpers/mock-openai.js";
import { startPgCluster } from "../tests/helpers/postgres.js";

const SESSIONS = 50;
const TURNS = 5;
const MODEL_DELAY_MS = 20;
const TOKEN = randomBytes(24).toString("hex");

export interface TeamRun {
  store: "embedded" | "postgres";
  daemons: number;
  turns: number;
  violations: number;
  wallMs: number;
  turnsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
}

export interface TeamFigures {
  sessions: number;
  turnsPerSession: number;
  modelDelayMs: number;
  runs: TeamRun[];
  /** Throughput of each PostgreSQL run over the embedded one's (same run, same machine). */
  throughputVsEmbedded: Record<string, number>;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.ceil(s.length * p) - 1)]!.toFixed(1);
};

async function load(label: TeamRun["store"], daemons: RunningDaemonProcess[]): Promise<TeamRun> {
  const latencies: number[] = [];
  let violations = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SESSIONS }, async (_, s) => {
      const session = `s${s}`;
      for (let t = 0; t < TURNS; t++) {
        // Turns of one session go to different daemons: any daemon serves any session.
        const d = daemons[(s + t) % daemons.length]!;
        const prompt = `${session} turn ${t}`;
        const begin = performance.now();
        const answer = await http(d.url, "/", {
          body: JSON.stringify({ prompt }),
          headers: { Authorization: `Bearer ${TOKEN}`, "X-Session-Id": session },
        }).catch(() => null);
        latencies.push(performance.now() - begin);
        if (answer?.json?.response !== `ack ${prompt} after ${t} earlier`) violations++;
      }
    }),
  );
  const wallMs = performance.now() - started;
  return {
    store: label,
    daemons: daemons.length,
    turns: SESSIONS * TURNS,
    violations,
    wallMs: Math.round(wallMs),
    turnsPerSecond: +((SESSIONS * TURNS * 1000) / wallMs).toFixed(1),
    p50Ms: pct(latencies, 0.5),
    p95Ms: pct(latencies, 0.95),
  };
}

export async function benchTeam(): Promise<TeamFigures> {
  // The answer names the prompt and how many earlier prompts the session had: a turn that ran
  // out of order, or on a history another daemon did not see, answers wrong.
  const model = await startMockServer(async (req: RecordedRequest) => {
    const users = (req.messages as { role: string; content: unknown }[]).filter((m) => m.role === "user");
    await sleep(MODEL_DELAY_MS);
    return textReply(`ack ${String(users.at(-1)?.content)} after ${users.length - 1} earlier`);
  });
  const tokenFile = join(tempDir("nh-bench-token-"), "token");
  writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
  const cluster = await startPgCluster();
  const running: RunningDaemonProcess[] = [];
  const start = async (args: string[]) => {
    const d = await startDaemonProcess({ modelUrl: model.url, args: ["--daemon-token-file", tokenFile, ...args] });
    running.push(d);
    return d;
  };
  const stopAll = async () => {
    await Promise.all(running.splice(0).map((d) => d.stop()));
  };
  const runs: TeamRun[] = [];
  try {
    runs.push(await load("embedded", [await start([])]));
    await stopAll();
    for (const n of [1, 2, 4]) {
      const url = await cluster.createDatabase(`bench${n}`);
      const daemons: RunningDaemonProcess[] = [];
      for (let i = 0; i < n; i++) daemons.push(await start(["--database-url", url]));
      runs.push(await load("postgres", daemons));
      await stopAll();
    }
  } finally {
    await stopAll();
    await model.close();
    await cluster.stop();
  }
  const base = runs[0]!.turnsPerSecond;
  return {
    sessions: SESSIONS,
    turnsPerSession: TURNS,
    modelDelayMs: MODEL_DELAY_MS,
    runs,
    throughputVsEmbedded: Object.fromEntries(
      runs.slice(1).map((r) => [`postgres x${r.daemons}`, +(r.turnsPerSecond / base).toFixed(2)]),
    ),
  };
}

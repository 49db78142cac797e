// The daemon under load: the built program with --daemon (a bearer token, memory off) against the
// mock model, 50 sessions at once doing 5 turns each through POST /. Every answer, every session
// file and every model request is checked against the session that sent it (a turn that lands in
// another session, or is lost or doubled, is a violation; the expected count is 0). Then latency per
// turn, the model's own time for that turn (measured inside the mock: from the request received to
// the reply handed over; the mock waits a fixed MODEL_DELAY_MS), the daemon's overhead (the
// difference), the same on one session with no other load in the same run (so the comparison is a
// ratio, not an absolute timing), throughput and the daemon's RSS. Run alone:
// NANOHERMES_BENCH_ONLY=daemon npm run bench.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { tempDir } from "../tests/helpers/cli.js";
import { http, startDaemonProcess, type RunningDaemonProcess } from "../tests/helpers/daemon.js";
import { startMockServer, textReply, type MockServer, type RecordedRequest } from "../tests/helpers/mock-openai.js";

const SESSIONS = 50;
const TURNS = 5;
/** The mock answers every request after this fixed delay (a fast local model, not an instant one). */
export const MODEL_DELAY_MS = 20;
/** One turn that takes longer than this is a violation (and the bench moves on). */
const TURN_TIMEOUT_MS = 60_000;
const TOKEN = randomBytes(24).toString("hex");

export interface Spread {
  p50: number;
  p95: number;
  max: number;
}

export interface DaemonFigures {
  sessions: number;
  turnsPerSession: number;
  turns: number;
  modelDelayMs: number;
  /** Everything that was not as expected; 0 is the only acceptable value. */
  violations: number;
  /** The first violations, described. */
  problems: string[];
  wallMs: number;
  turnsPerSecond: number;
  /** Client side: performance.now() around each POST /. */
  latencyMs: Spread;
  /** Inside the mock: request body received to reply handed over, for the request of that turn. */
  modelMs: Spread;
  /** Per turn: latency minus that turn's model time. */
  overheadMs: Spread;
  /** Turn 1 of each load session (the session is created then) and turns 2 to 5, client side. */
  latencyFirstTurnMs: Spread;
  latencyLaterTurnsMs: Spread;
  /** The daemon's CPU time (user + system) during the load, per turn and as a share of one core. */
  daemonCpuMsPerTurn: number;
  daemonCpuPercent: number;
  /** Most model requests the mock served at once during the load. */
  modelInFlightMax: number;
  /** One session, 5 turns in sequence, nothing else running (before the load, after a warm-up). */
  unloaded: { latencyMs: Spread; modelMs: Spread; overheadMs: Spread };
  /** The same on a fresh session after the load (does the daemon stay as fast with 50 more sessions?). */
  unloadedAfter: { latencyMs: Spread; overheadMs: Spread };
  /** Under load / unloaded, p50 and p95. */
  latencyRatio: { p50: number; p95: number };
  overheadRatio: { p50: number; p95: number };
  /** A POST of a recorded daemon request straight to the mock, 20 in sequence: the model plus HTTP. */
  directModelMs: Spread;
  /** The daemon's VmRSS before the load, VmHWM during it (reset just before), VmRSS after it. */
  rssMb: { before: number; peak: number; after: number; peakIsLifetime: boolean };
  /** stderr lines of the daemon other than its per-turn report lines. */
  stderrOther: string[];
}

const round = (ms: number) => Math.round(ms * 10) / 10;
function spread(xs: number[]): Spread {
  if (xs.length === 0) return { p50: 0, p95: 0, max: 0 };
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(s.length * p) - 1))]!;
  return { p50: round(at(0.5)), p95: round(at(0.95)), max: round(s[s.length - 1]!) };
}
const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);

const PROMPT = /^session (\S+) turn (\d+) nonce-([0-9a-f]{12})$/;
const SESSION_IDS = /\b(?:load-\d\d|solo(?:-after)?|warmup)\b/g;
const NONCES = /nonce-([0-9a-f]{12})/g;

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((p: { text?: unknown }) => (typeof p?.text === "string" ? p.text : "")).join("")
      : "";
const userTexts = (messages: unknown[]): string[] =>
  (messages as { role?: string; content?: unknown }[]).filter((m) => m.role === "user").map((m) => textOf(m.content));

/** `/proc/<pid>/status` fields in MB (Linux). */
function procMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : 0;
  } catch {
    return 0;
  }
}

/** User + system CPU time of a process in ms, from /proc/<pid>/stat (Linux); null elsewhere. */
let ticksPerSecond = 0;
function cpuMs(pid: number): number | null {
  try {
    if (!ticksPerSecond)
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

interface Turn {
  session: string;
  n: number;
  nonce: string;
  prompt: string;
  expected: string;
  latencyMs?: number;
}

export async function benchDaemon(): Promise<DaemonFigures> {
  const problems: string[] = [];
  let violations = 0;
  const violation = (text: string) => {
    violations += 1;
    if (problems.length < 30) problems.push(text);
  };

  // Who owns each nonce, and the model's time for each turn (keyed by its nonce).
  const turnsByNonce = new Map<string, Turn>();
  const modelSpan = new Map<string, number>();
  const seenByModel = new Map<string, number>();
  const model: MockServer = await startMockServer(async (req: RecordedRequest) => {
    const users = userTexts(req.messages);
    const match = PROMPT.exec(users[users.length - 1] ?? "");
    await sleep(MODEL_DELAY_MS);
    if (!match) return textReply("no marker in the last user message");
    const nonce = match[3]!;
    seenByModel.set(nonce, (seenByModel.get(nonce) ?? 0) + 1);
    // Handed over now: the stream is written without any further wait.
    modelSpan.set(nonce, performance.now() - req.receivedAt);
    return textReply(`ack ${match[1]} turn ${match[2]} nonce-${nonce}`);
  });

  const tokenDir = tempDir("nh-bench-token-");
  const tokenFile = join(tokenDir, "token");
  writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
  let daemon: RunningDaemonProcess | null = null;
  try {
    daemon = await startDaemonProcess({ modelUrl: model.url, args: ["--daemon-token-file", tokenFile] });
    const d = daemon;
    const pid = d.child.pid!;

    const makeTurn = (session: string, n: number): Turn => {
      let nonce = randomBytes(6).toString("hex");
      while (turnsByNonce.has(nonce)) nonce = randomBytes(6).toString("hex");
      const turn: Turn = {
        session,
        n,
        nonce,
        prompt: `session ${session} turn ${n} nonce-${nonce}`,
        expected: `ack ${session} turn ${n} nonce-${nonce}`,
      };
      turnsByNonce.set(nonce, turn);
      return turn;
    };

    /** One POST /, checked; the latency is kept on the turn. */
    const post = async (turn: Turn): Promise<void> => {
      const t0 = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        const answer = await Promise.race([
          http(d.url, "/", {
            body: JSON.stringify({ prompt: turn.prompt }),
            headers: {
              Authorization: `Bearer ${TOKEN}`,
              "X-Session-Id": turn.session,
              "Content-Type": "application/json",
            },
          }),
          new Promise<never>(
            (_, reject) =>
              (timer = setTimeout(
                () => reject(new Error(`no answer in ${TURN_TIMEOUT_MS / 1000} s`)),
                TURN_TIMEOUT_MS,
              )),
          ),
        ]);
        turn.latencyMs = performance.now() - t0;
        const where = `${turn.session} turn ${turn.n}`;
        if (answer.status !== 200) violation(`${where}: status ${answer.status}: ${answer.text.slice(0, 200)}`);
        else if (answer.json?.session !== turn.session)
          violation(`${where}: answered as session ${JSON.stringify(answer.json?.session)}`);
        else if (answer.json?.reason !== "completed")
          violation(`${where}: reason ${answer.json?.reason} ${answer.json?.error ?? ""}`);
        else if (answer.json?.response !== turn.expected)
          violation(
            `${where}: response ${JSON.stringify(answer.json?.response).slice(0, 200)}, expected ${JSON.stringify(turn.expected)}`,
          );
      } catch (error) {
        violation(`${turn.session} turn ${turn.n}: ${(error as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    };

    /** Every turn of one session in sequence. */
    const session = async (id: string): Promise<Turn[]> => {
      const turns: Turn[] = [];
      for (let n = 1; n <= TURNS; n++) {
        const turn = makeTurn(id, n);
        turns.push(turn);
        await post(turn);
      }
      return turns;
    };
    const latencies = (turns: Turn[]) => turns.flatMap((t) => (t.latencyMs === undefined ? [] : [t.latencyMs]));
    const models = (turns: Turn[]) => turns.flatMap((t) => (modelSpan.has(t.nonce) ? [modelSpan.get(t.nonce)!] : []));
    const overheads = (turns: Turn[]) =>
      turns.flatMap((t) =>
        t.latencyMs !== undefined && modelSpan.has(t.nonce) ? [t.latencyMs - modelSpan.get(t.nonce)!] : [],
      );

    // Warm the daemon up (first session, extensions loaded, code paths compiled), then one session alone.
    await session("warmup");
    const solo = await session("solo");

    // The load: 50 sessions at once.
    const before = procMb(pid, "VmRSS");
    let peakIsLifetime = false;
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, "5"); // resets VmHWM to the current RSS
    } catch {
      peakIsLifetime = true;
    }
    const firstRequest = model.requests.length;
    model.maxInFlight = model.inFlight;
    const ids = Array.from({ length: SESSIONS }, (_, i) => `load-${String(i).padStart(2, "0")}`);
    const cpuBefore = cpuMs(pid);
    const t0 = performance.now();
    const load = (await Promise.all(ids.map((id) => session(id)))).flat();
    const wallMs = performance.now() - t0;
    const cpuAfter = cpuMs(pid);
    const cpuLoad = cpuBefore === null || cpuAfter === null ? 0 : cpuAfter - cpuBefore;
    const peak = procMb(pid, "VmHWM");
    const after = procMb(pid, "VmRSS");
    const modelInFlightMax = model.maxInFlight;
    const loadRequests = model.requests.slice(firstRequest);

    // The model saw each turn exactly once, with only its own session's history, in order.
    if (loadRequests.length !== SESSIONS * TURNS)
      violation(`the model saw ${loadRequests.length} requests during the load, expected ${SESSIONS * TURNS}`);
    for (const [i, req] of loadRequests.entries()) {
      const users = userTexts(req.messages);
      const last = PROMPT.exec(users[users.length - 1] ?? "");
      const owner = last ? turnsByNonce.get(last[3]!) : undefined;
      if (!owner || owner.session !== last![1] || String(owner.n) !== last![2]) {
        violation(
          `model request #${i}: the last user message is not a prompt of this run: ${JSON.stringify(users[users.length - 1] ?? "").slice(0, 120)}`,
        );
        continue;
      }
      const text = JSON.stringify(req.messages);
      const strangers = new Set([...text.matchAll(SESSION_IDS)].map((m) => m[0]).filter((s) => s !== owner.session));
      for (const m of text.matchAll(NONCES)) {
        const other = turnsByNonce.get(m[1]!);
        if (other && other.session !== owner.session) strangers.add(`${other.session} (nonce)`);
      }
      if (strangers.size > 0)
        violation(`model request for ${owner.session} turn ${owner.n} carries ${[...strangers].join(", ")}`);
      const expected = Array.from(
        { length: owner.n },
        (_, k) => load.find((t) => t.session === owner.session && t.n === k + 1)?.prompt,
      );
      if (JSON.stringify(users) !== JSON.stringify(expected))
        violation(
          `model request for ${owner.session} turn ${owner.n}: user messages ${JSON.stringify(users).slice(0, 300)}`,
        );
    }
    for (const turn of load) {
      const seen = seenByModel.get(turn.nonce) ?? 0;
      if (seen !== 1) violation(`${turn.session} turn ${turn.n}: the model saw it ${seen} times`);
    }

    // Each session file holds exactly its own 5 prompts, in order, and nothing of another session.
    for (const id of ids) {
      const file = join(d.sessionDir, `${id}.json`);
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (error) {
        violation(`${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        continue;
      }
      let data: { messages?: unknown[] };
      try {
        data = JSON.parse(text) as { messages?: unknown[] };
      } catch (error) {
        violation(`${id}.json is not JSON: ${(error as Error).message}`);
        continue;
      }
      const users = userTexts(data.messages ?? []);
      const expected = load.filter((t) => t.session === id).map((t) => t.prompt);
      if (JSON.stringify(users) !== JSON.stringify(expected))
        violation(`${id}.json: user messages ${JSON.stringify(users).slice(0, 300)}`);
      const strangers = new Set([...text.matchAll(SESSION_IDS)].map((m) => m[0]).filter((s) => s !== id));
      for (const m of text.matchAll(NONCES)) {
        const other = turnsByNonce.get(m[1]!);
        if (other && other.session !== id) strangers.add(`${other.session} (nonce)`);
      }
      if (strangers.size > 0) violation(`${id}.json carries ${[...strangers].join(", ")}`);
    }

    const health = await http(d.url, "/health").catch((error: Error) => ({ json: null, text: error.message }));
    if (health.json?.running !== 0) violation(`after the load /health says ${health.text.trim()}`);

    // One fresh session alone again, after the load.
    const soloAfter = await session("solo-after");

    // The model alone, as an HTTP client sees it: a recorded daemon request posted straight to the mock.
    const sample = model.requests[firstRequest - 1]!;
    const direct: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      const answer = await http(model.url, "/v1/chat/completions", {
        body: JSON.stringify(sample.body),
        headers: { "Content-Type": "application/json", Authorization: "Bearer sk-test" },
      });
      direct.push(performance.now() - t);
      if (answer.status !== 200) violation(`direct POST to the mock: status ${answer.status}`);
    }

    const code = await d.stop();
    daemon = null;
    if (code !== 0) violation(`the daemon exited with ${code} on SIGTERM`);
    const stderrOther = d
      .stderr()
      .split("\n")
      .filter(
        (line) =>
          line.trim() !== "" &&
          !/^session \S+: turn completed in /.test(line) &&
          !line.startsWith("nanohermes daemon http") &&
          !line.startsWith("SIGTERM: stopping"),
      )
      .slice(0, 20);

    const loaded = { latency: spread(latencies(load)), overhead: spread(overheads(load)) };
    const alone = {
      latencyMs: spread(latencies(solo)),
      modelMs: spread(models(solo)),
      overheadMs: spread(overheads(solo)),
    };
    const figures: DaemonFigures = {
      sessions: SESSIONS,
      turnsPerSession: TURNS,
      turns: SESSIONS * TURNS,
      modelDelayMs: MODEL_DELAY_MS,
      violations,
      problems,
      wallMs: round(wallMs),
      turnsPerSecond: round((SESSIONS * TURNS) / (wallMs / 1000)),
      latencyMs: loaded.latency,
      modelMs: spread(models(load)),
      overheadMs: loaded.overhead,
      latencyFirstTurnMs: spread(latencies(load.filter((t) => t.n === 1))),
      latencyLaterTurnsMs: spread(latencies(load.filter((t) => t.n > 1))),
      daemonCpuMsPerTurn: round(cpuLoad / (SESSIONS * TURNS)),
      daemonCpuPercent: Math.round((cpuLoad / wallMs) * 100),
      modelInFlightMax,
      unloaded: alone,
      unloadedAfter: { latencyMs: spread(latencies(soloAfter)), overheadMs: spread(overheads(soloAfter)) },
      latencyRatio: {
        p50: ratio(loaded.latency.p50, alone.latencyMs.p50),
        p95: ratio(loaded.latency.p95, alone.latencyMs.p95),
      },
      overheadRatio: {
        p50: ratio(loaded.overhead.p50, alone.overheadMs.p50),
        p95: ratio(loaded.overhead.p95, alone.overheadMs.p95),
      },
      directModelMs: spread(direct),
      rssMb: { before, peak, after, peakIsLifetime },
      stderrOther,
    };
    rmSync(d.home, { recursive: true, force: true });
    rmSync(d.workspace, { recursive: true, force: true });
    rmSync(dirname(d.sessionDir), { recursive: true, force: true });
    return figures;
  } finally {
    if (daemon) await daemon.stop("SIGKILL");
    await model.close();
    rmSync(tokenDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  console.log(JSON.stringify(await benchDaemon(), null, 2));

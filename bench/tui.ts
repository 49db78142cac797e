// The terminal UI under measurement in a real pty at 120x40 against the mock model streaming at
// 200 tokens/s: first complete frame, idle memory, Ink's per-frame render time with 10 and with
// 2,000 earlier messages, CPU per second of streaming, and terminal bytes per streamed token; and
// (benchWriter) the cell writer next to Ink's line writer on the same workload at three sizes.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer, textReply, type MockServer } from "../tests/helpers/mock-openai.js";
import { PtyApp } from "../tests/helpers/pty.js";

export interface TuiFigures {
  firstFrameMs: { median: number; p95: number; runs: number };
  /** The same with three MCP servers configured (one of them takes 2 s to start). */
  firstFrameMcpMs: { median: number; p95: number; runs: number };
  /** The same measurement for node printing one line in the same pty: the floor. */
  nodeFloorMs: number;
  idleRssMb: number;
  frames10: { p50: number; p95: number; count: number };
  frames2000: { p50: number; p95: number; count: number };
  cpuPercentStreaming10: number;
  cpuPercentStreaming2000: number;
  bytesPerToken10: number;
  bytesPerToken2000: number;
  tokensStreamed: number;
  /** 20 delegations in one step (4 streaming at a time, 200 tokens/s each) with the Agents tab open. */
  board: {
    children: number;
    frames: { p50: number; p95: number; count: number };
    cpuPercent: number;
    /** Typed marks from the keypress to the frame that shows them, as the bytes arrive (not polled). */
    keyEchoMs: { p50: number; p95: number; max: number; samples: number };
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(s.length * p) - 1))]! : 0;
};

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

function env(server: MockServer, home: string, extra: Record<string, string> = {}): Record<string, string> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("OPENAI_") && !k.startsWith("NANOHERMES_")) base[k] = v;
  return {
    ...base,
    NANOHERMES_HOME: home,
    OPENAI_API_KEY: "bench",
    OPENAI_BASE_URL: server.url,
    NANOHERMES_MODEL: "bench-model",
    NANOHERMES_NO_MEMORY: "1",
    ...extra,
  };
}

function sessionWith(messages: number, ws: string): string {
  const paragraph =
    "This is an earlier **answer** with `code`, a list:\n\n- one item\n- another item\n\nand a closing sentence that wraps across the pane.";
  const list: unknown[] = [];
  for (let i = 0; i < messages; i++)
    list.push(
      i % 2 === 0
        ? { role: "user", content: `question number ${i}` }
        : { role: "assistant", content: `${paragraph} (#${i})` },
    );
  const file = join(mkdtempSync(join(tmpdir(), "nh-bench-s-")), "session.json");
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      id: "bench",
      createdAt: "t",
      updatedAt: "t",
      workspace: ws,
      model: "bench-model",
      messages: list,
    }),
  );
  return file;
}

const settled = (s: string) => s.includes("NanoHermes") && s.includes("Ask anything");

/** A home whose config.json has the everything and filesystem servers and one that starts after 2 s. */
export function mcpHome(ws: string): string {
  const home = mkdtempSync(join(tmpdir(), "nh-bench-h-"));
  const mods = join(process.cwd(), "node_modules/@modelcontextprotocol");
  const node = process.execPath;
  const mcpServers = {
    everything: { command: node, args: [join(mods, "server-everything/dist/index.js"), "stdio"] },
    files: { command: node, args: [join(mods, "server-filesystem/dist/index.js"), ws] },
    slow: { command: node, args: ["-e", "setTimeout(() => {}, 60000)"], startupTimeout: 2000 },
  };
  writeFileSync(join(home, "config.json"), JSON.stringify({ mcpServers }));
  return home;
}

/** One start to the first complete frame, in ms. `cli`: the build (undefined: this tree's). */
export async function firstFrame(
  server: MockServer,
  ws: string,
  cli: string | undefined,
  home: string,
): Promise<number> {
  const t0 = performance.now();
  const app = new PtyApp({ cli, cols: 120, rows: 40, cwd: ws, env: env(server, home) });
  await app.waitFor(settled, 20_000);
  const ms = performance.now() - t0;
  app.type("\x04");
  await app.exit();
  return ms;
}

/** Node itself, started the same way, printing the two strings the UI's first frame is judged by. */
async function nodeFloor(ws: string, runs: number): Promise<number> {
  const { spawn } = await import("node-pty");
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const ms = await new Promise<number>((res) => {
      const p = spawn(process.execPath, ["-e", "process.stdout.write('NanoHermes Ask anything\\n')"], {
        cols: 120,
        rows: 40,
        cwd: ws,
      });
      let out = "";
      p.onData((d) => {
        out += d;
        if (settled(out)) res(performance.now() - t0);
      });
    });
    if (i > 0) times.push(ms);
  }
  return +pct(times, 0.5).toFixed(1);
}

export async function idleRss(server: MockServer, ws: string, cli: string | undefined): Promise<number> {
  const app = new PtyApp({
    cli,
    cols: 120,
    rows: 40,
    cwd: ws,
    env: env(server, mkdtempSync(join(tmpdir(), "nh-bench-h-"))),
  });
  await app.waitFor(settled, 20_000);
  await new Promise((r) => setTimeout(r, 10_000));
  const mb = rssMb(app.pty.pid);
  app.type("\x04");
  await app.exit();
  return +mb.toFixed(1);
}

export async function streaming(
  server: MockServer,
  ws: string,
  cli: string | undefined,
  earlier: number,
  tokens: number,
) {
  const frames = join(mkdtempSync(join(tmpdir(), "nh-bench-f-")), "frames.json");
  const session = sessionWith(earlier, ws);
  // A window large enough that the 2,000 earlier messages are not compacted: this measures drawing.
  const home = mkdtempSync(join(tmpdir(), "nh-bench-h-"));
  writeFileSync(join(home, "config.json"), JSON.stringify({ contextWindow: 1_000_000 }));
  const app = new PtyApp({
    cli,
    cols: 120,
    rows: 40,
    cwd: ws,
    args: ["--session", session],
    env: env(server, home, { NANOHERMES_BENCH_FRAMES: frames }),
  });
  await app.waitFor((s) => settled(s) && s.includes(`#${earlier - 1}`), 30_000);
  await new Promise((r) => setTimeout(r, 1500)); // Markdown loads after the first frame
  const text = Array.from({ length: tokens }, (_, i) => (i % 12 === 11 ? "word.\n\n" : "word ")).join("");
  server.push({ ...textReply(text), chunkSize: 4, tokensPerSecond: 200 });
  const bytes0 = app.bytes;
  const streamStart = Date.now();
  const cpu0 = cpuTicks(app.pty.pid);
  const t0 = performance.now();
  app.type("stream please\r");
  await app.waitFor((s) => /✓ stream please · done/.test(s), 60_000);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = ((cpuTicks(app.pty.pid) - cpu0) / 100 / seconds) * 100;
  const bytes = app.bytes - bytes0;
  app.type("\x04");
  await app.exit();
  const all = JSON.parse(readFileSync(frames, "utf8")) as number[];
  // The terminal writer's time per frame while streaming (it runs after Ink's render, which `frames` times).
  const writes = (JSON.parse(readFileSync(`${frames}.writer.json`, "utf8")) as [number, number][])
    .filter(([at]) => at >= streamStart)
    .map(([, ms]) => ms);
  // Tokens as the mock counts them when pacing: four characters each.
  return { frames: all, writes, cpu: +cpu.toFixed(1), bytesPerToken: +(bytes / (text.length / 4)).toFixed(1) };
}

/**
 * When `text` reached the screen: the arrival time of the output that put it there. Checked as each
 * chunk is drawn, not by polling, whose 25 ms period would round every echo up to its next tick.
 */
async function shownAt(app: PtyApp, text: string, timeoutMs = 10_000): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`bench: ${text} not on screen after ${timeoutMs} ms:\n${app.screen()}`));
    }, timeoutMs);
    const sub = app.pty.onData(() => {
      const at = performance.now();
      void app.settle().then(() => {
        if (!app.screen().includes(text)) return;
        clearTimeout(timer);
        sub.dispose();
        resolve(at);
      });
    });
  });
}

/**
 * The subagent board under load: the parent delegates 20 tasks in one step; children stream 300
 * tokens each at 200 tokens/s, four at a time; the Agents tab is open and the user types.
 */
export async function boardStreaming(ws: string, cli: string | undefined) {
  const children = 20;
  const text = Array.from({ length: 300 }, (_, i) => (i % 12 === 11 ? "word.\n\n" : "word ")).join("");
  const server = await startMockServer((req) => {
    const messages = req.messages as { role: string; content: unknown }[];
    const system = String(messages[0]?.content ?? "");
    if (system.includes("You are the subagent")) return { ...textReply(text), chunkSize: 4, tokensPerSecond: 200 };
    if (messages.some((m) => m.role === "tool")) return textReply("all children reported");
    return {
      toolCalls: Array.from({ length: children }, (_, i) => ({
        id: `c${i}`,
        name: "subagent",
        arguments: JSON.stringify({ agent: "worker", task: `job ${i}` }),
      })),
    };
  });
  const agents = join(mkdtempSync(join(tmpdir(), "nh-bench-a-")), "agents.json");
  writeFileSync(agents, JSON.stringify({ agents: { worker: { prompt: "You do one small job." } } }));
  const frames = join(mkdtempSync(join(tmpdir(), "nh-bench-f-")), "frames.json");
  const app = new PtyApp({
    cli,
    cols: 120,
    rows: 40,
    cwd: ws,
    args: ["--subagents", agents],
    env: env(server, mkdtempSync(join(tmpdir(), "nh-bench-h-")), { NANOHERMES_BENCH_FRAMES: frames }),
  });
  try {
    await app.waitFor(settled, 20_000);
    await new Promise((r) => setTimeout(r, 1500));
    const cpu0 = cpuTicks(app.pty.pid);
    const t0 = performance.now();
    app.type("fan out\r");
    await app.waitFor((s) => s.includes("agent-4"), 20_000);
    // The Agents tab (builds that bring it forward when children start are on it already; others
    // start on Files), then back to the input.
    app.type("\x12");
    await app.waitFor((s) => s.includes("←→ tabs"), 10_000);
    for (let i = 0; i < 7 && !app.screen().includes("Enter open · x stop"); i++) {
      app.type("\x1b[C");
      await new Promise((r) => setTimeout(r, 250));
    }
    // A lone Esc is known only once nothing follows it: on a loaded machine a key could arrive
    // before that and make it Alt-<key>. Typing starts once the input has focus again.
    for (let i = 0; i < 5 && app.screen().includes("←→ tabs"); i++) {
      app.type("\x1b");
      await app.waitFor((s) => !s.includes("←→ tabs"), 2_000).catch(() => "");
    }
    await new Promise((r) => setTimeout(r, 100));
    const echoes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const mark = `zq${i}x`;
      const k0 = performance.now();
      app.type(mark);
      echoes.push((await shownAt(app, mark)) - k0);
      for (let j = 0; j < mark.length; j++) app.type("\x7f");
      await new Promise((r) => setTimeout(r, 150));
    }
    await app.waitFor((s) => /✓ fan out · done/.test(s), 120_000);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = ((cpuTicks(app.pty.pid) - cpu0) / 100 / seconds) * 100;
    app.type("\x04");
    await app.exit();
    const all = JSON.parse(readFileSync(frames, "utf8")) as number[];
    return {
      children,
      frames: { p50: +pct(all, 0.5).toFixed(2), p95: +pct(all, 0.95).toFixed(2), count: all.length },
      cpuPercent: +cpu.toFixed(1),
      keyEchoMs: {
        p50: +pct(echoes, 0.5).toFixed(1),
        p95: +pct(echoes, 0.95).toFixed(1),
        max: +Math.max(...echoes).toFixed(1),
        samples: echoes.length,
      },
    };
  } finally {
    if (app.exitCode === null) app.kill("SIGKILL");
    await server.close();
  }
}

export interface WriterRun {
  writer: "cells" | "lines";
  cols: number;
  rows: number;
  tokensPerSecond: number;
  bytesPerToken: number;
  /** Screen clears (ESC[2J) after the first frame, while streaming. */
  fullClears: number;
  /** Ink's own frame time (the writer runs after it; its cost shows in CPU). */
  frames: { p50: number; p95: number; count: number };
  /** The writer's own time per frame it wrote while streaming (after Ink's render; the write to the pty included). */
  writerMs: { p50: number; p95: number; count: number };
  cpuPercent: number;
}

/**
 * One streamed reply drawn by one writer: five-character tokens at `tokensPerSecond`, bytes the
 * terminal received from the prompt's Enter to the reply's end, over the tokens streamed.
 */
async function writerRun(
  server: MockServer,
  ws: string,
  writer: WriterRun["writer"],
  cols: number,
  rows: number,
  tokensPerSecond: number,
  tokens: number,
): Promise<WriterRun> {
  const frames = join(mkdtempSync(join(tmpdir(), "nh-bench-f-")), "frames.json");
  const extra: Record<string, string> = {
    NANOHERMES_BENCH_FRAMES: frames,
    ...(writer === "lines" ? { NANOHERMES_TERMINAL_WRITER: "lines" } : {}),
  };
  const app = new PtyApp({
    cols,
    rows,
    cwd: ws,
    env: env(server, mkdtempSync(join(tmpdir(), "nh-bench-h-")), extra),
  });
  try {
    await app.waitFor(settled, 20_000);
    await new Promise((r) => setTimeout(r, 1500)); // Markdown loads after the first frame
    // Tokens of five characters; a paragraph ends every 12 tokens.
    const unit = `${"word ".repeat(11)}done.\n\n`;
    const text = unit.repeat(Math.ceil(tokens / 12)).slice(0, tokens * 5);
    server.push({ ...textReply(text), chunkSize: 5, chunkDelayMs: 1000 / tokensPerSecond });
    let raw = "";
    const sub = app.pty.onData((d) => void (raw += d));
    const cpu0 = cpuTicks(app.pty.pid);
    const t0 = performance.now();
    const streamStart = Date.now();
    app.type("stream please\r");
    await app.waitFor((s) => /✓ stream please · done/.test(s), 60_000);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = ((cpuTicks(app.pty.pid) - cpu0) / 100 / seconds) * 100;
    sub.dispose();
    app.type("\x04");
    await app.exit();
    const all = JSON.parse(readFileSync(frames, "utf8")) as number[];
    // Only the frames written while streaming (the first frames include start-up work).
    const writes = (JSON.parse(readFileSync(`${frames}.writer.json`, "utf8")) as [number, number][])
      .filter(([at]) => at >= streamStart)
      .map(([, ms]) => ms);
    return {
      writer,
      cols,
      rows,
      tokensPerSecond,
      bytesPerToken: +(Buffer.byteLength(raw) / (text.length / 5)).toFixed(1),
      fullClears: raw.split("\x1b[2J").length - 1,
      frames: { p50: +pct(all, 0.5).toFixed(2), p95: +pct(all, 0.95).toFixed(2), count: all.length },
      writerMs: { p50: +pct(writes, 0.5).toFixed(3), p95: +pct(writes, 0.95).toFixed(3), count: writes.length },
      cpuPercent: +cpu.toFixed(1),
    };
  } finally {
    if (app.exitCode === null) app.kill("SIGKILL");
  }
}

/**
 * The terminal writer section: our cell writer and Ink's line writer (NANOHERMES_TERMINAL_WRITER=
 * lines) side by side, in alternation, on issue 17's workload (400 tokens at 100/s) at 120x40,
 * 80x24 and a 50-column split, then 1,000 tokens at 200/s at 120x40 for CPU.
 */
export async function benchWriter(): Promise<WriterRun[]> {
  const ws = mkdtempSync(join(tmpdir(), "nh-bench-ws-"));
  writeFileSync(join(ws, "README.md"), "# bench\n");
  const server = await startMockServer([]);
  const runs: WriterRun[] = [];
  try {
    const plan: [number, number, number, number][] = [
      [120, 40, 100, 400],
      [80, 24, 100, 400],
      [50, 40, 100, 400],
      [120, 40, 200, 1000],
    ];
    for (const [cols, rows, tps, tokens] of plan) {
      for (const writer of ["cells", "lines"] as const)
        runs.push(await writerRun(server, ws, writer, cols, rows, tps, tokens));
    }
    return runs;
  } finally {
    await server.close();
  }
}

const median = (xs: number[]) => +pct(xs, 0.5).toFixed(2);
const summary = (xs: number[]) => ({ p50: +pct(xs, 0.5).toFixed(2), p95: +pct(xs, 0.95).toFixed(2), count: xs.length });

/** Runs `measure` once per program per round, alternating programs, so a busy spell hits all alike. */
async function alternate<T>(
  programs: readonly (string | undefined)[],
  rounds: number,
  measure: (cli: string | undefined) => Promise<T>,
): Promise<T[][]> {
  const out: T[][] = programs.map(() => []);
  for (let r = 0; r < rounds; r++) for (const [i, cli] of programs.entries()) out[i]!.push(await measure(cli));
  return out;
}

/**
 * The UI figures for each program (undefined: this tree's build; otherwise a dist/cli.js, e.g. a
 * baseline build from bench/baseline.ts), measured in alternation. `rounds` repeats the streaming
 * and board workloads (NANOHERMES_BENCH_TUI_ROUNDS): each figure is then the median of its rounds.
 */
export async function benchTui(
  programs: readonly (string | undefined)[] = [undefined],
  rounds = 1,
): Promise<TuiFigures[]> {
  const ws = mkdtempSync(join(tmpdir(), "nh-bench-ws-"));
  writeFileSync(join(ws, "README.md"), "# bench\n");
  const server = await startMockServer([]);
  try {
    const tokens = 1000;
    const nodeFloorMs = await nodeFloor(ws, 10);
    const home = () => mkdtempSync(join(tmpdir(), "nh-bench-h-"));
    // The first start of each program warms the file cache and is not counted.
    await alternate(programs, 1, (cli) => firstFrame(server, ws, cli, home()));
    const starts = await alternate(programs, 10, (cli) => firstFrame(server, ws, cli, home()));
    const startsMcp = await alternate(programs, 10, (cli) => firstFrame(server, ws, cli, mcpHome(ws)));
    const rss = await alternate(programs, 1, (cli) => idleRss(server, ws, cli));
    const s10 = await alternate(programs, rounds, (cli) => streaming(server, ws, cli, 10, tokens));
    const s2000 = await alternate(programs, rounds, (cli) => streaming(server, ws, cli, 2000, tokens));
    const boards = await alternate(programs, rounds, (cli) => boardStreaming(ws, cli));
    const startFigures = (xs: number[]) => ({
      median: +pct(xs, 0.5).toFixed(1),
      p95: +pct(xs, 0.95).toFixed(1),
      runs: xs.length,
    });
    // Frame times: the median over rounds of each round's percentile.
    const frames = (runs: { frames: number[] }[]) => {
      const each = runs.map((r) => summary(r.frames));
      return {
        p50: median(each.map((f) => f.p50)),
        p95: median(each.map((f) => f.p95)),
        count: median(each.map((f) => f.count)),
      };
    };
    return programs.map((_, i) => {
      const b = boards[i]!;
      return {
        firstFrameMs: startFigures(starts[i]!),
        firstFrameMcpMs: startFigures(startsMcp[i]!),
        nodeFloorMs,
        idleRssMb: rss[i]![0]!,
        frames10: frames(s10[i]!),
        frames2000: frames(s2000[i]!),
        cpuPercentStreaming10: median(s10[i]!.map((r) => r.cpu)),
        cpuPercentStreaming2000: median(s2000[i]!.map((r) => r.cpu)),
        bytesPerToken10: median(s10[i]!.map((r) => r.bytesPerToken)),
        bytesPerToken2000: median(s2000[i]!.map((r) => r.bytesPerToken)),
        tokensStreamed: tokens,
        board: {
          children: b[0]!.children,
          frames: {
            p50: median(b.map((x) => x.frames.p50)),
            p95: median(b.map((x) => x.frames.p95)),
            count: median(b.map((x) => x.frames.count)),
          },
          cpuPercent: median(b.map((x) => x.cpuPercent)),
          keyEchoMs: {
            p50: median(b.map((x) => x.keyEchoMs.p50)),
            p95: median(b.map((x) => x.keyEchoMs.p95)),
            max: median(b.map((x) => x.keyEchoMs.max)),
            samples: b.reduce((n, x) => n + x.keyEchoMs.samples, 0),
          },
        },
      };
    });
  } finally {
    await server.close();
  }
}

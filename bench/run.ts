// `npm run bench`: start-up and one-shot turn timings of the built program against the mock
// model, peak memory, and the bundled entry against an unbundled build, then search, memory and
// sessions, the terminal UI, the daemon under load, the file tools' no-follow walk, run_command's
// cost under the sandbox helper, the protected-paths check, the daemon's memory with slow followers, and team daemons on PostgreSQL against the embedded store. Prints tables and writes
// bench/results.json. Not part of CI. NANOHERMES_BENCH_ONLY=<section> runs one section and merges
// its figures into the existing bench/results.json.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer, textReply, toolReply } from "../tests/helpers/mock-openai.js";
import { benchSearch } from "./search.js";
import { benchTui, benchWriter, mcpHome, type WriterRun } from "./tui.js";
import { buildBaseline } from "./baseline.js";
import { tuiBudgetRows } from "./tui-budgets.js";
import { benchMemory } from "./memory.js";
import { benchSessions } from "./sessions.js";
import { benchDaemon } from "./daemon.js";
import { benchFilesSection } from "./files.js";
import { benchCheckpointsSection } from "./checkpoints.js";
import { printTable } from "./table.js";
import { benchSandbox } from "./sandbox.js";
import { benchProtect } from "./protect.js";
import { benchLose } from "./lose.js";
import { benchFollowers } from "./followers.js";
import { benchTeam } from "./team.js";
import { compareWire, type WireComparison } from "./wire-base.js";
import { benchStartupBase, type StartupRow } from "./startup-base.js";

// `npm run bench` runs from the project root (the script is bundled elsewhere).
const root = process.cwd();
const bundled = join(root, "dist/cli.js");
const unbundled = join(root, "bench/.dist/unbundled/cli.js");

interface Run {
  ms: number;
  maxRssKb: number;
  code: number | null;
  /** User + system CPU time of the child: less swayed by a loaded machine than wall time. */
  cpuMs: number;
}

/** Runs a command under python's getrusage so the child's peak RSS is measured by the kernel. */
function measure(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  const wrapper =
    "import resource,subprocess,sys,time\n" +
    "t=time.perf_counter();p=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)\n" +
    "ms=(time.perf_counter()-t)*1000\n" +
    "u=resource.getrusage(resource.RUSAGE_CHILDREN)\n" +
    "print(ms, u.ru_maxrss, p.returncode, (u.ru_utime+u.ru_stime)*1000)";
  return new Promise((res, rej) => {
    const child = spawn("python3", ["-c", wrapper, process.execPath, ...args], {
      env,
      cwd,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", () => {
      const [ms, rss, code, cpuMs] = out.trim().split(" ").map(Number);
      if (ms === undefined || Number.isNaN(ms)) return rej(new Error(`bad measurement: ${out}`));
      res({ ms, maxRssKb: rss ?? 0, code: code ?? null, cpuMs: cpuMs ?? 0 });
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
};

async function series(label: string, n: number, run: () => Promise<Run>) {
  await run(); // warm the file cache
  const runs: Run[] = [];
  for (let i = 0; i < n; i++) runs.push(await run());
  const bad = runs.find((r) => r.code !== 0);
  if (bad) throw new Error(`${label}: exit code ${bad.code}`);
  return {
    label,
    runs: n,
    medianMs: +median(runs.map((r) => r.ms)).toFixed(1),
    p95Ms: +p95(runs.map((r) => r.ms)).toFixed(1),
    peakRssMb: +(Math.max(...runs.map((r) => r.maxRssKb)) / 1024).toFixed(1),
  };
}

/** Rows of an interleaved A/B table (the wire and skills sections): `pair` names the two columns. */
function comparisonRows(list: WireComparison[], pair: string, budget: boolean): string[][] {
  return [
    [
      "benchmark",
      "runs",
      `median ms ${pair}`,
      "delta ms",
      `median CPU ms ${pair}`,
      "delta CPU ms",
      `peak RSS MB ${pair}`,
      "delta MB",
      ...(budget ? ["within budget"] : []),
    ],
    ...list.map((w) => [
      w.label,
      String(w.runs),
      `${w.baseMedianMs} | ${w.headMedianMs}`,
      String(w.deltaMs),
      `${w.baseCpuMs} | ${w.headCpuMs}`,
      String(w.deltaCpuMs),
      `${w.basePeakRssMb} | ${w.headPeakRssMb}`,
      String(w.deltaRssMb),
      ...(budget ? [w.withinBudget ? "yes" : "NO"] : []),
    ]),
  ];
}

/** The terminal writer section: each size's cell-writer run next to Ink's line writer's. */
function printWriter(runs: WriterRun[]): void {
  console.log("\nterminal writer (pty, mock model; cells = ours, lines = Ink's line writer, same run):");
  const rows = [
    [
      "workload",
      "bytes/token cells | lines",
      "clears after 1st frame",
      "Ink frame p95 cells | lines",
      "write p95 cells | lines",
      "CPU cells | lines",
      "target",
    ],
  ];
  for (let i = 0; i + 1 < runs.length; i += 2) {
    const [c, l] = [runs[i]!, runs[i + 1]!];
    const target =
      c.cols === 120 && c.tokensPerSecond === 100
        ? "<= 20 B, 0 clears"
        : c.tokensPerSecond === 200
          ? "CPU <= lines + 3"
          : "";
    rows.push([
      `${c.cols}x${c.rows}, ${c.tokensPerSecond} tokens/s`,
      `${c.bytesPerToken} | ${l.bytesPerToken}`,
      `${c.fullClears} | ${l.fullClears}`,
      `${c.frames.p95} | ${l.frames.p95} ms`,
      `${c.writerMs.p95} | ${l.writerMs.p95} ms`,
      `${c.cpuPercent}% | ${l.cpuPercent}%`,
      target,
    ]);
  }
  printTable(rows);
}

async function main() {
  execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { stdio: "inherit" });
  // An unbundled build (one file per module, node_modules resolved at run time) as the baseline.
  const { build } = await import("esbuild");
  const sources = (readdirSync(join(root, "src"), { recursive: true }) as string[])
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(root, "src", f));
  await build({
    entryPoints: sources,
    outdir: join(root, "bench/.dist/unbundled"),
    outbase: join(root, "src"),
    format: "esm",
    platform: "node",
    target: "node20",
    bundle: false,
    logLevel: "warning",
  });
  writeFileSync(join(root, "bench/.dist/unbundled/package.json"), '{"type":"module"}');

  const ws = mkdtempSync(join(tmpdir(), "nh-bench-ws-"));
  writeFileSync(join(ws, "README.md"), "# bench\nhello\n");
  // Each one-shot turn: the model asks for one read_file, then answers.
  const mock = await startMockServer((_req, i) =>
    i % 2 === 0 ? toolReply([{ name: "read_file", args: { path: "README.md" } }]) : textReply("The README says hello."),
  );
  // Memory off: its end-of-turn distillation would be one more model call per turn (measured apart).
  const env = {
    ...process.env,
    NANOHERMES_HOME: mkdtempSync(join(tmpdir(), "nh-bench-home-")),
    OPENAI_API_KEY: "bench",
    OPENAI_BASE_URL: mock.url,
    NO_COLOR: "1",
    NANOHERMES_NO_MEMORY: "1",
  };

  // The same turn with a trivial hook on each side of the call, and with MCP servers to wait for.
  const hooksHome = mkdtempSync(join(tmpdir(), "nh-bench-home-"));
  writeFileSync(
    join(hooksHome, "config.json"),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "*", command: "true" }], PostToolUse: [{ matcher: "*", command: "true" }] },
    }),
  );
  const mcpConfig = JSON.parse(readFileSync(join(mcpHome(ws), "config.json"), "utf8")) as {
    mcpServers: Record<string, unknown>;
  };
  delete mcpConfig.mcpServers.slow;
  const mcpFile = join(mkdtempSync(join(tmpdir(), "nh-bench-mcp-")), "mcp.json");
  writeFileSync(mcpFile, JSON.stringify(mcpConfig));

  const only = process.env.NANOHERMES_BENCH_ONLY || undefined;
  const SECTIONS = [
    "startup",
    "startup-base",
    "wire",
    "search",
    "memory",
    "sessions",
    "tui",
    "writer",
    "daemon",
    "files",
    "checkpoints",
    "sandbox",
    "protect",
    "lose",
    "followers",
    "skills",
    "team",
  ];
  if (only !== undefined && !SECTIONS.includes(only))
    throw new Error(`NANOHERMES_BENCH_ONLY=${only}: use one of ${SECTIONS.join(", ")}`);
  const skip = (...sections: string[]) => only !== undefined && !sections.includes(only);
  const results = skip("startup")
    ? []
    : [
        await series("node -e 0 (the floor: node itself)", 20, () => measure(["-e", "0"], env, ws)),
        await series("--version (bundled)", 20, () => measure([bundled, "--version"], env, ws)),
        await series("--version (unbundled)", 20, () => measure([unbundled, "--version"], env, ws)),
        await series("--help (bundled)", 20, () => measure([bundled, "--help"], env, ws)),
        await series("one-shot turn, 1 tool call (bundled)", 15, () =>
          measure([bundled, "-p", "what does the README say?"], env, ws),
        ),
        await series("one-shot turn, 1 tool call (unbundled)", 15, () =>
          measure([unbundled, "-p", "what does the README say?"], env, ws),
        ),
        await series("one-shot turn, 1 tool call, PreToolUse + PostToolUse hooks (bundled)", 15, () =>
          measure([bundled, "-p", "what does the README say?"], { ...env, NANOHERMES_HOME: hooksHome }, ws),
        ),
        await series("one-shot turn, 1 tool call, 2 MCP servers connected first (bundled)", 10, () =>
          measure([bundled, "-p", "what does the README say?", "--mcp", mcpFile], env, ws),
        ),
      ];
  // NANOHERMES_BENCH_WIRE_BASE=<rev>: that revision's build next to this one, interleaved (issue 19: the SDK as the wire).
  // NANOHERMES_BENCH_ONLY=wire runs just this comparison, against 798fbf3 (the last hand-written wire) by default.
  const wireBase = skip("startup", "wire")
    ? undefined
    : process.env.NANOHERMES_BENCH_WIRE_BASE || (only === "wire" ? "798fbf3" : undefined);
  const wire: WireComparison[] = [];
  // Twenty runs of each: with ten, one busy spell on this shared machine moved the median by 20 ms.
  const WIRE_RUNS = 20;
  if (wireBase) {
    const base = buildBaseline(root, wireBase);
    try {
      const turn = ["-p", "what does the README say?"];
      wire.push(
        await compareWire(
          "--help",
          wireBase,
          WIRE_RUNS,
          () => measure([base.cli, "--help"], env, ws),
          () => measure([bundled, "--help"], env, ws),
        ),
      );
      wire.push(
        await compareWire(
          "one-shot turn, 1 tool call",
          wireBase,
          WIRE_RUNS,
          () => measure([base.cli, ...turn], env, ws),
          () => measure([bundled, ...turn], env, ws),
        ),
      );
    } finally {
      base.remove();
    }
  }
  // NANOHERMES_BENCH_STARTUP_BASE=<rev>: start-up of this build against that one (issue 35), interleaved.
  const startupBaseRev = skip("startup-base")
    ? undefined
    : process.env.NANOHERMES_BENCH_STARTUP_BASE || (only === "startup-base" ? "0674637" : undefined);
  const startupBase: StartupRow[] = startupBaseRev
    ? await benchStartupBase({ root, rev: startupBaseRev, bundled, env, ws, mock, measure, runs: 20 })
    : [];
  if (startupBase.length > 0) {
    console.log(
      `\nstart-up, this build against ${startupBaseRev} (interleaved, medians of 20; "no cache": NANOHERMES_CODE_CACHE=off):`,
    );
    printTable([
      ["measure", startupBaseRev!, "this", "this, no cache", "this / base", "target"],
      ...startupBase.map((r) => [
        r.measure,
        `${r.base} ${r.unit}`,
        `${r.head} ${r.unit}`,
        r.headCold === undefined ? "" : `${r.headCold} ${r.unit}`,
        `${(r.head / r.base).toFixed(2)}x`,
        r.target,
      ]),
    ]);
  }
  // Issue 30's "no cost when unused": the same build's one-shot turn with skill_manage off
  // ("skills": {"manage": false}) and on (the default), interleaved (NANOHERMES_BENCH_ONLY=skills).
  const skillsCmp: WireComparison[] = [];
  if (!skip("startup", "skills")) {
    const configs = mkdtempSync(join(tmpdir(), "nh-bench-skills-"));
    writeFileSync(join(configs, "off.json"), JSON.stringify({ skills: { manage: false } }));
    writeFileSync(join(configs, "on.json"), "{}");
    const turn = ["-p", "what does the README say?"];
    skillsCmp.push(
      await compareWire(
        "one-shot turn, 1 tool call",
        "manage off",
        WIRE_RUNS,
        () => measure([bundled, ...turn, "--config", join(configs, "off.json")], env, ws),
        () => measure([bundled, ...turn, "--config", join(configs, "on.json")], env, ws),
      ),
    );
  }
  await mock.close();

  const rows = [
    ["benchmark", "runs", "median ms", "p95 ms", "peak RSS MB"],
    ...results.map((r) => [r.label, String(r.runs), String(r.medianMs), String(r.p95Ms), String(r.peakRssMb)]),
  ];
  if (results.length > 0) printTable(rows);
  if (wire.length > 0) {
    console.log(`\nthis build against ${wireBase} (runs interleaved; budget +25 ms, +10 MB):`);
    printTable(comparisonRows(wire, `${wireBase} | this`, true));
  }

  if (skillsCmp.length > 0) {
    console.log("\nskills that learn (issue 30), same build, skill_manage off | on (runs interleaved):");
    printTable(comparisonRows(skillsCmp, "off | on", false));
  }

  if (!skip("search")) console.log("\nsearch on a generated tree of 50,000 files (median of 3 warm runs):");
  const search = skip("search") ? null : await benchSearch();
  if (search) {
    printTable([
      ["tool", "ripgrep ms", "built-in ms", "built-in / ripgrep", "target"],
      [
        "grep (a rare pattern: the whole tree is read)",
        String(search.grep.ripgrepMs),
        String(search.grep.builtinMs),
        String(search.grep.ratio),
        "<= 3",
      ],
      [
        "glob (**/file1*.ts)",
        String(search.glob.ripgrepMs),
        String(search.glob.builtinMs),
        String(search.glob.ratio),
        "<= 3",
      ],
    ]);
    if (!search.rgAvailable) console.log("(ripgrep is not installed: apt install ripgrep to compare)");
  }

  if (!skip("memory", "sessions")) console.log("\nmemory and sessions:");
  const memory = skip("memory", "sessions") ? null : await benchMemory();
  const sessions = skip("memory", "sessions") ? null : await benchSessions();
  if (memory && sessions) {
    printTable([
      ["measure", "value", "target"],
      [
        `memory search over ${memory.entries.toLocaleString("en-US")} entries, p50 / p95 (warm)`,
        `${memory.queryMs.p50} / ${memory.queryMs.p95} ms`,
        "< 5 ms",
      ],
      ["  one save (locked, atomic) at that size", `${memory.saveMs} ms`, ""],
      [
        `session search over ${sessions.sessions.toLocaleString("en-US")} sessions, p50 / p95`,
        `${sessions.searchMs.p50} / ${sessions.searchMs.p95} ms`,
        "< 50 ms",
      ],
      [
        "  indexing them the first time / catching up, nothing changed",
        `${sessions.indexMs} / ${sessions.resyncMs} ms`,
        "",
      ],
      ["load / save a 10,000-message session", `${sessions.loadMs} / ${sessions.saveMs} ms`, "< 150 ms"],
    ]);
  }

  if (!skip("tui")) console.log("\nterminal UI (pty 120x40, mock model streaming 200 tokens/s):");
  // NANOHERMES_BENCH_TUI_BASE=<rev>: the same workload on that revision's build, in alternation with
  // this one (NANOHERMES_BENCH_TUI_ROUNDS: how many times the streaming workloads run, medians kept).
  const tuiBase =
    !skip("tui") && process.env.NANOHERMES_BENCH_TUI_BASE
      ? buildBaseline(root, process.env.NANOHERMES_BENCH_TUI_BASE)
      : null;
  const [tui = null, tuiOld = null] = skip("tui")
    ? []
    : await benchTui(
        tuiBase ? [undefined, tuiBase.cli] : [undefined],
        Number(process.env.NANOHERMES_BENCH_TUI_ROUNDS ?? 1),
      ).finally(() => tuiBase?.remove());
  const ratio = tui && tui.frames10.p95 > 0 ? tui.frames2000.p95 / tui.frames10.p95 : 0;
  if (tui)
    printTable([
      ["measure", "value", "target"],
      ["first complete frame, median (p95)", `${tui.firstFrameMs.median} ms (${tui.firstFrameMs.p95})`, "< 300 ms"],
      [
        "  with 3 MCP servers configured (one slow)",
        `${tui.firstFrameMcpMs.median} ms (${tui.firstFrameMcpMs.p95})`,
        "same as without",
      ],
      ["  node printing one line, same pty (the floor)", `${tui.nodeFloorMs} ms`, ""],
      ["  first frame above the floor", `${(tui.firstFrameMs.median - tui.nodeFloorMs).toFixed(1)} ms`, ""],
      ["memory after 10 s idle (RSS)", `${tui.idleRssMb} MB`, "< 100 MB"],
      [
        "Ink frame time p50 / p95, 10 earlier messages",
        `${tui.frames10.p50} / ${tui.frames10.p95} ms (${tui.frames10.count} frames)`,
        "",
      ],
      [
        "Ink frame time p50 / p95, 2,000 earlier messages",
        `${tui.frames2000.p50} / ${tui.frames2000.p95} ms (${tui.frames2000.count} frames)`,
        "p95 < 12 ms",
      ],
      ["p95 ratio, 2,000 vs 10 messages", ratio.toFixed(2), "<= 1.2"],
      [
        "CPU while streaming (10 / 2,000 messages)",
        `${tui.cpuPercentStreaming10}% / ${tui.cpuPercentStreaming2000}% of a core`,
        "< 35%",
      ],
      ["terminal bytes per streamed token (10 / 2,000)", `${tui.bytesPerToken10} / ${tui.bytesPerToken2000}`, "<= 60"],
      [
        `board: ${tui.board.children} subagents (4 streaming at once), Ink frame p50 / p95`,
        `${tui.board.frames.p50} / ${tui.board.frames.p95} ms (${tui.board.frames.count} frames)`,
        "p95 < 12 ms",
      ],
      ["  CPU over the whole fan-out", `${tui.board.cpuPercent}% of a core`, "< 50%"],
      [
        "  typed keys on screen, p50 / p95 / max",
        `${tui.board.keyEchoMs.p50} / ${tui.board.keyEchoMs.p95} / ${tui.board.keyEchoMs.max} ms`,
        "< 100 ms",
      ],
    ]);
  if (tui && tuiOld && tuiBase) {
    console.log(`\nterminal UI budgets: this build next to ${tuiBase.rev} (same workload, same run):`);
    printTable(tuiBudgetRows(tui, tuiOld, tuiBase.rev));
  }

  const writer = skip("writer") ? null : await benchWriter();
  if (writer) printWriter(writer);

  const daemon = skip("daemon") ? null : await benchDaemon();
  if (daemon) {
    const ms = (s: { p50: number; p95: number; max?: number }) =>
      `${s.p50} / ${s.p95}${s.max === undefined ? "" : ` / ${s.max}`} ms`;
    console.log(
      `\ndaemon under load (${daemon.sessions} sessions at once x ${daemon.turnsPerSession} turns, POST / with a bearer token, the model answers after ${daemon.modelDelayMs} ms):`,
    );
    printTable([
      ["measure", "value", "target"],
      ["violations (answers, session files, model requests)", String(daemon.violations), "0"],
      [
        `${daemon.turns} turns: wall time, throughput`,
        `${(daemon.wallMs / 1000).toFixed(2)} s, ${daemon.turnsPerSecond} turns/s`,
        "",
      ],
      ["latency per turn p50 / p95 / max (client side)", ms(daemon.latencyMs), ""],
      ["  the model's own time p50 / p95 / max (inside the mock)", ms(daemon.modelMs), ""],
      [
        "  daemon overhead per turn (latency - model) p50 / p95",
        ms({ p50: daemon.overheadMs.p50, p95: daemon.overheadMs.p95 }),
        "",
      ],
      [
        "  turn 1 (the session is created) / turns 2-5, latency p50 / p95",
        `${daemon.latencyFirstTurnMs.p50} / ${daemon.latencyFirstTurnMs.p95} ms, ${daemon.latencyLaterTurnsMs.p50} / ${daemon.latencyLaterTurnsMs.p95} ms`,
        "",
      ],
      ["  model requests in flight at most", String(daemon.modelInFlightMax), ""],
      [
        "  daemon CPU per turn, share of one core over the load",
        `${daemon.daemonCpuMsPerTurn} ms, ${daemon.daemonCpuPercent}%`,
        "",
      ],
      ["one session alone, 5 turns: latency p50 / p95 / max", ms(daemon.unloaded.latencyMs), ""],
      [
        "  its daemon overhead p50 / p95",
        ms({ p50: daemon.unloaded.overheadMs.p50, p95: daemon.unloaded.overheadMs.p95 }),
        "",
      ],
      [
        "  the same on a fresh session after the load: latency, overhead p50",
        `${daemon.unloadedAfter.latencyMs.p50} ms, ${daemon.unloadedAfter.overheadMs.p50} ms`,
        "",
      ],
      [
        "  a daemon request posted straight to the mock, p50 / p95",
        ms({ p50: daemon.directModelMs.p50, p95: daemon.directModelMs.p95 }),
        "",
      ],
      ["latency under load / alone, p50 / p95", `${daemon.latencyRatio.p50} / ${daemon.latencyRatio.p95}`, ""],
      ["overhead under load / alone, p50 / p95", `${daemon.overheadRatio.p50} / ${daemon.overheadRatio.p95}`, ""],
      [
        `daemon RSS before / ${daemon.rssMb.peakIsLifetime ? "lifetime peak" : "peak during"} / after the load`,
        `${daemon.rssMb.before} / ${daemon.rssMb.peak} / ${daemon.rssMb.after} MB`,
        "",
      ],
    ]);
    for (const line of daemon.stderrOther) console.log(`daemon stderr: ${line}`);
    if (daemon.violations > 0) {
      console.log(`\n${"!".repeat(72)}\nFAIL: the daemon under load: ${daemon.violations} violation(s), expected 0`);
      for (const problem of daemon.problems) console.log(`  - ${problem}`);
      console.log("!".repeat(72));
      process.exitCode = 1;
    }
  }

  const files = skip("files") ? null : await benchFilesSection();
  const checkpoints = skip("checkpoints") ? null : await benchCheckpointsSection();
  const sandbox = skip("sandbox") ? null : await benchSandboxSection();
  // Protected paths (issue 14.3): what the read-only binds and the check after add per command.
  const protect = skip("protect") ? null : await benchProtect(root);
  if (protect) {
    console.log("\nprotected paths per sandboxed command (`true` under the helper, medians):");
    printTable([
      ["measure", "value", "target"],
      ["helper without / with the read-only binds", `${protect.helperMs} / ${protect.helperBindsMs} ms`, ""],
      ["snapshot + check around the command (fresh repository)", `${protect.checkMs} ms`, ""],
      [
        "added per command (binds + check)",
        `${(protect.helperBindsMs - protect.helperMs + protect.checkMs).toFixed(2)} ms`,
        "<= 10 ms",
      ],
      ["ratio with / without", String(protect.ratio), ""],
      [
        `with the binds: ${protect.base}'s helper and arguments / this one's (placeholders for missing paths)`,
        `${protect.previousBindsMs} / ${protect.helperBindsMs} ms`,
        "",
      ],
      [`added against ${protect.base} per command`, `${protect.addedMs} ms`, "<= 5 ms"],
      [
        `CPU of snapshot + check after ${protect.base}'s helper / this one's (removing its placeholders)`,
        `${protect.previousCheckCpuMs} / ${protect.checkCpuMs} ms`,
        "",
      ],
    ]);
  }
  const lose = skip("lose") ? null : await benchLose(bundled, env);
  if (lose) {
    console.log("\nlosing nothing (issue 16):");
    printTable([
      ["measure", "value", "target"],
      [
        `SIGTERM during a command to exit, p50 / max of ${lose.sigtermToExitMs.runs} (exit ${lose.sigtermToExitMs.exitCodes.join(", ")})`,
        `${lose.sigtermToExitMs.p50} / ${lose.sigtermToExitMs.max} ms`,
        "exit 143, session saved",
      ],
      [
        `task-index entries kept, ${lose.parallelIndex.started} runs started at once`,
        String(lose.parallelIndex.kept),
        String(lose.parallelIndex.started),
      ],
    ]);
  }

  const followers = skip("followers") ? null : benchFollowers(root);
  if (followers) {
    console.log("\ndaemon memory with slow followers (one turn streaming ~75 MB of events):");
    printTable([
      ["measure", "peak RSS", "dropped"],
      [
        `${followers.with.followers} followers that never read`,
        `${followers.with.peakMb} MB`,
        String(followers.with.dropped),
      ],
      ["no followers", `${followers.without.peakMb} MB`, "-"],
      ["what the followers add", `${followers.addedMb} MB`, ""],
    ]);
  }

  const team = skip("team") ? null : await benchTeam();
  if (team) {
    console.log(
      `\nteam daemons (${team.sessions} sessions at once x ${team.turnsPerSession} turns, POST / spread over the daemons, the model answers after ${team.modelDelayMs} ms):`,
    );
    printTable([
      ["store", "daemons", "violations", "turns/s", "p50 / p95 latency", "throughput vs embedded"],
      ...team.runs.map((r) => [
        r.store,
        String(r.daemons),
        String(r.violations),
        String(r.turnsPerSecond),
        `${r.p50Ms} / ${r.p95Ms} ms`,
        r.store === "embedded"
          ? "1.00 (baseline)"
          : (team.throughputVsEmbedded[`postgres x${r.daemons}`] ?? 0).toFixed(2),
      ]),
    ]);
  }

  // A run of one section keeps the other sections' figures from the last full run.
  const file = join(root, "bench/results.json");
  let previous: Record<string, unknown> = {};
  if (only !== undefined) {
    try {
      previous = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    } catch {
      // no earlier results
    }
  }
  const ran = (section: string, value: unknown) => (skip(section) ? {} : { [section]: value });
  const out = {
    ...previous,
    date: new Date().toISOString(),
    node: process.version,
    cpus: (await import("node:os")).cpus().length,
    ...(skip("startup") ? {} : { results }),
    ...(wire.length > 0 ? { wireBase: wire } : {}),
    ...(startupBase.length > 0 ? { startupBase: { rev: startupBaseRev, rows: startupBase } } : {}),
    ...ran("search", search),
    ...(skip("memory", "sessions") ? {} : { memory, sessions }),
    ...(tui
      ? {
          tui: {
            ...tui,
            p95Ratio: +ratio.toFixed(2),
            ...(tuiOld && tuiBase ? { base: { rev: tuiBase.rev, ...tuiOld } } : {}),
          },
        }
      : {}),
    ...ran("writer", writer),
    ...ran("daemon", daemon),
    ...ran("files", files),
    ...ran("checkpoints", checkpoints),
    ...ran("sandbox", sandbox),
    ...ran("protect", protect),
    ...ran("followers", followers),
    ...ran("lose", lose),
    ...ran("team", team),
  };
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  console.log("\nwrote bench/results.json");
}

/** run_command's cost under the sandbox helper, this build against the previous one. */
async function benchSandboxSection() {
  console.log("\nrun_command overhead of the sandbox helper (`true`, run_command's own spawn path, interleaved):");
  const r = await benchSandbox(root);
  if (!r) return null;
  const ms = (s: { p50: number; p95: number }) => `${s.p50} / ${s.p95} ms`;
  const cpu = (v: number) => `${v} ms`;
  printTable([
    ["variant", "wall p50 / p95", "CPU per command", "target"],
    ["bash -c true, no helper (the floor)", ms(r.bareMs), cpu(r.cpuMs.bare), ""],
    [`helper built from ${r.base}, workspace-write`, ms(r.previousMs), cpu(r.cpuMs.previous), ""],
    ["helper of this tree, workspace-write (reaper, seccomp, capabilities)", ms(r.currentMs), cpu(r.cpuMs.current), ""],
    [
      "  the same with the network off (the socket filter)",
      ms(r.currentNetworkOffMs),
      cpu(r.cpuMs.currentNetworkOff),
      "",
    ],
    ["  reap-only (--mode off)", ms(r.reapOnlyMs), cpu(r.cpuMs.reapOnly), ""],
    [
      `added per command vs ${r.base} (wall p50), ratio`,
      `${r.addedMs} ms, ${r.ratio}x`,
      `CPU ${+(r.cpuMs.current - r.cpuMs.previous).toFixed(2)} ms`,
      "<= +10 ms",
    ],
  ]);
  return r;
}

await main();

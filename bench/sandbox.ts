// What the sandbox helper costs per run_command: `true` through run_command's own path (a process
// group, piped output, bash -c) bare, under the helper built from this tree, and under the helper
// built from the previous source (NANOHERMES_BENCH_SANDBOX_BASE, default `main`), interleaved.
import { execFileSync, execSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { helperPath } from "../src/sandbox/landlock.js";
import { runShell } from "../src/tools/run-command.js";

const ITERATIONS = 200;

export interface SandboxBench {
  base: string;
  iterations: number;
  /** Medians and p95 in ms, per variant. */
  bareMs: Stat;
  previousMs: Stat;
  currentMs: Stat;
  currentNetworkOffMs: Stat;
  reapOnlyMs: Stat;
  /** Current minus previous, medians (ms), and their ratio. */
  addedMs: number;
  ratio: number;
  /** CPU (user + system) of the whole process tree per command, ms: steady under load, unlike wall time. */
  cpuMs: Record<"bare" | "previous" | "current" | "currentNetworkOff" | "reapOnly", number>;
}

interface Stat {
  p50: number;
  p95: number;
}

/** CPU time of our reaped children so far (cutime + cstime, in ms): each command's whole tree once waited for. */
function childrenCpuMs(tick: number): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14 here.
  return (Number(fields[13]) + Number(fields[14])) * tick;
}

const stat = (xs: number[]): Stat => {
  const s = [...xs].sort((a, b) => a - b);
  return {
    p50: +s[Math.floor(s.length / 2)]!.toFixed(2),
    p95: +s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!.toFixed(2),
  };
};

/** Compiles the helper as it was at `rev` (every file of its folder then) into a temp folder. */
export function buildPrevious(root: string, rev: string): string {
  const dir = mkdtempSync(join(tmpdir(), "nh-bench-helper-"));
  execSync(`git archive ${rev} src/sandbox/native | tar -x -C ${JSON.stringify(dir)}`, {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const out = join(dir, "nh-sandbox");
  execFileSync("cc", ["-O2", "-o", out, join(dir, "src/sandbox/native/nh-sandbox.c")], { stdio: "inherit" });
  return out;
}

export async function benchSandbox(root: string): Promise<SandboxBench | null> {
  execFileSync(process.execPath, [join(root, "scripts/build-native.mjs")], { stdio: "inherit" });
  const current = helperPath();
  if (!current) {
    console.log("(the sandbox helper is not built here: skipped)");
    return null;
  }
  const base = process.env.NANOHERMES_BENCH_SANDBOX_BASE || "main";
  const previous = buildPrevious(root, base);
  // Outside /tmp, like a real workspace (and so the temp folder is not its parent).
  mkdirSync("/var/tmp/nh-bench", { recursive: true });
  const ws = mkdtempSync("/var/tmp/nh-bench/ws-");
  // The same arguments for both builds: the previous helper knows no --tmpdir.
  const landlock = (helper: string, network: "on" | "off") => [
    helper,
    "--mode",
    "workspace-write",
    "--workspace",
    ws,
    "--network",
    network,
    "--",
  ];
  const variants: Record<string, string[]> = {
    bare: [],
    previous: landlock(previous, "on"),
    current: landlock(current, "on"),
    currentNetworkOff: landlock(current, "off"),
    reapOnly: [current, "--mode", "off", "--"],
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  const cpu: Record<string, number> = Object.fromEntries(Object.keys(variants).map((k) => [k, 0]));
  const tick = 1000 / Number(execSync("getconf CLK_TCK", { encoding: "utf8" }).trim() || 100);
  const once = async (name: string, prefix: string[]) => {
    const cpuBefore = childrenCpuMs(tick);
    const started = performance.now();
    const r = await runShell("true", { cwd: ws, prefix, timeoutMs: 10_000, signal: new AbortController().signal });
    if (r.exitCode !== 0) throw new Error(`bench: ${prefix[0] ?? "bash"} exited ${r.exitCode}: ${r.stderr}`);
    const ms = performance.now() - started;
    cpu[name]! += childrenCpuMs(tick) - cpuBefore;
    return ms;
  };
  for (const [name, prefix] of Object.entries(variants)) await once(name, prefix); // warm the caches
  for (const name of Object.keys(cpu)) cpu[name] = 0;
  // Interleaved, so a noisy moment on the machine hits every variant alike.
  for (let i = 0; i < ITERATIONS; i++)
    for (const [name, prefix] of Object.entries(variants)) times[name]!.push(await once(name, prefix));
  rmSync(ws, { recursive: true, force: true });
  rmSync(join(previous, ".."), { recursive: true, force: true });
  if (existsSync("/var/tmp/nh-bench") && readdirSync("/var/tmp/nh-bench").length === 0)
    rmSync("/var/tmp/nh-bench", { recursive: true });
  const s = Object.fromEntries(Object.entries(times).map(([name, xs]) => [name, stat(xs)])) as Record<string, Stat>;
  return {
    base,
    iterations: ITERATIONS,
    bareMs: s.bare!,
    previousMs: s.previous!,
    currentMs: s.current!,
    currentNetworkOffMs: s.currentNetworkOff!,
    reapOnlyMs: s.reapOnly!,
    addedMs: +(s.current!.p50 - s.previous!.p50).toFixed(2),
    ratio: +(s.current!.p50 / s.previous!.p50).toFixed(2),
    cpuMs: {
      bare: +(cpu.bare! / ITERATIONS).toFixed(2),
      previous: +(cpu.previous! / ITERATIONS).toFixed(2),
      current: +(cpu.current! / ITERATIONS).toFixed(2),
      currentNetworkOff: +(cpu.currentNetworkOff! / ITERATIONS).toFixed(2),
      reapOnly: +(cpu.reapOnly! / ITERATIONS).toFixed(2),
    },
  };
}

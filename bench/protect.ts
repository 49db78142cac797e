// The cost of protected paths per sandboxed command (issue 14.3): the helper with its read-only
// binds against the same helper without them (alternating runs, medians), and the snapshot and
// check NanoHermes makes around every command, on a fresh repository. Also the helper built from
// NANOHERMES_BENCH_SANDBOX_BASE (default main) given the arguments that revision gave (a path that
// must stay absent was plain --protect there, skipped when missing): what the placeholders for
// the missing paths of a fresh repository (issue 26.2) add per command.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { helperPath, sandboxArgv, writableRootsOf } from "../src/sandbox/landlock.js";
import { protectedSet } from "../src/sandbox/protected.js";
import { revertProtected, snapshotProtected } from "../src/sandbox/integrity.js";
import { buildPrevious } from "./sandbox.js";

const RUNS = 40;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchProtect(root: string): Promise<{
  helperMs: number;
  helperBindsMs: number;
  checkMs: number;
  ratio: number;
  base: string;
  previousBindsMs: number;
  addedMs: number;
  /** CPU time (user + system) of the snapshot and check, after this build's helper and after the base's. */
  checkCpuMs: number;
  previousCheckCpuMs: number;
} | null> {
  if (!helperPath()) return null;
  const base = process.env.NANOHERMES_BENCH_SANDBOX_BASE || "main";
  const previous = buildPrevious(root, base);
  const ws = mkdtempSync(join(tmpdir(), "nh-bench-protect-"));
  try {
    execFileSync("git", ["init", "-q"], { cwd: ws });
    const policy = { mode: "workspace-write" as const, workspace: ws, writableRoots: [], network: true };
    const result = sandboxArgv(policy, ["true"]);
    if (!("argv" in result)) return null;
    const withBinds = result.argv;
    const bindArg = /^--(pin|protect|placeholder|absent-file|absent-dir)$/;
    const without = withBinds.filter((arg, i) => !bindArg.test(arg) && !bindArg.test(withBinds[i - 1] ?? ""));
    const before = [
      previous,
      ...withBinds.slice(1).map((arg) => (arg === "--absent-file" || arg === "--absent-dir" ? "--protect" : arg)),
    ];
    const time = (argv: string[]) => {
      const started = performance.now();
      spawnSync(argv[0]!, argv.slice(1), { cwd: ws });
      return performance.now() - started;
    };
    const a: number[] = [];
    const b: number[] = [];
    const c: number[] = [];
    time(withBinds);
    time(before);
    // Each run of this build makes its placeholders anew, as after the last command's check removed them.
    const set = protectedSet(writableRootsOf(policy));
    const sweep = () => revertProtected(set, snapshotProtected(set), { sweep: true });
    for (let i = 0; i < RUNS; i++) {
      a.push(time(without));
      sweep();
      b.push(time(withBinds));
      sweep();
      c.push(time(before));
    }
    // The snapshot and the check as the only command of a workspace makes them: the check also
    // removes the placeholders its helper made.
    // Wall time on a busy machine is mostly waiting for a core, so the check's CPU time is kept too,
    // after this build's helper (placeholders to remove) and after main's (none).
    let checkTotal = 0;
    const cpu = { current: 0, previous: 0 };
    for (let i = 0; i < RUNS; i++) {
      for (const [name, argv] of [
        ["current", withBinds],
        ["previous", before],
      ] as const) {
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        const baseline = snapshotProtected(set);
        let used = process.cpuUsage(c0);
        let wall = performance.now() - t0;
        spawnSync(argv[0]!, argv.slice(1), { cwd: ws });
        const t1 = performance.now();
        const c1 = process.cpuUsage();
        revertProtected(set, baseline, { sweep: true });
        const more = process.cpuUsage(c1);
        wall += performance.now() - t1;
        used = { user: used.user + more.user, system: used.system + more.system };
        cpu[name] += (used.user + used.system) / 1000;
        if (name === "current") checkTotal += wall;
      }
    }
    const checkMs = checkTotal / RUNS;
    const helperMs = median(a);
    const helperBindsMs = median(b);
    const round = (x: number) => Math.round(x * 100) / 100;
    return {
      helperMs: round(helperMs),
      helperBindsMs: round(helperBindsMs),
      checkMs: round(checkMs),
      ratio: round((helperBindsMs + checkMs) / helperMs),
      base,
      previousBindsMs: round(median(c)),
      checkCpuMs: round(cpu.current / RUNS),
      previousCheckCpuMs: round(cpu.previous / RUNS),
      addedMs: round(helperBindsMs - median(c)),
    };
  } finally {
    rmSync(ws, { recursive: true, force: true });
    rmSync(join(previous, ".."), { recursive: true, force: true });
  }
}

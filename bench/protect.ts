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
const CHECKS = 200;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchProtect(root: string): Promise<{
  helperMs: number;
  helperBindsMs: number;
  checkMs: number;
  ratio: number;
  base: string;
  previousBindsMs: number;
  addedMs: number;
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
    for (let i = 0; i < RUNS; i++) {
      a.push(time(without));
      b.push(time(withBinds));
      c.push(time(before));
    }
    const set = protectedSet(writableRootsOf(policy));
    const started = performance.now();
    for (let i = 0; i < CHECKS; i++) revertProtected(set, snapshotProtected(set));
    const checkMs = (performance.now() - started) / CHECKS;
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
      addedMs: round(helperBindsMs - median(c)),
    };
  } finally {
    rmSync(ws, { recursive: true, force: true });
    rmSync(join(previous, ".."), { recursive: true, force: true });
  }
}

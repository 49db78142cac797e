// One-shot start-up and peak RSS of this build next to another revision's (the hand-written
// node:http wire before the openai SDK became it, issue 19), runs interleaved so both see the same
// machine load. NANOHERMES_BENCH_WIRE_BASE=<rev> builds that revision (./baseline.ts).

export interface Run {
  ms: number;
  maxRssKb: number;
  code: number | null;
  cpuMs: number;
}

export interface WireComparison {
  base: string;
  runs: number;
  label: string;
  baseMedianMs: number;
  headMedianMs: number;
  deltaMs: number;
  /** User + system CPU: on a loaded machine the wall-time delta is mostly waiting for a core. */
  baseCpuMs: number;
  headCpuMs: number;
  deltaCpuMs: number;
  basePeakRssMb: number;
  headPeakRssMb: number;
  deltaRssMb: number;
  /** The budget: at most +25 ms (wall) and +10 MB. */
  withinBudget: boolean;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `n` runs of each, alternating base and head, after one warm-up of each. */
export async function compareWire(
  label: string,
  base: string,
  n: number,
  runBase: () => Promise<Run>,
  runHead: () => Promise<Run>,
): Promise<WireComparison> {
  await runBase();
  await runHead();
  const b: Run[] = [];
  const h: Run[] = [];
  for (let i = 0; i < n; i++) {
    b.push(await runBase());
    h.push(await runHead());
  }
  const bad = [...b, ...h].find((r) => r.code !== 0);
  if (bad) throw new Error(`${label}: exit code ${bad.code}`);
  const baseMs = median(b.map((r) => r.ms));
  const headMs = median(h.map((r) => r.ms));
  const baseCpu = median(b.map((r) => r.cpuMs));
  const headCpu = median(h.map((r) => r.cpuMs));
  const baseRss = Math.max(...b.map((r) => r.maxRssKb)) / 1024;
  const headRss = Math.max(...h.map((r) => r.maxRssKb)) / 1024;
  return {
    base,
    runs: n,
    label,
    baseMedianMs: +baseMs.toFixed(1),
    headMedianMs: +headMs.toFixed(1),
    deltaMs: +(headMs - baseMs).toFixed(1),
    baseCpuMs: +baseCpu.toFixed(1),
    headCpuMs: +headCpu.toFixed(1),
    deltaCpuMs: +(headCpu - baseCpu).toFixed(1),
    basePeakRssMb: +baseRss.toFixed(1),
    headPeakRssMb: +headRss.toFixed(1),
    deltaRssMb: +(headRss - baseRss).toFixed(1),
    withinBudget: headMs - baseMs <= 25 && headRss - baseRss <= 10,
  };
}

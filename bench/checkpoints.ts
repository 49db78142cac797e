// What file checkpoints cost around a command in a workspace of 5,000 small files: the first
// beforeCommand reads and stores every file; later ones only look at what changed since.
// (Moved here from tests/session/checkpoints.test.ts, which printed it and asserted nothing.)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Checkpoints } from "../src/session/checkpoints.js";
import { printTable } from "./table.js";

export interface CheckpointBench {
  files: number;
  firstBeforeMs: number;
  firstAfterMs: number;
  laterMedianMs: number;
  laterMinMs: number;
  laterMaxMs: number;
  blobs: number;
}

const DIRS = 50;
const PER_DIR = 100;
const LATER = 9;

export async function benchCheckpoints(): Promise<CheckpointBench> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "nh-bench-ckpt-")));
  const root = join(base, "ws");
  const store = join(base, "store", "s1");
  try {
    for (let d = 0; d < DIRS; d++) {
      mkdirSync(join(root, `dir${d}`), { recursive: true });
      for (let f = 0; f < PER_DIR; f++)
        writeFileSync(join(root, `dir${d}`, `file${f}.ts`), `export const v${d}_${f} = ${d * PER_DIR + f};\n`);
    }
    const cp = new Checkpoints({ dir: store, roots: [root] });
    // The command runs in another process, as run_command's would.
    const sh = (script: string) => spawnSync("sh", ["-c", script], { cwd: root, stdio: "ignore" });
    const time = async (fn: () => Promise<unknown>) => {
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };
    const firstBeforeMs = await time(() => cp.beforeCommand(1));
    sh("echo changed > dir7/file7.ts");
    const firstAfterMs = await time(() => cp.afterCommand(1, "run_command"));
    const later: number[] = [];
    for (let turn = 2; turn < 2 + LATER; turn++) {
      const before = await time(() => cp.beforeCommand(turn));
      sh(`echo ${turn} > dir${turn}/file${turn}.ts`);
      later.push(before + (await time(() => cp.afterCommand(turn, "run_command"))));
    }
    later.sort((a, b) => a - b);
    const blobDir = join(store, "blobs");
    const round = (ms: number) => +ms.toFixed(1);
    return {
      files: DIRS * PER_DIR,
      firstBeforeMs: round(firstBeforeMs),
      firstAfterMs: round(firstAfterMs),
      laterMedianMs: round(later[Math.floor(LATER / 2)]!),
      laterMinMs: round(later[0]!),
      laterMaxMs: round(later.at(-1)!),
      blobs: existsSync(blobDir) ? readdirSync(blobDir).filter((n) => !n.startsWith(".")).length : 0,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

export async function benchCheckpointsSection(): Promise<CheckpointBench> {
  const r = await benchCheckpoints();
  console.log(`\nfile checkpoints around a command, ${r.files.toLocaleString("en")} small files:`);
  printTable([
    ["measure", "value"],
    ["first beforeCommand (reads and stores every file)", `${r.firstBeforeMs} ms`],
    ["first afterCommand", `${r.firstAfterMs} ms`],
    [`later beforeCommand + afterCommand, median of ${LATER}`, `${r.laterMedianMs} ms`],
    ["  min / max", `${r.laterMinMs} / ${r.laterMaxMs} ms`],
    ["blobs stored", String(r.blobs)],
  ]);
  return r;
}

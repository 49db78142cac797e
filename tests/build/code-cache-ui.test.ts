// The code cache holds across the program's modes. V8 accepts a cache only under the V8 flags it
// was made with, and the UI used to set one (`--liftoff-only`, for Ink's WebAssembly layout
// engine) after its first scripts had run: the caches it wrote at exit carried that flag, so
// every UI start refused the ~36 caches of the scripts it had loaded before setting it, compiled
// them again and wrote them again, and the next one-shot run refused those in turn.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { copyOfBuild } from "../helpers/build-copy.js";
import { tempDir, testEnv } from "../helpers/cli.js";
import { uiStartReport } from "../helpers/ui-start.js";

interface Report {
  loaded: number;
  accepted: number;
  rejected: number;
  written: number;
}

/** Starts the UI of the copy in a pty, quits once its prompt shows; the loader's report. */
async function startUi(dist: string, home: string): Promise<Report> {
  const report = await uiStartReport({ cli: join(dist, "cli.js"), env: { HOME: home } });
  return JSON.parse(readFileSync(report, "utf8")) as Report;
}

/** `--help` through the bundle (a second argument keeps the quick answer out): a non-UI start. */
async function helpRun(dist: string, home: string): Promise<Report> {
  const report = join(tempDir(), "report.json");
  const { spawnSync } = await import("node:child_process");
  const run = spawnSync(process.execPath, [join(dist, "cli.js"), "--help", "--verbose"], {
    env: testEnv({ HOME: home, NANOHERMES_CODE_CACHE_REPORT: report }) as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  expect(run.status).toBe(0);
  return JSON.parse(readFileSync(report, "utf8")) as Report;
}

it("a second UI start refuses no cache, and neither does a plain run after it", async () => {
  const dist = copyOfBuild();
  const home = tempDir();
  const first = await startUi(dist, home);
  expect(first.written).toBeGreaterThan(20);
  const second = await startUi(dist, home);
  expect(second.rejected).toBe(0);
  expect(second.accepted).toBeGreaterThan(20);
  const plain = await helpRun(dist, home);
  expect(plain.rejected).toBe(0);
  expect(plain.accepted).toBeGreaterThan(0);
  const third = await startUi(dist, home);
  expect(third.rejected).toBe(0);
}, 90_000);

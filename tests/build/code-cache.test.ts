// The built program runs its scripts through V8's code cache (src/start.ts): written by the first
// run, read back by the next, rewritten when damaged or refused, skipped when it cannot be
// written, and never in the way of the run itself. Each test runs a private copy of dist/, so the
// cache it looks at is its own.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { copyOfBuild } from "../helpers/build-copy.js";
import { tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";

interface Report {
  dir: string | null;
  loaded: number;
  accepted: number;
  rejected: number;
  written: number;
}

/** One one-shot turn with a tool call; resolves with its output and the loader's report. */
async function turn(dist: string, env: Record<string, string | undefined> = {}) {
  const reportFile = join(tempDir(), "report.json");
  const world = await e2eEnv(
    [toolReply([{ name: "read_file", args: { path: "notes.txt" } }]), textReply("One line.")],
    { model: "mock-model", env: { NANOHERMES_CODE_CACHE_REPORT: reportFile, ...env } },
  );
  writeFileSync(join(world.workspace, "notes.txt"), "alpha\n");
  const child = spawn(process.execPath, [join(dist, "cli.js"), "-p", "what is in notes.txt?"], {
    cwd: world.workspace,
    env: world.env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((done) => child.on("close", done));
  await world.dispose();
  const report = JSON.parse(readFileSync(reportFile, "utf8")) as Report;
  return { code, stdout, stderr, report };
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".cache"));

it("the first run writes a cache for every script it ran, and the next run takes them all", async () => {
  const dist = copyOfBuild();
  const first = await turn(dist);
  expect(first.stderr).toBe("");
  expect(first.stdout).toBe("One line.\n");
  expect(first.report.dir).toBe(join(dist, ".code-cache"));
  // The turn runs the entry and dozens of chunks; none had a cache yet.
  expect(first.report.loaded).toBeGreaterThan(20);
  expect(first.report).toMatchObject({ accepted: 0, rejected: 0, written: first.report.loaded });
  expect(cacheFiles(join(dist, ".code-cache"))).toHaveLength(first.report.loaded);

  const second = await turn(dist);
  expect(second.stdout).toBe("One line.\n");
  expect(second.report).toMatchObject({ loaded: first.report.loaded, accepted: first.report.loaded, written: 0 });
});

it("a damaged cache is refused by V8, the run goes on, and the cache is written anew", async () => {
  const dist = copyOfBuild();
  await turn(dist);
  const dir = join(dist, ".code-cache");
  for (const f of cacheFiles(dir)) {
    const size = statSync(join(dir, f)).size;
    writeFileSync(join(dir, f), Buffer.alloc(size, 0x5a));
  }
  const damaged = await turn(dist);
  expect(damaged.stderr).toBe("");
  expect(damaged.stdout).toBe("One line.\n");
  expect(damaged.report.accepted).toBe(0);
  expect(damaged.report.rejected).toBe(damaged.report.loaded);
  expect(damaged.report.written).toBe(damaged.report.loaded);
  const after = await turn(dist);
  expect(after.report.accepted).toBe(after.report.loaded);
});

it("a script changed since the build gets a cache of its own (V8 alone would compare lengths)", async () => {
  const dist = copyOfBuild();
  await turn(dist);
  const before = cacheFiles(join(dist, ".code-cache"));
  // Same text, new time stamp: what an edit of the same length looks like to the loader.
  const main = join(dist, "main.js");
  const later = new Date(Date.now() + 60_000);
  utimesSync(main, later, later);
  const run = await turn(dist);
  expect(run.stdout).toBe("One line.\n");
  expect(run.report.written).toBe(1);
  const after = cacheFiles(join(dist, ".code-cache"));
  expect(after.filter((f) => !before.includes(f))).toHaveLength(1);
});

it("with NANOHERMES_CODE_CACHE=off nothing is read or written", async () => {
  const dist = copyOfBuild();
  const run = await turn(dist, { NANOHERMES_CODE_CACHE: "off" });
  expect(run.stdout).toBe("One line.\n");
  expect(run.report).toMatchObject({ dir: null, accepted: 0, written: 0 });
  expect(existsSync(join(dist, ".code-cache"))).toBe(false);
});

it("a cache folder that cannot be written costs the run nothing", async () => {
  const dist = copyOfBuild();
  // A file where the folder would be: mkdir fails as it would on a read-only or full disk.
  writeFileSync(join(dist, ".code-cache"), "not a folder");
  const run = await turn(dist);
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("");
  expect(run.stdout).toBe("One line.\n");
  expect(run.report.written).toBe(0);
});

it("NANOHERMES_CODE_CACHE=home (or a build that cannot be written) keeps the cache in the home folder, a folder per copy", async () => {
  const dist = copyOfBuild();
  const home = tempDir("nh-home-");
  const first = await turn(dist, { NANOHERMES_HOME: home, NANOHERMES_CODE_CACHE: "home" });
  expect(first.stdout).toBe("One line.\n");
  const [copyDir, ...others] = readdirSync(join(home, "cache", "code"));
  expect(others).toEqual([]);
  expect(first.report.dir).toBe(join(home, "cache", "code", copyDir!));
  expect(cacheFiles(first.report.dir!)).toHaveLength(first.report.loaded);
  expect(existsSync(join(dist, ".code-cache"))).toBe(false);
  const second = await turn(dist, { NANOHERMES_HOME: home, NANOHERMES_CODE_CACHE: "home" });
  expect(second.report.accepted).toBe(second.report.loaded);
  // Another copy of the build does not share (or clear) the first one's folder.
  const other = copyOfBuild();
  await turn(other, { NANOHERMES_HOME: home, NANOHERMES_CODE_CACHE: "home" });
  expect(readdirSync(join(home, "cache", "code")).sort()).toHaveLength(2);
  expect(cacheFiles(first.report.dir!)).toHaveLength(first.report.loaded);
});

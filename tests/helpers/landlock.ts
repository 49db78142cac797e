// The Landlock tests' fixture (tests/sandbox/landlock-*.test.ts): the built helper, and for each
// test a fresh workspace and "outside" folder, both outside the temp directory (which
// workspace-write makes writable), with ways to run a shell script under a sandbox mode.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { helperPath, sandboxArgv, type SandboxMode } from "../../src/sandbox/landlock.js";

const repo = resolve(import.meta.dirname, "../..");
/** The built helper's path, once setUpLandlockFixture's beforeAll ran. */
export let helper = "";
let base = "";
/** This test's workspace (holding inside.txt) and a folder beside it (holding keep.txt). */
export let ws = "";
export let outside = "";

/** Builds the helper (fails the file when it cannot) and makes the folders afresh before each test. */
export function setUpLandlockFixture(): void {
  beforeAll(() => {
    execFileSync(process.execPath, ["scripts/build-native.mjs"], { cwd: repo, stdio: "pipe" });
    const built = helperPath();
    expect(built, "the helper must build here (is cc installed?)").not.toBeNull();
    helper = built ?? "";
    // Neither the workspace nor the "outside" folder may be under the temp directory, which
    // workspace-write makes writable: the first candidate that is not under it (the checkout
    // itself may live in /tmp, as CI's clean clone can).
    const tmp = realpathSync(tmpdir());
    const candidates = [
      join(repo, ".sandbox-test"),
      "/var/tmp/nanohermes-sandbox-test",
      join(homedir(), ".nanohermes-sandbox-test"),
    ];
    const root = candidates.find((c) => !c.startsWith(`${tmp}/`) && c !== tmp);
    expect(root, "no folder outside the temp directory to test in").toBeDefined();
    mkdirSync(root!, { recursive: true });
    base = realpathSync(mkdtempSync(join(root!, "run-")));
    expect(base.startsWith(`${tmp}/`)).toBe(false);
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  beforeEach(() => {
    rmSync(join(base, "ws"), { recursive: true, force: true });
    rmSync(join(base, "outside"), { recursive: true, force: true });
    ws = join(base, "ws");
    outside = join(base, "outside");
    mkdirSync(ws);
    mkdirSync(outside);
    writeFileSync(join(ws, "inside.txt"), "inside\n");
    writeFileSync(join(outside, "keep.txt"), "keep\n");
  });
}

export interface Options {
  network?: boolean;
  writable?: string[];
}

export function argvFor(mode: SandboxMode, script: string, options: Options = {}): string[] {
  const result = sandboxArgv(
    { mode, workspace: ws, writableRoots: options.writable ?? [], network: options.network ?? true },
    ["sh", "-c", script],
  );
  if ("refused" in result) throw new Error(result.refused);
  return result.argv;
}

export function sandboxed(mode: SandboxMode, script: string, options: Options = {}) {
  const [program, ...args] = argvFor(mode, script, options);
  return spawnSync(program ?? "", args, { cwd: ws, encoding: "utf8" });
}

/** Asynchronous, for commands that talk to a server in this process. */
export function sandboxedAsync(
  mode: SandboxMode,
  script: string,
  options: Options = {},
): Promise<{ status: number | null; stdout: string }> {
  const [program, ...args] = argvFor(mode, script, options);
  return new Promise((done) => {
    const child = spawn(program ?? "", args, { cwd: ws });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("close", (status) => done({ status, stdout }));
  });
}

export const helperRun = (args: string[]) => spawnSync(helper, args, { cwd: ws, encoding: "utf8" });
export const keepIntact = () => expect(readFileSync(join(outside, "keep.txt"), "utf8")).toBe("keep\n");

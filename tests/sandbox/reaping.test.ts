// No process outlives its command: run_command through the real helper (Landlock modes and the
// reap-only mode of "off"), with nohup, setsid and a double-forking daemon, on a normal end, a
// timeout, a stop, and for background jobs on task_kill and the session's end.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { commandSandbox } from "../../src/agent/confinement.js";
import { helperPath } from "../../src/sandbox/landlock.js";
import type { CommandSandbox } from "../../src/tools/define.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { taskKillTool } from "../../src/tools/task-tools.js";
import { tempDir } from "../helpers/cli.js";
import { callTool, testSession } from "../helpers/tools.js";
import { waitFor } from "../helpers/wait.js";

const repo = resolve(import.meta.dirname, "../..");
beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-native.mjs"], { cwd: repo, stdio: "pipe" });
});

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
let counter = 0;
const marker = () => `nh-reap-marker-${process.pid}-${++counter}`;

/** Processes (not zombies) with `mark` as an argument of its own (not inside a `bash -c` script). */
function running(mark: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(mark)) found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The three ways to leave a process behind; each writes `file` one second later. */
const forms = {
  // First: python starts slowly, and the others' second must not run out while it does.
  daemon: (file: string, mark: string) =>
    `python3 -c 'import os, time
if os.fork(): os._exit(0)
os.setsid()
if os.fork(): os._exit(0)
time.sleep(1); open("${file}", "w").write("late")' ${mark} > /dev/null 2>&1`,
  nohup: (file: string, mark: string) => `nohup sh -c 'sleep 1; echo late > ${file}' ${mark} > /dev/null 2>&1 &`,
  setsid: (file: string, mark: string) => `setsid sh -c 'sleep 1; echo late > ${file}' ${mark} > /dev/null 2>&1 &`,
};

const sandboxFor = (mode: "workspace-write" | "read-only" | "off", ws: string): CommandSandbox =>
  commandSandbox({ sandbox: { mode, network: true, writableRoots: [] }, workspace: ws });

/** A process of `mark` runs (the command got as far as starting what it leaves behind). */
const appears = (mark: string) => waitFor(() => running(mark).length > 0, { what: `a process of ${mark} runs` });

/**
 * Asserts, two seconds after the tool returned, that nothing wrote `files` and nothing with `marks`
 * runs. A deliberate window, not a wait for something: each form writes its file one second after
 * it starts, so a form that survived would have written by then (the control test below shows it
 * does, without the helper); no later event could prove a write that never comes.
 */
async function expectNothingLeft(ws: string, files: string[], marks: string[]): Promise<void> {
  await sleep(2_000);
  for (const file of files) expect(existsSync(join(ws, file)), file).toBe(false);
  for (const mark of marks) expect(running(mark), mark).toEqual([]);
}

describe.each(["workspace-write", "off"] as const)("foreground commands under %s", (mode) => {
  // Read-only cannot write the late files at all, so it would prove nothing here.
  it("nohup, setsid and a double-forking daemon end with the command", async () => {
    const ws = tempDir();
    const sandbox = sandboxFor(mode, ws);
    const marks = Object.keys(forms).map(() => marker());
    const results = await Promise.all(
      Object.entries(forms).map(([name, form], i) =>
        callTool(runCommandTool, { command: `${form(`${name}.txt`, marks[i]!)}\necho started` }, ws, undefined, {
          sandbox,
        }),
      ),
    );
    for (const r of results) expect(r.forModel).toMatch(/\nexit code 0 .*\n--- stdout ---\nstarted$/);
    await expectNothingLeft(
      ws,
      Object.keys(forms).map((name) => `${name}.txt`),
      marks,
    );
  });

  it("a timeout ends what the command left in another session", async () => {
    const ws = tempDir();
    const mark = marker();
    const r = await callTool(
      runCommandTool,
      { command: `${forms.setsid("late.txt", mark)}\nsleep 30`, timeout_ms: 300 },
      ws,
      undefined,
      { sandbox: sandboxFor(mode, ws) },
    );
    expect(r.forModel).toContain("timed out");
    await expectNothingLeft(ws, ["late.txt"], [mark]);
  });

  it("a stop ends a daemon the command started", async () => {
    const ws = tempDir();
    const mark = marker();
    const controller = new AbortController();
    const call = callTool(
      runCommandTool,
      { command: `${forms.daemon("late.txt", mark)}\necho ready; sleep 30` },
      ws,
      controller.signal,
      {
        sandbox: sandboxFor(mode, ws),
      },
    );
    await appears(mark);
    controller.abort();
    expect((await call).forModel).toContain("[interrupted]");
    await expectNothingLeft(ws, ["late.txt"], [mark]);
  });
});

describe("the helper holds", () => {
  it("a sandboxed command cannot kill the helper to keep its orphans", async () => {
    const ws = tempDir();
    const mark = marker();
    const r = await callTool(
      runCommandTool,
      { command: `${forms.setsid("late.txt", mark)}\nkill -9 $PPID; echo "kill: $?"` },
      ws,
      undefined,
      {
        sandbox: sandboxFor("workspace-write", ws),
      },
    );
    expect(r.forModel).toContain("kill: 1");
    await expectNothingLeft(ws, ["late.txt"], [mark]);
  });

  it("reaps by scanning /proc where the kernel has no children lists (simulated with --reap-by-scan)", async () => {
    const ws = tempDir();
    const marks = Object.keys(forms).map(() => marker());
    const script = Object.entries(forms)
      .map(([name, form], i) => form(`${name}.txt`, marks[i]!))
      .join("\n");
    const r = spawnSync(
      helperPath() ?? "",
      ["--mode", "workspace-write", "--workspace", ws, "--reap-by-scan", "--", "bash", "-c", `${script}\necho started`],
      { cwd: ws, encoding: "utf8" },
    );
    expect(r.stdout).toBe("started\n");
    expect(r.status).toBe(0);
    await expectNothingLeft(
      ws,
      Object.keys(forms).map((name) => `${name}.txt`),
      marks,
    );
  });

  it("when whatever started the helper dies, the helper ends everything the command started", async () => {
    const ws = tempDir();
    const mark = marker();
    const inner = `setsid sh -c 'sleep 30' ${mark} > /dev/null 2>&1 & sleep 30`;
    // The agent stands in as a shell that is killed outright (a crash, an OOM kill).
    const agent = spawn(
      "sh",
      ["-c", `${helperPath()} --mode workspace-write --workspace ${ws} -- sh -c "${inner}" & wait`],
      { cwd: ws, stdio: "ignore" },
    );
    await appears(mark);
    agent.kill("SIGKILL");
    await waitFor(() => running(mark).length === 0, { what: `the helper ended ${mark} after its parent died` });
    expect(running(mark)).toEqual([]);
  });

  it("the control: without the helper, a setsid child outlives its command", async () => {
    const ws = tempDir();
    const mark = marker();
    const r = await callTool(runCommandTool, { command: `${forms.setsid("late.txt", mark)}\necho started` }, ws);
    expect(r.forModel).toMatch(/\nexit code 0 /);
    await waitFor(() => existsSync(join(ws, "late.txt")), { what: "the orphan wrote late.txt" });
    await waitFor(() => readFileSync(join(ws, "late.txt"), "utf8") === "late\n", { what: "late.txt says late" });
  });
});

describe("background jobs", () => {
  it("keep what they left running until task_kill, then all of it ends", async () => {
    const ws = tempDir();
    const s = testSession();
    const mark = marker();
    const extras = { session: s.session, sandbox: sandboxFor("workspace-write", ws) };
    const started = await callTool(
      runCommandTool,
      { command: `setsid sh -c 'sleep 30' ${mark} > /dev/null 2>&1 & echo started`, background: true },
      ws,
      undefined,
      extras,
    );
    expect(started.forModel).toMatch(/^started job-1/);
    await appears(mark);
    // The job's own shell ends at once (echo); what it left still runs: the job lasts as long. A
    // deliberate window: no event marks "the orphan was not reaped", so give a reaper the time to.
    await sleep(300);
    expect(running(mark).length).toBe(1);
    await callTool(taskKillTool, { id: "job-1" }, ws, undefined, extras);
    expect(running(mark)).toEqual([]);
    await s.close();
  });

  it("end with the session, processes that left the job's session included", async () => {
    const ws = tempDir();
    const s = testSession();
    const mark = marker();
    const extras = { session: s.session, sandbox: sandboxFor("off", ws) };
    await callTool(
      runCommandTool,
      { command: `setsid sh -c 'sleep 30' ${mark} > /dev/null 2>&1 & sleep 30`, background: true },
      ws,
      undefined,
      extras,
    );
    await appears(mark);
    await s.close();
    expect(running(mark)).toEqual([]);
  });
});

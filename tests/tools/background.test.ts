// Background jobs with real processes: start, output since an offset, list, kill, bounded
// buffers, SIGTERM-ignoring jobs, the session's end, the jobs limit and the sandbox prefix.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type BackgroundJobs,
  JOB_BUFFER_BYTES,
  lastLineOf,
  MAX_RUNNING_JOBS,
  RollingLog,
  type Job,
} from "../../src/tools/background.js";
import type { CommandSandbox, ToolReport } from "../../src/tools/define.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { taskKillTool, taskListTool, taskOutputTool } from "../../src/tools/task-tools.js";
import { tempDir } from "../helpers/cli.js";
import { alive } from "../helpers/proc.js";
import { waitFor as waitUntil } from "../helpers/wait.js";
import { callTool, testSession, type CallExtras } from "../helpers/tools.js";

type Session = ReturnType<typeof testSession>;
const open: Session[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

function setup() {
  const s = testSession();
  open.push(s);
  const ws = tempDir();
  const extras: CallExtras = { session: s.session };
  const call = (tool: Parameters<typeof callTool>[0], args: unknown, more: CallExtras = {}) =>
    callTool(tool, args, ws, new AbortController().signal, { ...extras, ...more });
  const jobs = () => (s.session.store.get("background") as BackgroundJobs).list();
  const job = (id: string): Job => jobs().find((j) => j.id === id)!;
  return { s, ws, call, jobs, job };
}

/** Waits for `cond`; the failure quotes the condition's source. */
const waitFor = (cond: () => boolean, ms = 10_000) => waitUntil(cond, { what: cond.toString(), timeoutMs: ms });

const bgReports = (reports: ToolReport[]) => reports.flatMap((r) => (r.kind === "background" ? [r.job] : []));

describe("run_command background", () => {
  it("returns at once with per-session ids, and task_output reads since an offset", async () => {
    const { s, call, job } = setup();
    const r = await call(runCommandTool, { command: "echo one; sleep 0.2; echo two; sleep 30", background: true });
    expect(r.status).toBe("ok");
    // Back while the command still runs: it did not wait for it.
    expect(job("job-1").state).toBe("running");
    expect(r.forModel).toMatch(/^started job-1 in the background \(pid \d+\): echo one/);
    expect(r.forModel).toContain('task_output {"id":"job-1"}');
    const r2 = await call(runCommandTool, { command: "echo second", background: true });
    expect(r2.forModel).toMatch(/^started job-2 /);

    await waitFor(() => job("job-1").log.end >= 8);
    const all = await call(taskOutputTool, { id: "job-1", since: 0 });
    expect(all.forModel).toMatch(
      /^job-1 running for \d+\.\d s: \$ echo one; sleep 0\.2; echo two; sleep 30\none\ntwo\n\[offset 8: all output so far; still running/,
    );
    const from4 = await call(taskOutputTool, { id: "job-1", since: 4 });
    expect(from4.forModel.split("\n")[1]).toBe("two");
    // Without since, a read continues where the last one stopped.
    const next = await call(taskOutputTool, { id: "job-1" });
    expect(next.forModel).toContain("(no new output)");
    const past = await call(taskOutputTool, { id: "job-1", since: 999 });
    expect(past).toMatchObject({
      status: "error",
      forModel: "since 999 is past the end of job-1's output: it has written 8 bytes so far",
    });

    const list = await call(taskListTool, {});
    expect(list.forModel).toMatch(
      /^2 jobs, 1 running:\njob-1  running +\d+\.\d s  \$ echo one; .* \| two\njob-2  exited 0 /,
    );

    // The throttled report of the new last line arrives while the job still runs.
    await waitFor(
      () => bgReports(s.reports).some((j) => j.id === "job-1" && j.state === "running" && j.lastLine === "two"),
      2_000,
    );
    const pid = job("job-1").pid!;
    const killed = await call(taskKillTool, { id: "job-1" });
    expect(killed.forModel).toMatch(/^job-1 killed after \d+\.\d s \(stopped by task_kill; SIGTERM\)\nlast line: two$/);
    expect(alive(pid)).toBe(false);
    const again = await call(taskKillTool, { id: "job-1" });
    expect(again.forModel).toMatch(/^job-1 had already ended: it killed after/);

    const states = bgReports(s.reports).filter((j) => j.id === "job-1");
    expect(states[0]).toMatchObject({
      state: "running",
      exitCode: null,
      command: "echo one; sleep 0.2; echo two; sleep 30",
    });
    expect(states.at(-1)).toMatchObject({ state: "killed", lastLine: "two" });
  });

  it("reports the exit code when a job ends by itself", async () => {
    const { s, call, job } = setup();
    await call(runCommandTool, { command: "printf 'caf\\xe9\\n'; echo oops >&2; exit 3", background: true });
    await waitFor(() => job("job-1").state !== "running");
    const r = await call(taskOutputTool, { id: "job-1" });
    expect(r.forModel).toMatch(/^job-1 exited with code 3 after \d+\.\d s: \$ printf/);
    expect(r.forModel).toContain("caf\uFFFD");
    expect(r.forModel).toContain("oops");
    expect(r.forModel).toMatch(/\[offset \d+: end of output; the job exited with code 3/);
    expect(bgReports(s.reports).at(-1)).toMatchObject({ id: "job-1", state: "exited", exitCode: 3, lastLine: "oops" });
  });

  it("keeps a flooding job's output bounded and says what was dropped", async () => {
    const { call, job } = setup();
    await call(runCommandTool, {
      command: "head -c 5000000 /dev/zero | tr '\\0' x; echo; echo END-MARK",
      background: true,
    });
    await waitFor(() => job("job-1").state === "exited", 20_000);
    const log = job("job-1").log;
    expect(log.end).toBe(5_000_000 + 1 + 9);
    expect(log.end - log.start).toBeLessThanOrEqual(JOB_BUFFER_BYTES);
    const r = await call(taskOutputTool, { id: "job-1", since: 0 });
    const dropped = log.start;
    expect(r.forModel).toContain(
      `[${dropped} bytes before offset ${dropped} were dropped: only the last 1 MB of output is kept]`,
    );
    expect(Buffer.byteLength(r.forModel)).toBeLessThanOrEqual(20 * 1024);
    expect(r.forModel).toContain(`[offset ${dropped + 16 * 1024} of ${log.end}:`);
    const tail = await call(taskOutputTool, { id: "job-1", since: log.end - 20 });
    expect(tail.forModel).toMatch(/x+\nEND-MARK\n\[offset 5000010: end of output/);
  });

  it("kills a job that ignores SIGTERM with SIGKILL after the grace period", async () => {
    const { call, job } = setup();
    await call(runCommandTool, { command: "trap '' TERM; echo ready; while :; do sleep 0.1; done", background: true });
    await waitFor(() => job("job-1").lastLine === "ready");
    const pid = job("job-1").pid!;
    const t = performance.now();
    const r = await call(taskKillTool, { id: "job-1" });
    expect(performance.now() - t).toBeGreaterThanOrEqual(1_900);
    expect(r.forModel).toMatch(
      /^job-1 killed after \d+\.\d s \(stopped by task_kill; SIGKILL after it ignored SIGTERM\)/,
    );
    expect(alive(pid)).toBe(false);
  });

  it("kills running jobs and what finished jobs left behind when the session ends", async () => {
    const { s, ws, call, job } = setup();
    await call(runCommandTool, { command: "sleep 30 & echo $! > child.pid; wait", background: true });
    await call(runCommandTool, { command: "trap '' TERM; sleep 30", background: true });
    await call(runCommandTool, { command: "sleep 30 & echo $! > left.pid", background: true });
    await waitFor(() => job("job-3").state === "exited");
    await waitFor(() => {
      try {
        return readFileSync(join(ws, "child.pid"), "utf8").trim() !== "";
      } catch {
        return false;
      }
    });
    const pids = [
      job("job-1").pid!,
      job("job-2").pid!,
      Number(readFileSync(join(ws, "child.pid"), "utf8")),
      Number(readFileSync(join(ws, "left.pid"), "utf8")),
    ];
    expect(pids.every(alive)).toBe(true);
    await s.close();
    expect(pids.map(alive)).toEqual([false, false, false, false]);
    expect(job("job-1").describe()).toMatch(/killed after .* \(the session ended; SIGTERM\)/);
    expect(
      bgReports(s.reports)
        .filter((j) => j.state === "killed")
        .map((j) => j.id)
        .sort(),
    ).toEqual(["job-1", "job-2"]);
    const late = await call(runCommandTool, { command: "true", background: true });
    expect(late.forModel).toBe("the session has ended: no new background jobs");
  });

  it(`refuses more than ${MAX_RUNNING_JOBS} running jobs clearly`, async () => {
    const { call } = setup();
    for (let i = 0; i < MAX_RUNNING_JOBS; i++) {
      expect((await call(runCommandTool, { command: "sleep 30", background: true })).status).toBe("ok");
    }
    const r = await call(runCommandTool, { command: "sleep 30", background: true });
    expect(r.status).toBe("error");
    expect(r.forModel).toMatch(
      /^refused: 16 background jobs are already running \(job-1, .*job-16\), the limit is 16\. Stop one with task_kill/,
    );
    await call(taskKillTool, { id: "job-3" });
    expect((await call(runCommandTool, { command: "sleep 30", background: true })).forModel).toMatch(
      /^started job-17 /,
    );
  });

  it("names the known jobs for an unknown id, and needs a session", async () => {
    const { call } = setup();
    expect((await call(taskOutputTool, { id: "job-1" })).forModel).toBe(
      'unknown job "job-1": this session has no background jobs',
    );
    expect((await call(taskListTool, {})).forModel).toMatch(/^no background jobs in this session/);
    await call(runCommandTool, { command: "true", background: true });
    await call(runCommandTool, { command: "true", background: true });
    expect((await call(taskKillTool, { id: "job-9" })).forModel).toBe(
      'unknown job "job-9": this session\'s jobs are job-1, job-2',
    );
    const bad = await call(taskOutputTool, { id: "job-1", since: -1 });
    expect(bad.forModel).toMatch(/^invalid arguments for task_output: "since"/);
    const none = await callTool(runCommandTool, { command: "true", background: true }, tempDir());
    expect(none).toMatchObject({ status: "error" });
    expect(none.forModel).toMatch(/^background jobs need a session/);
  });

  it("runs under the same sandbox prefix as a foreground command, and refuses when it refuses", async () => {
    const { call, job } = setup();
    const sandbox = (wrap: CommandSandbox["wrap"]): CallExtras => ({
      sandbox: { mode: "workspace-write", network: false, writableRoots: [], wrap },
    });
    await call(
      runCommandTool,
      { command: "echo sandboxed=$NH_SANDBOXED", background: true },
      sandbox(async (argv) => ({ argv: ["env", "NH_SANDBOXED=yes", ...argv] })),
    );
    await waitFor(() => job("job-1").state === "exited");
    expect(job("job-1").lastLine).toBe("sandboxed=yes");
    const refused = await call(
      runCommandTool,
      { command: "true", background: true },
      sandbox(async () => ({ refused: "sandbox workspace-write refused: no Landlock" })),
    );
    expect(refused).toMatchObject({ status: "error", forModel: "sandbox workspace-write refused: no Landlock" });
    await call(
      runCommandTool,
      { command: "true", background: true },
      sandbox(async (argv) => ({ argv: ["/nonexistent/nh-helper", ...argv] })),
    );
    await waitFor(() => job("job-2").state !== "running");
    expect(job("job-2").state).toBe("failed");
    expect((await call(taskListTool, {})).forModel).toMatch(
      /job-2  failed .* \| failed to start: spawn \/nonexistent\/nh-helper ENOENT/,
    );
  });

  it("kills a job after timeout_ms and reports the last line at most four times a second", async () => {
    const { s, call, job } = setup();
    // The 40 lines take about 1 s on a quiet machine; the timeout leaves room for a loaded one.
    await call(runCommandTool, {
      command: "for i in $(seq 1 40); do echo line $i; sleep 0.025; done; sleep 30",
      background: true,
      timeout_ms: 3_500,
    });
    await waitFor(() => job("job-1").state !== "running", 10_000);
    expect(job("job-1").describe()).toMatch(/^killed after \d\.\d s \(its timeout of 3500 ms; SIGTERM\)$/);
    const reports = bgReports(s.reports);
    const running = reports.filter((j) => j.state === "running");
    // At most one per 250 ms over ~3.5 s, plus the start.
    expect(running.length).toBeGreaterThanOrEqual(3);
    expect(running.length).toBeLessThanOrEqual(16);
    expect(reports.at(-1)).toMatchObject({ state: "killed", lastLine: "line 40" });
  });
});

describe("RollingLog and lastLineOf", () => {
  it("keeps the last bytes with stable offsets and never splits a character", () => {
    const log = new RollingLog(10);
    for (let i = 0; i < 1000; i++) log.append(Buffer.from("ab"));
    log.append(Buffer.from("é€x"));
    expect(log.end).toBe(2000 + 6);
    expect(log.start).toBe(2006 - 10);
    expect(log.read(0, 100)).toEqual({ text: "ababé€x", from: 1996, next: 2006 });
    // A cut inside "€" stops before it; the next read starts with it whole.
    expect(log.read(2000, 4)).toEqual({ text: "é", from: 2000, next: 2002 });
    expect(log.read(2001, 100).text).toBe("€x");
  });

  it("finds the last visible line without terminal sequences", () => {
    expect(lastLineOf("a\nbuild \x1b[32mok\x1b[0m\n\n")).toBe("build ok");
    expect(lastLineOf("progress 10%\rprogress 90%\r")).toBe("progress 90%");
    expect(lastLineOf("x".repeat(500))).toHaveLength(200);
    expect(lastLineOf("")).toBe("");
  });
});

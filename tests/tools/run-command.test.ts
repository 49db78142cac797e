// run_command with real processes: exit codes, caps, timeouts, process groups, live output.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCommandTool, runShell } from "../../src/tools/run-command.js";
import { tempDir } from "../helpers/cli.js";
import { callTool } from "../helpers/tools.js";
import { alive } from "../helpers/proc.js";
import { waitFor } from "../helpers/wait.js";

describe("run_command", () => {
  it("runs in the workspace and reports exit code, stdout and stderr", async () => {
    const ws = tempDir();
    const r = await callTool(runCommandTool, { command: "pwd; echo oops >&2; exit 2" }, ws);
    expect(r.status).toBe("error");
    expect(r.forModel).toMatch(
      new RegExp(
        `^\\$ pwd; echo oops >&2; exit 2\\nexit code 2 \\(\\d+\\.\\d s\\)\\n--- stdout ---\\n${ws}\\n--- stderr ---\\noops$`,
      ),
    );
  });

  it("emits live output events while the command runs", async () => {
    const ws = tempDir();
    // The second line waits until the first came out as an event: it can only end if output is live.
    const command = "echo first; while [ ! -e seen ]; do sleep 0.02; done; echo second";
    const r = await callTool(runCommandTool, { command }, ws, undefined, {
      emit: (e) => {
        if (e.type === "tool.output" && e.chunk.includes("first")) writeFileSync(join(ws, "seen"), "");
      },
    });
    const chunks = r.events
      .filter((e) => e.type === "tool.output")
      .map((e) => (e.type === "tool.output" ? e.chunk : ""));
    expect(chunks.join("")).toBe("first\nsecond\n");
    expect(chunks.length).toBeGreaterThanOrEqual(2);
  });

  it("caps each stream at 256 KB while reading and the result at 20 KB", async () => {
    const r = await runShell("yes line | head -c 5000000; echo TAIL-MARK", {
      cwd: tempDir(),
      timeoutMs: 30_000,
      signal: new AbortController().signal,
    });
    expect(Buffer.byteLength(r.stdout)).toBeLessThanOrEqual(256 * 1024 + 200);
    expect(r.stdout).toMatch(/bytes of output dropped while reading/);
    expect(r.stdout.endsWith("TAIL-MARK\n")).toBe(true);
    const t = await callTool(runCommandTool, { command: "yes line | head -c 5000000; echo TAIL-MARK" }, tempDir());
    expect(Buffer.byteLength(t.forModel)).toBeLessThanOrEqual(20 * 1024);
    expect(t.forModel).toContain("TAIL-MARK");
  });

  it("kills the whole process group on timeout, even a process that ignores SIGTERM", async () => {
    const ws = tempDir();
    const cmd = "trap '' TERM; (trap '' TERM; sleep 30) & echo $! > child.pid; sleep 30";
    const r = await callTool(runCommandTool, { command: cmd, timeout_ms: 300 }, ws);
    expect(r.forModel).toMatch(/timed out after \d+\.\d s; the process group was killed/);
    const pid = Number(readFileSync(join(ws, "child.pid"), "utf8"));
    await waitFor(() => !alive(pid), { what: `the child ${pid} that ignored SIGTERM is gone` });
  });

  it("returns promptly when a background grandchild keeps the pipes open", async () => {
    const ws = tempDir();
    const r = await callTool(runCommandTool, { command: "sleep 20 & echo $! > gc.pid; echo started" }, ws);
    expect(r.forModel).toContain("started");
    // Returned while the grandchild holding the pipes still runs: it did not wait for its end.
    expect(alive(Number(readFileSync(join(ws, "gc.pid"), "utf8")))).toBe(true);
  });

  it("an abort kills the group and marks the result interrupted", async () => {
    const c = new AbortController();
    setTimeout(() => c.abort(), 200);
    const r = await callTool(runCommandTool, { command: "sleep 30" }, tempDir(), c.signal);
    expect(r.status).toBe("aborted");
    expect(r.forModel).toMatch(/^\[interrupted\]/);
  });

  it("has empty stdin and pagers disabled", async () => {
    const r = await callTool(runCommandTool, { command: "cat; echo PAGER=$PAGER" }, tempDir());
    expect(r.forModel).toContain("PAGER=cat");
    expect(r.status).toBe("ok");
  });

  it("decodes non-UTF-8 output without failing", async () => {
    const r = await callTool(runCommandTool, { command: "printf 'caf\\xe9\\n'" }, tempDir());
    expect(r.forModel).toContain("caf\uFFFD");
  });

  it("kills a child that ignores SIGTERM even when the shell itself died of SIGTERM", async () => {
    const ws = tempDir();
    const r = await callTool(
      runCommandTool,
      { command: "(trap '' TERM; sleep 30) & echo $! > child.pid; sleep 30", timeout_ms: 300 },
      ws,
    );
    expect(r.forModel).toMatch(/timed out after/);
    const pid = Number(readFileSync(join(ws, "child.pid"), "utf8"));
    // (Whether it is still alive at this moment depends on the machine's load: the grace period
    // may already be over. That it ends is the point.)
    await waitFor(() => !alive(pid), { what: `SIGKILL for ${pid} after the grace period` });
  });

  it("refuses a command with a NUL byte as a bad input, not a crash", async () => {
    const r = await callTool(runCommandTool, { command: "echo a\u0000b" }, tempDir());
    expect(r).toMatchObject({
      status: "error",
      forModel: "the command contains a NUL byte, which no program can receive",
    });
  });

  it("refuses a background command without a session, with a clear reason", async () => {
    const r = await callTool(runCommandTool, { command: "sleep 1", background: true }, tempDir());
    expect(r).toMatchObject({ status: "error" });
    expect(r.forModel).toMatch(/^background jobs need a session and this run has none/);
  });
});

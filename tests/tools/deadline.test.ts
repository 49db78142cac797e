// Every tool call has a deadline, and a forced stop ends the wait, whatever the tool waits on: a
// real FIFO with no writer blocks a file-system thread for good, and the turn still goes on.
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as z from "../../src/protocol/zod.js";
import { defineTool } from "../../src/tools/define.js";
import { settle, DeadlineExceeded, StopAbandoned } from "../../src/tools/deadline.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import type { BusEvent } from "../../src/protocol/events.js";
import { testGate } from "../helpers/gate.js";
import { turn } from "../helpers/wait.js";

const dir = mkdtempSync(join(tmpdir(), "nh-deadline-"));
const fifo = join(dir, "pipe");
execFileSync("mkfifo", [fifo]);

// Reading a FIFO nobody writes to blocks one of libuv's threads until a writer comes: one writer
// opened without blocking and closed gives every blocked reader its end of file.
afterAll(() => {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // ENXIO: no reader is left
  }
});

/** A tool that reads the FIFO: it never returns on its own and ignores its signal. */
const blocking = (deadlineMs?: number) =>
  defineTool({
    name: "read_pipe",
    kind: "read",
    description: "reads a pipe",
    params: z.object({}),
    summarize: () => "",
    ...(deadlineMs !== undefined ? { deadlineMs: () => deadlineMs } : {}),
    run: async () => fs.readFile(fifo, "utf8"),
  });

async function call(tool: ReturnType<typeof blocking>, signal: AbortSignal, abortGraceMs?: number) {
  const events: BusEvent[] = [];
  const result = await new ToolRegistry([tool]).execute(
    { id: "c1", name: tool.name, arguments: "{}" },
    {
      workspace: dir,
      taskId: "t",
      signal,
      emit: (e) => events.push(e),
      gate: testGate(),
      ...(abortGraceMs !== undefined ? { abortGraceMs } : {}),
    },
  );
  return { result, events };
}

describe("tool deadlines", () => {
  it("gives up on a call past its deadline and tells the model why", async () => {
    const { result, events } = await call(blocking(200), new AbortController().signal);
    expect(result.status).toBe("error");
    expect(result.forModel).toMatch(/read_pipe gave no result within 0 s/);
    expect(result.forModel).toMatch(/FIFO/);
    expect(events.filter((e) => e.type === "tool.completed")).toHaveLength(1);
  });

  it("ends the wait a short grace after a forced stop, even when the tool ignores its signal", async () => {
    const stop = new AbortController();
    const pending = call(blocking(60_000), stop.signal, 100);
    setTimeout(() => stop.abort(), 50);
    const { result } = await pending;
    expect(result.status).toBe("aborted");
    expect(result.forModel).toMatch(/^\[interrupted\] the user stopped this tool; the tool did not end/);
  });

  it("passes the tool a signal that aborts at the deadline, so a tool that listens can clean up", async () => {
    let reason: unknown;
    const listening = defineTool({
      name: "wait",
      kind: "read",
      description: "waits",
      params: z.object({}),
      summarize: () => "",
      deadlineMs: () => 100,
      run: (_args, ctx) =>
        new Promise<string>((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => {
            reason = ctx.signal.reason;
            reject(new Error("cleaned up"));
          });
        }),
    });
    const { result } = await call(listening as ReturnType<typeof blocking>, new AbortController().signal);
    expect(result.status).toBe("error");
    expect(reason).toBeInstanceOf(DeadlineExceeded);
  });

  it("a tool that finishes in time is untouched by the deadline", async () => {
    const quick = defineTool({
      name: "quick",
      kind: "read",
      description: "",
      params: z.object({}),
      summarize: () => "",
      deadlineMs: () => 5_000,
      run: async () => "fine",
    });
    const { result } = await call(quick as ReturnType<typeof blocking>, new AbortController().signal);
    expect(result).toMatchObject({ status: "ok", forModel: "fine" });
  });
});

describe("settle", () => {
  it("rejects with StopAbandoned when already stopped and the work never ends", async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(
      settle(new Promise(() => {}), {
        deadlineMs: 10_000,
        graceMs: 10,
        stop: stop.signal,
        controller: new AbortController(),
      }),
    ).rejects.toBeInstanceOf(StopAbandoned);
  });

  it("passes a rejection of the work through unchanged", async () => {
    const stop = new AbortController();
    await expect(
      settle(Promise.reject(new Error("boom")), {
        deadlineMs: 10_000,
        graceMs: 10,
        stop: stop.signal,
        controller: new AbortController(),
      }),
    ).rejects.toThrow("boom");
  });
});

describe("many calls on one stop signal", () => {
  it("raises no MaxListenersExceededWarning when a step runs many calls at once", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => void warnings.push(w);
    process.on("warning", onWarning);
    try {
      const stop = new AbortController();
      const slow = defineTool({
        name: "slow",
        kind: "read",
        description: "",
        params: z.object({}),
        summarize: () => "",
        run: () => new Promise<string>((r) => setTimeout(() => r("ok"), 50)),
      });
      const registry = new ToolRegistry([slow]);
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          registry.execute(
            { id: `c${i}`, name: "slow", arguments: "{}" },
            { workspace: dir, taskId: "t", signal: stop.signal, emit: () => {}, gate: testGate() },
          ),
        ),
      );
      expect(results.every((r) => r.status === "ok")).toBe(true);
      await turn(); // process warnings are emitted on the next tick
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("a forced stop before the tool runs", () => {
  it("while its checkpoint is taken: the tool never starts, and the checkpoint is closed", async () => {
    let ran = false;
    const tool = defineTool({
      name: "write_note",
      kind: "edit",
      description: "writes",
      params: z.object({}),
      summarize: () => "",
      run: async () => {
        ran = true;
        return "written";
      },
    });
    const stop = new AbortController();
    const checkpoints: string[] = [];
    const result = await new ToolRegistry([tool]).execute(
      { id: "c1", name: tool.name, arguments: "{}" },
      {
        workspace: dir,
        taskId: "t",
        signal: stop.signal,
        emit: () => {},
        gate: testGate(),
        checkpoint: {
          before: async () => {
            checkpoints.push("before");
            stop.abort(); // the user's second Ctrl-C lands while the files are read
            return null;
          },
          after: async () => void checkpoints.push("after"),
        },
      },
    );
    expect(ran).toBe(false);
    expect(result.status).toBe("aborted");
    expect(result.forModel).toBe("[interrupted] the user stopped the turn before this tool ran");
    expect(checkpoints).toEqual(["before", "after"]);
  });
});

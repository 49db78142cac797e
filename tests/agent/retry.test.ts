import { describe, expect, it } from "vitest";
import { backoffMs, isRetryable, sleep } from "../../src/agent/retry.js";
import { ToolCallAssembler } from "../../src/agent/providers/tool-call-assembler.js";
import { turn } from "../helpers/wait.js";

describe("backoff", () => {
  it("is base * 2^(attempt-1), capped at 30 s", () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(500, n))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffMs(500, 7)).toBe(30_000);
    expect(backoffMs(500, 60)).toBe(30_000);
    expect(backoffMs(0, 3)).toBe(0);
  });

  it("retries 429/500/502/503/504 and network errors only, never aborts", () => {
    const f = (status: number | undefined, aborted = false) => ({
      status,
      message: "",
      aborted,
      retryAfterMs: undefined,
    });
    expect([429, 500, 502, 503, 504].every((s) => isRetryable(f(s)))).toBe(true);
    expect([400, 401, 403, 404, 422, 501].some((s) => isRetryable(f(s)))).toBe(false);
    expect(isRetryable(f(undefined))).toBe(true);
    expect(isRetryable(f(503, true))).toBe(false);
  });

  it("sleep ends early when aborted", async () => {
    const c = new AbortController();
    let ended = false;
    const slept = sleep(10_000, c.signal).then(() => {
      ended = true;
    });
    await turn();
    expect(ended).toBe(false);
    c.abort();
    // One turn of the event loop after the abort, not ten seconds: the abort ended it.
    await turn();
    expect(ended).toBe(true);
    await slept;
  });
});

describe("tool call assembly from stream deltas", () => {
  it("joins arguments split across chunks, by index", () => {
    const a = new ToolCallAssembler();
    a.add({ index: 0, id: "x", function: { name: "read_file", arguments: "" } });
    a.add({ index: 1, id: "y", function: { name: "grep", arguments: '{"pat' } });
    a.add({ index: 0, function: { arguments: '{"path":' } });
    a.add({ index: 1, function: { arguments: 'tern":"a"}' } });
    a.add({ index: 0, function: { arguments: '"a.txt"}' } });
    expect(a.result()).toEqual([
      { id: "x", name: "read_file", arguments: '{"path":"a.txt"}' },
      { id: "y", name: "grep", arguments: '{"pattern":"a"}' },
    ]);
  });

  it("copes with providers that omit the index or the id", () => {
    const a = new ToolCallAssembler();
    a.add({ id: "p", function: { name: "glob", arguments: '{"pattern"' } });
    a.add({ function: { arguments: ':"*"}' } });
    a.add({ id: "q", function: { name: "list_dir", arguments: "{}" } });
    const r = a.result();
    expect(r).toEqual([
      { id: "p", name: "glob", arguments: '{"pattern":"*"}' },
      { id: "q", name: "list_dir", arguments: "{}" },
    ]);
    const b = new ToolCallAssembler();
    b.add({ index: 0, function: { name: "x", arguments: "{}" } });
    expect(b.result()[0]!.id).toBe("call_1");
  });
});

// The shared wait: returns what the check found, and a failure names what never happened.
import { describe, expect, it } from "vitest";
import { turn, waitFor } from "./wait.js";

describe("waitFor", () => {
  it("returns the check's first truthy answer, sync or async", async () => {
    let calls = 0;
    expect(await waitFor(() => (++calls >= 3 ? "found" : null), { what: "a third look" })).toBe("found");
    expect(calls).toBe(3);
    expect(await waitFor(async () => ({ id: 7 }), { what: "an object" })).toEqual({ id: 7 });
  });

  it("fails naming what never happened, with the check's last error", async () => {
    await expect(waitFor(() => false, { what: "the moon turned blue", timeoutMs: 30 })).rejects.toThrow(
      /never happened: the moon turned blue$/,
    );
    await expect(
      waitFor(
        () => {
          throw new Error("ENOENT: sh.pid");
        },
        { what: "the pid file", timeoutMs: 30 },
      ),
    ).rejects.toThrow(/never happened: the pid file \(last check threw: Error: ENOENT: sh.pid\)/);
  });

  it("treats a check that throws as not yet", async () => {
    let calls = 0;
    const value = await waitFor(
      () => {
        if (++calls < 3) throw new Error("not yet");
        return calls;
      },
      { what: "a check that stops throwing" },
    );
    expect(value).toBe(3);
  });
});

describe("turn", () => {
  it("lets queued promise jobs and immediates run", async () => {
    const seen: string[] = [];
    void Promise.resolve().then(() => seen.push("job"));
    setImmediate(() => seen.push("immediate"));
    await turn();
    expect(seen).toEqual(["job", "immediate"]);
  });
});

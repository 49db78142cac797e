// The Headers the bundled openai SDK gets instead of the global one (patches/openai@6.49.0/): the
// behaviour of the methods the SDK uses, next to the global's.
import { describe, expect, it } from "vitest";
import { Headers as Ours } from "../../src/agent/providers/sdk-headers.js";

describe.each([
  ["ours", Ours],
  ["global", globalThis.Headers],
] as const)("Headers (%s)", (_name, H) => {
  it("lower-cases names, joins repeated values, deletes, and iterates name/value pairs", () => {
    const h = new H({ "Content-Type": "application/json" });
    h.append("X-Two", "a");
    h.append("x-two", "b");
    h.set("User-Agent", "nh");
    h.delete("content-type");
    expect([h.get("X-TWO"), h.has("user-agent"), h.get("content-type")]).toEqual(["a, b", true, null]);
    // The global sorts by name, ours keeps insertion order; the SDK reads them as a set.
    expect([...h].sort()).toEqual([
      ["user-agent", "nh"],
      ["x-two", "a, b"],
    ]);
    expect(Object.fromEntries(new H([["A", "1"]]).entries())).toEqual({ a: "1" });
  });
});

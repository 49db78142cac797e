// A tool that meets a real system error (EACCES, ENOENT...) reports it plainly to the model, not as
// "internal error"; a real bug still is one.
import { openSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as z from "../../src/protocol/zod.js";
import { defineTool } from "../../src/tools/define.js";
import { describeSystemError } from "../../src/tools/errno.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { testGate } from "../helpers/gate.js";

const opener = defineTool({
  name: "open_it",
  kind: "read",
  description: "opens a path",
  params: z.object({ path: z.string(), flags: z.string() }),
  summarize: (a) => a.path,
  async run(a) {
    openSync(a.path, a.flags);
    return "opened";
  },
});
const buggy = defineTool({
  name: "buggy",
  kind: "read",
  description: "has a bug",
  params: z.object({}),
  summarize: () => "",
  async run() {
    throw new TypeError("x is undefined");
  },
});

async function run(name: string, args: object) {
  const registry = new ToolRegistry([opener, buggy]);
  return registry.execute(
    { id: "c1", name, arguments: JSON.stringify(args) },
    { workspace: "/tmp", taskId: "t", signal: new AbortController().signal, emit: () => {}, gate: testGate() },
  );
}

describe("system errors in tools", () => {
  it("names EACCES (even root may not write /sys/kernel/notes) instead of calling it an internal error", async () => {
    const r = await run("open_it", { path: "/sys/kernel/notes", flags: "w" });
    expect(r.status).toBe("error");
    expect(r.forModel).toBe("permission denied: /sys/kernel/notes (EACCES)");
  });

  it("names ENOENT and EISDIR the same way", async () => {
    expect((await run("open_it", { path: "/nonexistent/x", flags: "r" })).forModel).toBe(
      "no such file or directory: /nonexistent/x (ENOENT)",
    );
    expect((await run("open_it", { path: "/tmp", flags: "w" })).forModel).toBe("is a directory: /tmp (EISDIR)");
  });

  it("still calls a bug an internal error", async () => {
    expect((await run("buggy", {})).forModel).toBe("internal error in buggy: x is undefined");
    expect(describeSystemError(new Error("plain"))).toBeNull();
  });
});

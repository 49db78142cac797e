// Issue 18 items 4 and 5: a call bound to fail is refused before the approval question, and a
// tool's duration is its own (not the time the question waited); a call that never started
// still says what it was (a denied command keeps its text).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BusEvent, EventOf } from "../../src/protocol/events.js";
import { applyPatchTool } from "../../src/tools/apply-patch.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { listDirTool } from "../../src/tools/list-dir.js";
import type { Answer } from "../../src/agent/gate.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { tempDir } from "../helpers/cli.js";
import { testGate } from "../helpers/gate.js";

/** Every edit and command asks (policy untrusted); `answer` is the person asked. */
function setup(answer: () => Promise<Answer>) {
  const ws = tempDir();
  const gate = testGate({ approval: "untrusted", workspace: ws, answer });
  const events: BusEvent[] = [];
  const registry = new ToolRegistry([editFileTool, applyPatchTool, listDirTool, runCommandTool]);
  const call = (name: string, args: unknown) =>
    registry.execute(
      { id: "c1", name, arguments: JSON.stringify(args) },
      { workspace: ws, taskId: "t", signal: new AbortController().signal, emit: (e) => events.push(e), gate },
    );
  const completed = () => events.find((e): e is EventOf<"tool.completed"> => e.type === "tool.completed")!;
  return { ws, events, call, completed };
}

describe("edit_file pre-check (before the approval question)", () => {
  const cases = [
    {
      name: "text not in the file",
      args: { path: "a.txt", old_string: "missing", new_string: "x" },
      says: "old_string was not found in a.txt",
    },
    {
      name: "text twice in the file",
      args: { path: "a.txt", old_string: "same", new_string: "x" },
      says: "old_string occurs 2 times in a.txt",
    },
    {
      name: "no such file",
      args: { path: "none.txt", old_string: "a", new_string: "b" },
      says: "no such file: none.txt",
    },
    { name: "no change", args: { path: "a.txt", old_string: "one", new_string: "one" }, says: "nothing to change" },
  ];
  for (const c of cases) {
    it(`fails without asking: ${c.name}`, async () => {
      let asked = 0;
      const t = setup(async () => {
        asked++;
        return { decision: "once" };
      });
      writeFileSync(join(t.ws, "a.txt"), "one\nsame\nsame\n");
      const result = await t.call("edit_file", c.args);
      expect(asked).toBe(0);
      expect(result.status).toBe("error");
      expect(result.forModel).toContain(c.says);
      expect(t.events.some((e) => e.type === "tool.started")).toBe(false);
      // The card of a call that never started still knows what it was.
      expect(t.completed()).toMatchObject({ kind: "edit", summary: c.args.path, durationMs: 0 });
      expect(readFileSync(join(t.ws, "a.txt"), "utf8")).toBe("one\nsame\nsame\n");
    });
  }

  it("asks about an edit that can be done, then makes it", async () => {
    let asked = 0;
    const t = setup(async () => {
      asked++;
      return { decision: "once" };
    });
    writeFileSync(join(t.ws, "a.txt"), "one\ntwo\n");
    const result = await t.call("edit_file", { path: "a.txt", old_string: "two", new_string: "2" });
    expect(asked).toBe(1);
    expect(result.status).toBe("ok");
    expect(readFileSync(join(t.ws, "a.txt"), "utf8")).toBe("one\n2\n");
    // A call that started has its arguments on tool.started: the completion does not repeat them.
    expect(t.completed().args).toBeUndefined();
  });

  it("still fails in run when the file changed while the question waited", async () => {
    let ws = "";
    const t = setup(async () => {
      writeFileSync(join(ws, "a.txt"), "changed meanwhile\n");
      return { decision: "once" };
    });
    ws = t.ws;
    writeFileSync(join(t.ws, "a.txt"), "one\ntwo\n");
    const result = await t.call("edit_file", { path: "a.txt", old_string: "two", new_string: "2" });
    expect(result.status).toBe("error");
    expect(result.forModel).toContain("old_string was not found");
    expect(readFileSync(join(t.ws, "a.txt"), "utf8")).toBe("changed meanwhile\n");
  });
});

describe("apply_patch pre-check", () => {
  it("a patch whose hunk is not in the file fails without asking; one that applies is asked about", async () => {
    let asked = 0;
    const t = setup(async () => {
      asked++;
      return { decision: "once" };
    });
    writeFileSync(join(t.ws, "a.txt"), "one\ntwo\n");
    const bad = await t.call("apply_patch", {
      patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-three\n+3\n*** End Patch",
    });
    expect(asked).toBe(0);
    expect(bad.status).toBe("error");
    expect(bad.forModel).toContain("No file was changed.");
    expect(t.events.some((e) => e.type === "tool.started")).toBe(false);
    const good = await t.call("apply_patch", {
      patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch",
    });
    expect(asked).toBe(1);
    expect(good.status).toBe("ok");
    expect(readFileSync(join(t.ws, "a.txt"), "utf8")).toBe("one\n2\n");
  });
});

describe("tool durations and calls that never ran", () => {
  it("leaves the time the question waited out of the duration, and reports it apart", async () => {
    const t = setup(async () => {
      // The person takes a second to answer: a duration that counted it would be longer than it.
      await new Promise((r) => setTimeout(r, 1_000));
      return { decision: "once" };
    });
    await t.call("run_command", { command: "true" });
    const done = t.completed();
    expect(done.status).toBe("ok");
    expect(done.waitedMs).toBeGreaterThanOrEqual(990);
    expect(done.durationMs).toBeLessThan(done.waitedMs!);
  });

  it("reports no wait when nobody was asked", async () => {
    const t = setup(async () => ({ decision: "once" }));
    await t.call("list_dir", {});
    expect(t.completed().waitedMs).toBeUndefined();
  });

  it("a denied command's completion carries the command", async () => {
    const t = setup(async () => ({ decision: "deny", reason: "the user said no" }));
    const result = await t.call("run_command", { command: "rm -rf build && make" });
    expect(result.status).toBe("denied");
    expect(t.events.some((e) => e.type === "tool.started")).toBe(false);
    expect(t.completed()).toMatchObject({
      status: "denied",
      kind: "exec",
      summary: "rm -rf build && make",
      durationMs: 0,
      args: { command: "rm -rf build && make" },
    });
  });
});

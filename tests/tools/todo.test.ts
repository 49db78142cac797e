// todo_write and todo_read: the plan in the session store, its report, its limits and rules.
import { describe, expect, it } from "vitest";
import { decide, newRemembered } from "../../src/sandbox/policy.js";
import { MAX_TODO_ITEMS, todoReadTool, todoWriteTool } from "../../src/tools/todo.js";
import { tempDir } from "../helpers/cli.js";
import { callTool, testSession } from "../helpers/tools.js";

function setup() {
  const s = testSession();
  const ws = tempDir();
  const call = (tool: Parameters<typeof callTool>[0], args: unknown) =>
    callTool(tool, args, ws, new AbortController().signal, { session: s.session });
  return { s, call };
}

const plan = [
  { content: "Read the parser", status: "completed" },
  { content: "Fix the off-by-one", status: "in_progress" },
  { content: "Add a regression test", status: "pending" },
] as const;

describe("todo_write and todo_read", () => {
  it("replaces the plan, reports it and reads it back with progress", async () => {
    const { s, call } = setup();
    expect((await call(todoReadTool, {})).forModel).toBe("there is no plan yet: write one with todo_write");
    const w = await call(todoWriteTool, { items: plan });
    expect(w.status).toBe("ok");
    expect(w.forModel).toBe(
      "plan updated: 1/3 done\n1. [x] Read the parser\n2. [>] Fix the off-by-one\n3. [ ] Add a regression test",
    );
    expect(w.display).toBe("1/3 done");
    expect(s.reports).toEqual([{ kind: "todo", items: plan }]);
    const r = await call(todoReadTool, {});
    expect(r.forModel).toBe(
      "1/3 done\n1. [x] Read the parser\n2. [>] Fix the off-by-one\n3. [ ] Add a regression test",
    );
    await call(todoWriteTool, { items: [{ content: "  Only step  ", status: "completed" }] });
    expect((await call(todoReadTool, {})).forModel).toBe("1/1 done\n1. [x] Only step");
    expect(s.reports.at(-1)).toEqual({ kind: "todo", items: [{ content: "Only step", status: "completed" }] });
    await call(todoWriteTool, { items: [] });
    expect((await call(todoReadTool, {})).forModel).toBe("there is no plan yet: write one with todo_write");
  });

  it("allows at most one item in progress", async () => {
    const { s, call } = setup();
    const r = await call(todoWriteTool, { items: [...plan, { content: "Another", status: "in_progress" }] });
    expect(r).toMatchObject({
      status: "error",
      forModel:
        "items 2, 4 are all in_progress: at most one item may be in_progress; mark the others pending or completed",
    });
    expect(s.reports).toEqual([]);
    expect(s.session.store.has("todo")).toBe(false);
  });

  it(`refuses more than ${MAX_TODO_ITEMS} items, unknown statuses and blank steps`, async () => {
    const { s, call } = setup();
    const many = Array.from({ length: MAX_TODO_ITEMS + 1 }, (_, i) => ({ content: `step ${i}`, status: "pending" }));
    const tooMany = await call(todoWriteTool, { items: many });
    expect(tooMany.status).toBe("error");
    expect(tooMany.forModel).toMatch(
      /^invalid arguments for todo_write: "items": Too big: expected array to have <=50 items/,
    );
    expect((await call(todoWriteTool, { items: many.slice(0, MAX_TODO_ITEMS) })).status).toBe("ok");
    const badStatus = await call(todoWriteTool, { items: [{ content: "x", status: "done" }] });
    expect(badStatus.forModel).toMatch(
      /^invalid arguments for todo_write: "items\.0\.status": Invalid option: expected one of "pending"\|"in_progress"\|"completed"/,
    );
    const blank = await call(todoWriteTool, {
      items: [
        { content: "a", status: "pending" },
        { content: "   ", status: "pending" },
      ],
    });
    expect(blank.forModel).toBe("item 2 has no content");
    expect((await call(todoWriteTool, { items: [{ content: "x".repeat(501), status: "pending" }] })).forModel).toMatch(
      /"items\.0\.content": Too big/,
    );
    expect(s.reports).toHaveLength(1);
  });

  it("needs a session, and is kind read so it needs no approval, not even in plan mode", async () => {
    const none = await callTool(todoWriteTool, { items: plan }, tempDir());
    expect(none.forModel).toBe("the plan needs a session and this run has none");
    const input = {
      tool: "todo_write",
      kind: todoWriteTool.kind,
      args: {},
      approval: "untrusted",
      remembered: newRemembered(),
    } as const;
    expect(decide({ ...input, mode: "plan" }).decision).toBe("allow");
  });
});

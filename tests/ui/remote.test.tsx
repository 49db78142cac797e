// Remote tasks in the UI: the title bar and task list mark them, /remote parses its arguments and
// reports a daemon that cannot be reached without adding anything.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../helpers/pty.js";
import { renderUi, snapshot, type Harness, until } from "./harness.js";
import { waitFor } from "../helpers/wait.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

describe.each([50, 80, 120])("a remote task at %i columns", (columns) => {
  it("shows ⇄ remote instead of the local sandbox and workspace", async () => {
    h = await renderUi(columns, 24);
    const local = (await h.lines())[0]!;
    if (columns >= 80) expect(local).toContain("unsandboxed");
    h.emit({
      type: "task.updated",
      taskId: "r1",
      task: snapshot({ title: "on the vps", location: "remote", status: "running" }),
    });
    h.ctl.selectTask("r1");
    const lines = await h.lines();
    expect(lines[0]).toContain("⇄ remote");
    expect(lines[0]).not.toContain("unsandboxed");
    expect(lines[0]).not.toContain("/work/demo");
    expect(lines.every((l) => [...l].length <= columns)).toBe(true);
    if (columns >= 80) expect(lines.join("\n")).toMatch(/on the vps\s+⇄/);
  });
});

describe("/remote", () => {
  it("passes the address, token file and session on, and opens the new task", async () => {
    const calls: unknown[] = [];
    h = await renderUi(100, 30, {
      addRemote: async (request) => {
        calls.push(request);
        h!.emit({ type: "task.updated", taskId: "rX", task: snapshot({ title: "remote one", location: "remote" }) });
        return "rX";
      },
    });
    h.keys("/remote http://127.0.0.1:8787 ~/.nh/token work\r");
    await waitFor(() => calls.length === 1, { what: "the first /remote asked to attach" });
    expect(calls).toEqual([
      { kind: "remote", address: "http://127.0.0.1:8787", tokenFile: "~/.nh/token", session: "work" },
    ]);
    const screen = (await h.lines()).join("\n");
    expect(h.store.getState().current).toBe("rX");
    expect(screen).toContain("remote task on http://127.0.0.1:8787");
    h.keys("/remote unix:/run/nh.sock -\r");
    await waitFor(() => calls.length === 2, { what: "the second /remote asked to attach" });
    expect(calls[1]).toEqual({ kind: "remote", address: "unix:/run/nh.sock", tokenFile: null, session: null });
  });

  it("explains its usage, and reports a daemon that does not answer", async () => {
    h = await renderUi(100, 30);
    h.keys("/remote\r");
    expect((await h.lines()).join("\n")).toContain("usage: /remote ADDRESS [TOKEN-FILE] [SESSION]");
    // The refused command stays in the input to be fixed: clear it first.
    h.keys("\x15/remote http://127.0.0.1:1\r");
    await until(h, (f) => f.includes("/remote: no daemon here"), 10_000);
    expect(Object.keys(h.store.getState().tasks)).toEqual(["t0"]);
  });
});

describe("a remote task's files", () => {
  it("are not diffed against this machine's files in the Changes tab", async () => {
    h = await renderUi(120, 30, { readFile: () => "LOCAL CONTENT" });
    h.emit({ type: "task.updated", taskId: "r1", task: snapshot({ title: "remote edit", location: "remote" }) });
    h.ctl.selectTask("r1");
    h.emit({ type: "turn.started", taskId: "r1", turnId: "u1", prompt: "edit it" });
    h.emit({
      type: "tool.started",
      taskId: "r1",
      callId: "c1",
      name: "edit_file",
      kind: "edit",
      args: { path: "src/a.ts" },
      summary: "src/a.ts",
    });
    h.emit({
      type: "tool.completed",
      taskId: "r1",
      callId: "c1",
      name: "edit_file",
      status: "ok",
      forModel: "edited",
      display: "edited",
      durationMs: 3,
    });
    h.ctl.setUi((ui) => ({ ...ui, resultsTab: "changes", diffPath: "src/a.ts" }));
    const screen = (await h.lines()).join("\n");
    // The note wraps in the side pane (26 columns inside at 120): read the pane's column as one text.
    const pane = screen
      .split("\n")
      .map((l) => l.slice(l.lastIndexOf("│") + 1).trim())
      .join(" ");
    expect(pane).toContain("this task runs on a daemon");
    expect(pane).toContain("the Turns tab shows each");
    expect(screen).not.toContain("LOCAL CONTENT");
  });
});

describe("a remote task's turn diffs", () => {
  it("are read on the daemon: Enter on a file asks for it and its content before the turn", async () => {
    const asked: string[] = [];
    h = await renderUi(120, 30, {
      readFile: () => "LOCAL CONTENT",
      remoteFile: async (taskId, turn, path) => {
        asked.push(`${taskId} ${turn} ${path}`);
        return { before: "alpha\nbeta\n", now: "alpha\nBETA remote\n" };
      },
    });
    h.emit({ type: "task.updated", taskId: "t0", task: snapshot({ title: "remote", location: "remote" }) });
    h.emit({ type: "turn.started", taskId: "t0", turnId: "u1", prompt: "change it" });
    h.emit({
      type: "turn.completed",
      taskId: "t0",
      turnId: "u1",
      reason: "completed",
      response: "ok",
      steps: 1,
      usage: { prompt: 1, completion: 1 },
    });
    h.emit({
      type: "checkpoints.updated",
      taskId: "t0",
      turns: [
        {
          turn: 1,
          prompt: "change it",
          changes: [{ path: "/srv/ws/notes.txt", before: "kept", after: "present", by: "edit_file" }],
        },
      ],
    });
    h.keys("\x12");
    h.keys(keys.right);
    await until(h, (f) => f.includes("[Turns 1]"));
    h.keys(`${keys.down}\r`);
    const frame = await until(h, (f) => f.includes("+ BETA remote"));
    expect(asked).toEqual(["t0 1 /srv/ws/notes.txt"]);
    expect(frame).toContain("- beta");
    expect(frame).not.toContain("LOCAL CONTENT");
  });
});

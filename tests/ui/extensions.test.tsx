// MCP, hooks and skills in the UI: the title bar's server count at 50, 80 and 120 columns, the
// /mcp and /skills dialogs, /mcp restart, and hook outcomes in the transcript.
import { afterEach, describe, expect, it } from "vitest";
import type { EventOf } from "../../src/protocol/events.js";
import { renderUi, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

type Server = EventOf<"mcp.updated">["servers"][number];
const server = (name: string, state: Server["state"], over: Partial<Server> = {}): Server => ({
  name,
  transport: "stdio",
  state,
  tools: state === "ready" ? 3 : 0,
  restarts: 0,
  ...over,
});
const mcp = (servers: Server[]) => h!.emit({ type: "mcp.updated", taskId: "", servers });

describe.each([50, 80, 120])("the title bar at %i columns", (columns) => {
  it("counts ready servers, marks connecting ones, and keeps a failure visible even when narrow", async () => {
    h = await renderUi(columns, 24);
    expect((await h.lines())[0]).not.toContain("mcp");
    mcp([server("gh", "ready"), server("fs", "connecting")]);
    const connecting = (await h.lines())[0]!;
    if (columns >= 80) expect(connecting).toContain("mcp 1/2…");
    mcp([server("gh", "ready"), server("fs", "failed", { error: "cannot start x" })]);
    const failed = (await h.lines())[0]!;
    expect(failed).toContain("mcp 1/2 failed");
    expect([...failed].length).toBeLessThanOrEqual(columns);
    mcp([server("gh", "ready"), server("fs", "ready")]);
    if (columns >= 80) expect((await h.lines())[0]).toContain("mcp 2/2");
  });
});

describe("/mcp and /skills", () => {
  it("/mcp lists every server with its state, error and log file", async () => {
    h = await renderUi(100, 30);
    mcp([
      server("gh", "ready", { restarts: 2, logFile: "/home/u/.nanohermes/logs/mcp-gh.log" }),
      server("web", "restarting", { transport: "http", error: "the server closed the connection; retrying in 2 s" }),
    ]);
    h.keys("/mcp\r");
    const screen = (await h.lines()).join("\n");
    expect(screen).toContain("MCP servers");
    expect(screen).toContain("gh  ready  stdio  3 tools  restarted 2x");
    expect(screen).toContain("log: /home/u/.nanohermes/logs/mcp-gh.log");
    expect(screen).toContain("web  restarting  http  0 tools");
    expect(screen).toContain("the server closed the connection; retrying in 2 s");
  });

  it("/mcp says how to add servers when there are none", async () => {
    h = await renderUi(100, 30);
    h.keys("/mcp\r");
    expect((await h.lines()).join("\n")).toContain("No MCP servers are configured.");
  });

  it("/mcp restart sends the command, for one server or all", async () => {
    h = await renderUi(100, 30);
    h.keys("/mcp restart gh\r");
    h.keys("/mcp restart\r");
    expect(h.sent.filter((c) => c.type === "mcp.restart")).toEqual([
      { type: "mcp.restart", taskId: "t0", server: "gh" },
      { type: "mcp.restart", taskId: "t0" },
    ]);
  });

  it("/skills lists names, descriptions and where each skill lives", async () => {
    h = await renderUi(100, 30);
    h.keys("/skills\r");
    const screen = (await h.lines()).join("\n");
    expect(screen).toContain("Skills");
    expect(screen).toContain("release: cut a release");
    expect(screen).toContain("/ws/.nanohermes/skills/release/SKILL.md");
  });
});

describe("hooks in the transcript", () => {
  it("shows a blocking PreToolUse hook and a PostToolUse warning, not the hooks that passed", async () => {
    h = await renderUi(100, 30);
    const hook = { taskId: "t0", callId: "c1", tool: "run_command", durationMs: 12 } as const;
    h.emit({
      type: "hook.completed",
      ...hook,
      event: "PreToolUse",
      command: "./check.sh",
      exitCode: 0,
      outcome: "passed",
      output: "",
    });
    h.emit({
      type: "hook.completed",
      ...hook,
      event: "PreToolUse",
      command: "./guard.sh",
      exitCode: 2,
      outcome: "blocked",
      output: "no commands on Fridays",
    });
    h.emit({
      type: "hook.completed",
      ...hook,
      callId: "c2",
      tool: "write_file",
      event: "PostToolUse",
      command: "./lint.sh",
      exitCode: -2,
      outcome: "warned",
      output: "",
    });
    const screen = (await h.lines()).join("\n");
    expect(screen).not.toContain("./check.sh");
    // A notice wraps between words: "Fridays" moves to the next line whole.
    expect(screen).toContain("✗ PreToolUse hook blocked run_command (exit 2): ./guard.sh — no commands on\n");
    expect(screen).toMatch(/^ +│  Fridays/m);
    expect(screen).toContain("PostToolUse hook warned about write_file (timed out): ./lint.sh");
  });
});

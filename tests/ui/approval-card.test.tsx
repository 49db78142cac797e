// The approval card as the user sees it: a dangerous command's red card (heading, the rule's reason
// once, the matched part highlighted, no workspace-wide "always"), and an ordinary card that says
// what "always" will allow before the user chooses. Screens captured at 120x40 and 50x20.
import { afterEach, describe, expect, it } from "vitest";
import type { BusEvent } from "../../src/protocol/events.js";
import type { Block } from "../../src/ui/state/transcript.js";
import { makePalette } from "../../src/ui/theme/palette.js";
import { builtinTheme } from "../../src/ui/theme/load.js";
import { approvalLines } from "../../src/ui/view/cards.js";
import { renderUi, snapshot, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const ev = { taskId: "t0" };
const widest = (lines: string[]) => Math.max(...lines.map((l) => [...l].length));
const normalise = (frame: string) => frame.replace(/ · \d+s( · |$)/gm, " · Ns$1");

const dangerous: BusEvent = {
  type: "approval.requested",
  ...ev,
  requestId: "r1",
  callId: "c1",
  tool: "run_command",
  kind: "exec",
  title: "Run: cd site && rm -rf /var/www",
  detail: "cd site && rm -rf /var/www",
  reason: "recursive delete outside the workspace and the temp directory",
  rule: "recursive-delete",
  dangerous: true,
  match: "rm -rf /var/www",
  always: "exactly this command",
  alwaysWorkspace: false,
};

const ordinary: BusEvent = {
  type: "approval.requested",
  ...ev,
  requestId: "r2",
  callId: "c2",
  tool: "run_command",
  kind: "exec",
  title: "Run: npm run build",
  detail: "npm run build",
  reason: "on-request policy: not a recognised read-only command (npm is not a read-only program)",
  rule: "approval:on-request",
  always: 'commands starting with "npm run build"',
  alwaysWorkspace: true,
};

async function showing(columns: number, rows: number, event: BusEvent): Promise<string[]> {
  h = await renderUi(columns, rows);
  h.emit({ type: "task.updated", ...ev, task: snapshot({ status: "waiting", pendingApprovals: 1 }) });
  h.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "clean up" });
  h.emit(event);
  const lines = await h.lines();
  h.later(); // the card has been read: keys answer it (controller/approval-guard.ts)
  return lines;
}

describe.each([
  [120, 40],
  [50, 20],
])("at %ix%i", (columns, rows) => {
  it("gives a dangerous command its own card: Dangerous, the rule once, the reason, no workspace always", async () => {
    const lines = await showing(columns, rows, dangerous);
    expect(lines).toHaveLength(rows - 1);
    expect(widest(lines)).toBeLessThanOrEqual(columns);
    const frame = lines.join("\n");
    expect(frame).toContain("⚠ Dangerous");
    expect(frame).not.toContain("Approval needed");
    expect(frame.match(/recursive-delete/g)).toHaveLength(1);
    expect(frame).toContain("recursive delete outside");
    expect(frame).not.toContain("why:");
    // The part of the compound command that matched is named in words too (no colour here).
    expect(frame).toContain("matched: rm -rf /var/www");
    expect(frame).toContain("exactly this");
    expect(frame).not.toContain("workspace ·");
    expect(frame).not.toMatch(/A the same/);
    expect(normalise(frame)).toMatchSnapshot();
  });

  it("says before the choice what an ordinary 'always' allows", async () => {
    const lines = await showing(columns, rows, ordinary);
    expect(widest(lines)).toBeLessThanOrEqual(columns);
    const frame = lines.join("\n");
    expect(frame).toContain("Approval needed");
    expect(frame.replace(/[│\s]+/g, " ")).toContain(
      'a always allow commands starting with "npm run build" in this task',
    );
    expect(frame).toContain("A the same in this workspace");
    expect(normalise(frame)).toMatchSnapshot();
  });
});

describe("answers", () => {
  it("never sends a workspace-wide always for a dangerous command; a sends always for the task", async () => {
    await showing(120, 40, dangerous);
    h!.keys("A");
    expect(h!.sent.filter((c) => c.type === "approval.reply")).toHaveLength(0);
    expect(await h!.frame()).toContain("can only be allowed for this task");
    h!.keys("a");
    expect(h!.sent.at(-1)).toEqual({ type: "approval.reply", taskId: "t0", requestId: "r1", decision: "always" });
  });

  it("sends always for the workspace on A for an ordinary command", async () => {
    await showing(120, 40, ordinary);
    h!.keys("A");
    expect(h!.sent.at(-1)).toEqual({
      type: "approval.reply",
      taskId: "t0",
      requestId: "r2",
      decision: "always",
      scope: "workspace",
    });
  });
});

describe("colours", () => {
  const block = (over: Partial<Extract<Block, { kind: "approval" }>>): Extract<Block, { kind: "approval" }> => ({
    kind: "approval",
    id: "b1",
    requestId: "r1",
    tool: "run_command",
    toolKind: "exec",
    title: "Run: cd site && rm -rf /var/www",
    detail: "cd site && rm -rf /var/www",
    reason: "recursive delete outside the workspace",
    resolved: null,
    rule: "recursive-delete",
    dangerous: true,
    match: "rm -rf /var/www",
    always: "exactly this command",
    alwaysWorkspace: false,
    ...over,
  });
  const p = makePalette(builtinTheme("dark"), 4);
  const ctx = { p, width: 60, now: 0, focused: false, ascii: false };

  it("paints a dangerous card red, its reason in full colour and the match in reverse video", () => {
    const lines = approvalLines(block({}), ctx);
    expect(lines[0]).toContain("\x1b[31m");
    const reasonLine = lines.find((l) => l.includes("recursive delete outside"))!;
    expect(reasonLine).toContain("\x1b[1m");
    expect(reasonLine).not.toContain("\x1b[2m");
    const commandLine = lines.find((l) => l.includes("cd site") && !l.includes("Run:"))!;
    expect(commandLine).toMatch(/\x1b\[7m[^\n]*rm -rf \/var\/www/);
  });

  it("keeps an ordinary card yellow with a dim reason", () => {
    const lines = approvalLines(
      block({
        dangerous: false,
        rule: "approval:on-request",
        match: null,
        reason: "on-request policy",
        always: 'commands starting with "npm run build"',
        alwaysWorkspace: true,
      }),
      ctx,
    );
    expect(lines[0]).toContain("\x1b[33m");
    expect(lines.find((l) => l.includes("why: on-request policy"))).toContain("\x1b[2m");
  });
});

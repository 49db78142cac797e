// The engine's one gate (src/agent/gate.ts): what it decides with and without someone to ask,
// --allow in the words of "always" rules, and that nothing runs past it: the registry refuses a
// decision the gate did not seal, and no module but the engine's builds agents or runs tools.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { allowRules, type Answer, type Question } from "../../src/agent/gate.js";
import type { BusEvent } from "../../src/protocol/events.js";
import { newRemembered } from "../../src/sandbox/policy.js";
import { listDirTool } from "../../src/tools/list-dir.js";
import { ToolRegistry, type GateDecision } from "../../src/tools/registry.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { tempDir } from "../helpers/cli.js";
import { testGate, type TestGateOptions } from "../helpers/gate.js";

function setup(opts: TestGateOptions) {
  const ws = tempDir();
  const events: BusEvent[] = [];
  const questions: Question[] = [];
  const answer = opts.answer;
  const gate = testGate({
    workspace: ws,
    emit: (e) => events.push(e),
    ...opts,
    ...(answer
      ? {
          answer: (q: Question) => {
            questions.push(q);
            return answer(q);
          },
        }
      : {}),
  });
  const registry = new ToolRegistry([runCommandTool, writeFileTool, listDirTool]);
  const call = (name: string, args: object) =>
    registry.execute(
      { id: "c", name, arguments: JSON.stringify(args) },
      { workspace: ws, taskId: "t", signal: new AbortController().signal, emit: (e) => events.push(e), gate },
    );
  return { ws, events, questions, call, gate };
}

describe("the gate with nobody to ask", () => {
  it("refuses what would ask, with the flag that allows it, and tells the user as a warning", async () => {
    const t = setup({ approval: "untrusted" });
    const r = await t.call("run_command", { command: "npm test -- --watch=false" });
    expect(r.status).toBe("denied");
    expect(r.forModel).toBe(
      "not run: this call needs approval (untrusted policy: every command needs approval) and nobody can answer here. To allow it, rerun with --allow 'npm test' or --approval never",
    );
    expect(t.events).toContainEqual(
      expect.objectContaining({ type: "notice", level: "warn", text: `run_command: ${r.forModel}` }),
    );
    const edit = await t.call("write_file", { path: "a.txt", content: "x" });
    expect(edit.forModel).toMatch(/To allow it, rerun with --allow edits, --mode accept-edits or --approval never$/);
    expect(existsSync(join(t.ws, "a.txt"))).toBe(false);
  });

  it("names --yolo and the exact command for a dangerous one", async () => {
    const t = setup({ approval: "never", yolo: false });
    const r = await t.call("run_command", { command: "git push --force origin main" });
    expect(r.forModel).toMatch(
      /needs approval \(dangerous: .*\) and nobody can answer here\. To allow it, rerun with --yolo, or --allow 'command:git push --force origin main' for exactly this command$/,
    );
  });

  it("lets --allow patterns through in the words of always rules, a dangerous one only exactly", async () => {
    const t = setup({ approval: "untrusted", allow: ["true", "command:git push --force origin main", "edits"] });
    expect((await t.call("run_command", { command: "true --x" })).status).toBe("ok");
    expect((await t.call("run_command", { command: "false" })).status).toBe("denied");
    expect((await t.call("write_file", { path: "b.txt", content: "x" })).status).toBe("ok");
    // An exact allow is consent to that very dangerous command, not to its variants.
    const other = await t.call("run_command", { command: "git push --force origin dev" });
    expect(other.forModel).toMatch(/dangerous/);
  });

  it("reads allow patterns as edits, tool:, command:, prefix: or a bare prefix that also allows itself", () => {
    const rules = allowRules(["edits", "tool:mcp__x__y", "command:rm -rf build", "prefix:npm run", "make test"]);
    expect(rules.allEdits).toBe(true);
    expect([...rules.tools]).toEqual(["mcp__x__y"]);
    expect([...rules.commands]).toEqual(["rm -rf build", "make test"]);
    expect([...rules.prefixes]).toEqual(["npm run", "make test"]);
  });
});

describe("the gate with someone to ask", () => {
  it("asks with the card's text, runs on yes and refuses on no, with the person's reason", async () => {
    let next: Answer = { decision: "once" };
    const t = setup({ approval: "untrusted", answer: () => next });
    expect((await t.call("run_command", { command: "touch a.txt" })).status).toBe("ok");
    expect(t.questions[0]).toMatchObject({ tool: "run_command", title: "Run: touch a.txt", detail: "touch a.txt" });
    next = { decision: "deny", reason: "the user denied this call: not now" };
    const no = await t.call("run_command", { command: "touch b.txt" });
    expect(no.forModel).toBe("the user denied this call: not now");
    expect(existsSync(join(t.ws, "b.txt"))).toBe(false);
    // A person was there to see the card: no extra warning for what they answered.
    expect(t.events.some((e) => e.type === "notice")).toBe(false);
  });

  it("never asks about a blocked command, even with someone there", async () => {
    const t = setup({ approval: "untrusted", yolo: true, answer: () => ({ decision: "once" }) });
    const r = await t.call("run_command", { command: "rm -rf /" });
    expect(r.status).toBe("denied");
    expect(t.questions).toEqual([]);
  });

  it("keeps an always answer for the task, and a dangerous one only exactly", async () => {
    const t = setup({ approval: "untrusted", answer: () => ({ decision: "always", scope: "workspace" }) });
    await t.call("run_command", { command: "true lint" });
    expect(t.questions).toHaveLength(1);
    await t.call("run_command", { command: "true lint --fix" });
    expect(t.questions).toHaveLength(1);
    await t.call("run_command", { command: "git push --force origin main" });
    expect(t.questions).toHaveLength(2);
    expect(t.questions[1]).toMatchObject({ dangerous: true, alwaysWorkspace: false });
  });

  it("refuses when the one to ask is not there now (a daemon client detached)", async () => {
    const ws = tempDir();
    let present = false;
    const gate = testGate({ approval: "untrusted", workspace: ws, answer: () => ({ decision: "once" }) });
    // testGate's asker is always there; a daemon's comes and goes.
    (gate as unknown as { opts: { asker: { present(): boolean } } }).opts.asker.present = () => present;
    const registry = new ToolRegistry([runCommandTool]);
    const env = { workspace: ws, taskId: "t", signal: new AbortController().signal, emit: () => {}, gate };
    const call = { id: "c", name: "run_command", arguments: JSON.stringify({ command: "true" }) };
    expect((await registry.execute(call, env)).forModel).toMatch(/nobody can answer here/);
    present = true;
    expect((await registry.execute(call, env)).status).toBe("ok");
  });
});

describe("a command that asks for the network (issue 26.6)", () => {
  const closed = { mode: "workspace-write" as const, network: false };
  const net = { command: "echo fetched", network: true };

  it("with nobody to ask is refused under never, naming --network on", async () => {
    const t = setup({ approval: "never", sandbox: closed });
    const r = await t.call("run_command", net);
    expect(r.status).toBe("denied");
    expect(r.forModel).toBe(
      "not run: the command asks for the network (network: true), which commands do not have unless you allow it, and nobody can answer here. To allow it, rerun with --network on",
    );
    expect(t.events).toContainEqual(expect.objectContaining({ type: "notice", level: "warn" }));
    // Without the ask, the same command runs (the sandbox keeps the network closed).
    expect((await t.call("run_command", { command: "echo fetched" })).status).toBe("ok");
  });

  it("asks under every policy, even for a read-only command; always is the network for the task, never the workspace", async () => {
    for (const approval of ["never", "on-request", "untrusted"] as const) {
      const t = setup({ approval, sandbox: closed, answer: () => ({ decision: "always", scope: "workspace" }) });
      const first = await t.call("run_command", { command: "ls", network: true });
      expect(first.status).toBe("ok");
      expect(t.questions).toHaveLength(1);
      expect(t.questions[0]).toMatchObject({
        reason: expect.stringContaining("asks for the network"),
        always: "the network for commands that ask for it",
        alwaysWorkspace: false,
      });
      expect(t.events).toContainEqual(
        expect.objectContaining({ text: "allowed from now on in this task: the network for commands that ask for it" }),
      );
      // The answer holds for the task: the next call that asks for the network runs without a card.
      expect((await t.call("run_command", net)).status).toBe("ok");
      expect(t.questions).toHaveLength(approval === "untrusted" ? 2 : 1);
    }
  });

  it("runs without asking under --yolo, with the network already on, or with the sandbox off", async () => {
    for (const opts of [
      { yolo: true, approval: "never" as const, sandbox: closed },
      { approval: "never" as const, sandbox: { mode: "workspace-write" as const, network: true } },
      { approval: "never" as const, sandbox: { mode: "off" as const, network: false } },
    ]) {
      const t = setup(opts);
      expect((await t.call("run_command", net)).status).toBe("ok");
    }
  });

  it("a denied card refuses it", async () => {
    const t = setup({ approval: "never", sandbox: closed, answer: () => ({ decision: "deny", reason: "no" }) });
    expect((await t.call("run_command", net)).status).toBe("denied");
  });
});

describe("nothing runs past the gate", () => {
  it("the registry refuses a decision the gate did not seal, however it is shaped", async () => {
    const ws = tempDir();
    const registry = new ToolRegistry([runCommandTool]);
    const forged = { authorize: async () => ({ allow: true }) as unknown as GateDecision };
    const events: BusEvent[] = [];
    const r = await registry.execute(
      { id: "c", name: "run_command", arguments: JSON.stringify({ command: "touch forged.txt" }) },
      { workspace: ws, taskId: "t", signal: new AbortController().signal, emit: (e) => events.push(e), gate: forged },
    );
    expect(r.status).toBe("denied");
    expect(r.forModel).toBe("refused: this call was not decided by the approval gate");
    expect(existsSync(join(ws, "forged.txt"))).toBe(false);
    expect(events.some((e) => e.type === "tool.started")).toBe(false);
  });

  it("a sealed decision cannot be changed into an allow", async () => {
    const gate = testGate({ approval: "never" });
    const decision = await gate.authorize(runCommandTool, { command: "rm -rf /" }, { id: "c" });
    expect(decision.allow).toBe(false);
    expect(() => Object.assign(decision, { allow: true })).toThrow();
  });

  it("only the engine builds agents and runs tools, so a new front end cannot skip the gate", () => {
    const src = resolve(import.meta.dirname, "../../src");
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
      );
    const uses = (pattern: RegExp) =>
      files(src)
        .filter((f) => pattern.test(readFileSync(f, "utf8")))
        .map((f) => relative(src, f))
        .sort();
    // Agents are built in one place, which always gives them the gate; tools run from the agent's
    // step and `!` turn, and from `nanohermes tool`, which builds its own gate.
    expect(uses(/new Agent\(/)).toEqual(["agent/engine.ts"]);
    expect(uses(/\.execute\(\s*\{|tools\.execute\(|registry\.execute\(/)).toEqual([
      "agent/agent-step.ts",
      "agent/shell-turn.ts",
      "oneshot/tool-run.ts",
    ]);
    expect(uses(/new Gate\(\{/)).toEqual(["agent/engine.ts", "oneshot/tool-run.ts"]);
    const engine = readFileSync(join(src, "agent/engine.ts"), "utf8");
    expect(engine.match(/new Agent\(\{/g)).toHaveLength(2);
    expect(engine.match(/^\s+gate[,:]/gm)).toHaveLength(2);
    // The gate's state defaults to nobody-to-ask's policy, never to "no policy".
    expect(engine).toMatch(/state: options\.gateState \?\? gateState\(settings, UNATTENDED_APPROVAL\)/);
    expect(newRemembered().allEdits).toBe(false);
  });
});

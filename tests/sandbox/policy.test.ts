// decide(): the order blocklist -> deny rules -> mode gates -> dangerous -> "always" -> approval
// policy, the rule and part each verdict names, and what an "always" answer remembers.
import { describe, expect, it } from "vitest";
import type { ApprovalPolicy, PermissionMode, ToolKind } from "../../src/protocol/events.js";
import {
  alwaysRuleFor,
  coveredByRemembered,
  decide,
  describeAlways,
  newRemembered,
  rememberAlways,
  suggestPrefix,
  type PolicyInput,
  type Remembered,
} from "../../src/sandbox/policy.js";

function run(command: string, over: Partial<PolicyInput> = {}) {
  return decide({
    tool: "run_command",
    kind: "exec",
    args: { command },
    approval: "on-request",
    mode: "default",
    remembered: newRemembered(),
    ...over,
  });
}
const edit = (over: Partial<PolicyInput> = {}) =>
  decide({
    tool: "write_file",
    kind: "edit",
    args: { path: "a", content: "x" },
    approval: "on-request",
    mode: "default",
    remembered: newRemembered(),
    ...over,
  });

const everyMode: PermissionMode[] = ["default", "accept-edits", "plan", "goal", "debug"];
const everyPolicy: ApprovalPolicy[] = ["never", "on-request", "untrusted"];

describe("decide: order", () => {
  it("refuses the blocklist in every mode and policy, yolo included, naming the rule", () => {
    for (const mode of everyMode) {
      for (const approval of everyPolicy) {
        const v = run("rm -rf /", { mode, approval, yolo: true });
        expect(v).toMatchObject({ decision: "deny", rule: "delete-root", danger: "blocked" });
        expect(v.reason).toMatch(/^refused in every mode: .*\(rule delete-root\)$/);
      }
    }
  });

  it("the blocklist comes before the user's deny rules", () => {
    expect(run("rm -rf /", { deny: ["rm *"] }).rule).toBe("delete-root");
  });

  it("a deny rule refuses even under --yolo, and names the rule and the part", () => {
    const v = run("npm test && git pu''sh --force", { yolo: true, approval: "never", deny: ["git push --force*"] });
    expect(v).toEqual({
      decision: "deny",
      rule: "git push --force*",
      part: "git pu''sh --force",
      reason: "matches your deny rule `git push --force*` (rule git push --force*, in `git pu''sh --force`)",
    });
  });

  it("deny rules come before mode gates", () => {
    expect(run("make", { mode: "plan", deny: ["make"] }).rule).toBe("make");
  });

  it("mode gates come before dangerous commands and the policy", () => {
    expect(run("rm -rf ~/x", { mode: "plan", approval: "never" })).toMatchObject({
      decision: "deny",
      rule: "mode:plan",
      reason: expect.stringMatching(/plan mode is read-only/),
    });
    expect(edit({ mode: "plan" })).toMatchObject({ decision: "deny", rule: "mode:plan" });
    expect(edit({ mode: "debug", approval: "never" })).toMatchObject({ decision: "deny", rule: "mode:debug" });
    expect(run("make", { mode: "debug", approval: "never" }).decision).toBe("allow");
  });

  it("dangerous commands ask even under never and in goal mode; only --yolo skips them", () => {
    for (const mode of ["default", "goal", "debug", "accept-edits"] as const) {
      expect(run("rm -rf ~/x", { mode, approval: "never" })).toMatchObject({
        decision: "ask",
        rule: "recursive-delete",
        danger: "dangerous",
      });
    }
    expect(run("rm -rf ~/x", { approval: "never", yolo: true }).decision).toBe("allow");
  });

  it("names the dangerous part of a compound command", () => {
    const v = run("npm run build && curl -s x | bash && echo ok", { approval: "never" });
    expect(v).toMatchObject({ decision: "ask", rule: "pipe-to-shell", part: "curl -s x | bash" });
    expect(v.reason).toMatch(/^dangerous: .*\(rule pipe-to-shell, in `curl -s x \| bash`\)$/);
  });

  it("goal mode asks nothing else", () => {
    expect(run("make install", { mode: "goal", approval: "untrusted" }).decision).toBe("allow");
    expect(edit({ mode: "goal", approval: "untrusted" }).decision).toBe("allow");
  });
});

describe("decide: remembered rules", () => {
  const remembered = (commands: string[], prefixes: string[]): Remembered => ({
    commands: new Set(commands),
    prefixes: new Set(prefixes),
    allEdits: false,
    tools: new Set(),
  });

  it("an exact command or a prefix accepted 'always' runs without asking", () => {
    expect(run("make deploy", { remembered: remembered(["make deploy"], []) })).toMatchObject({
      decision: "allow",
      reason: "allowed always for this task",
    });
    expect(run("npm run test -- --watch=false", { remembered: remembered([], ["npm run test"]) }).decision).toBe(
      "allow",
    );
    expect(run("npm run test 2>&1 | tail -5", { remembered: remembered([], ["npm run test"]) }).decision).toBe("allow");
  });

  it("a prefix covers whole words only, and never a part it does not name", () => {
    const r = remembered([], ["npm run test"]);
    for (const command of [
      "npm run testevil",
      "npm run test && rm x",
      "npm run test > out.txt",
      "npm run test $(rm x)",
      "FOO=1 npm run test",
      "npm run test && ls | sh",
    ]) {
      expect(run(command, { remembered: r }).decision, command).toBe("ask");
    }
    expect(coveredByRemembered("npm run test && ls", r, "untrusted")).toBe(false);
    expect(coveredByRemembered("npm run test && ls", r, "on-request")).toBe(true);
  });

  it("a prefix never covers a dangerous command; the exact dangerous command does", () => {
    expect(run("git push --force", { approval: "never", remembered: remembered([], ["git push"]) }).decision).toBe(
      "ask",
    );
    expect(
      run("git push --force", { approval: "never", remembered: remembered(["git push --force"], []) }).decision,
    ).toBe("allow");
  });

  it.each([
    ["npm run test -- x", "npm run test"],
    ["npm test", "npm test"],
    ["cargo test --release", "cargo test"],
    ["git commit -m 'x'", "git commit"],
    ["npx tsc -p .", "npx tsc"],
    ["make build", "make build"],
    ["pnpm run lint:fix", "pnpm run lint:fix"],
    ["make", null],
    ["make -j4", null],
    ["pytest tests/x.py", null],
    ["rm build", null],
    ["bash build.sh", null],
    ["python3 -m pytest", null],
    ["npm install left-pad", null],
    ["pip install x", null],
    ["npm test && make", null],
    ["npm test > out", null],
    ["./run.sh test", null],
    ["FOO=1 npm test", null],
    ["curl https://x", null],
    // issue 15: git subcommands whose arguments decide how much they destroy, and dangerous commands, stay exact.
    ["git reset --hard", null],
    ["git reset HEAD file.txt", null],
    ["git push origin main", null],
    ["git checkout main", null],
    ["git clean -n", null],
    ["git add -A", "git add"],
    ["git fetch --all", "git fetch"],
    ["make clean && rm -rf /var/www", null],
  ])("'always' on %j remembers the prefix %j", (command, prefix) => {
    expect(suggestPrefix(command)).toBe(prefix);
  });

  it("rememberAlways stores a prefix, an exact command, or all edits", () => {
    const r = newRemembered();
    expect(rememberAlways(r, "exec", "npm run test -- x")).toBe('commands starting with "npm run test"');
    expect(rememberAlways(r, "exec", "rm -f x")).toBe("exactly `rm -f x`");
    expect(rememberAlways(r, "edit", undefined)).toBe("all file edits");
    expect(rememberAlways(r, "mcp", undefined, "mcp__gh__create_issue")).toBe("the tool mcp__gh__create_issue");
    expect(r).toEqual({
      prefixes: new Set(["npm run test"]),
      commands: new Set(["rm -f x"]),
      allEdits: true,
      tools: new Set(["mcp__gh__create_issue"]),
    });
  });

  it("describeAlways says before the choice exactly what 'always' will allow", () => {
    expect(describeAlways(alwaysRuleFor("exec", "npm run build -- --watch"))).toBe(
      'commands starting with "npm run build"',
    );
    expect(describeAlways(alwaysRuleFor("exec", "git reset --hard"))).toBe("exactly this command");
    expect(describeAlways(alwaysRuleFor("exec", "rm -rf ~/x"))).toBe("exactly this command");
    expect(describeAlways(alwaysRuleFor("edit", undefined))).toBe("all file edits");
    expect(describeAlways(alwaysRuleFor("mcp", undefined, "mcp__x__y"))).toBe("the tool mcp__x__y");
  });

  it("issue 15: 'always' on git reset --hard covers that command only, never a worse one", () => {
    const remembered = newRemembered();
    rememberAlways(remembered, "exec", "git reset --hard");
    expect(run("git reset --hard", { remembered, approval: "never" })).toMatchObject({
      decision: "allow",
      reason: "allowed always for this task",
    });
    expect(run("git reset --hard origin", { remembered, approval: "never" })).toMatchObject({
      decision: "ask",
      danger: "dangerous",
    });
    expect(run("git reset HEAD~3", { remembered })).toMatchObject({ decision: "ask" });
    expect(remembered.prefixes.size).toBe(0);
  });

  it("issue 15: after 'always' the very command approved is never asked about again", () => {
    for (const [command, approval] of [
      ["rm -rf ~/old-project", "never"],
      ["npm run build 2>&1 | tail -5", "untrusted"],
      ["npm test && git push --force-with-lease", "on-request"],
      ["git push origin main", "untrusted"],
      ["make build", "untrusted"],
    ] as const) {
      const remembered = newRemembered();
      expect(run(command, { remembered, approval }).decision, command).toBe("ask");
      rememberAlways(remembered, "exec", command);
      expect(run(command, { remembered, approval }).decision, command).toBe("allow");
    }
  });

  it("issue 15: a prefix never covers a dangerous command that starts with it", () => {
    const remembered = newRemembered();
    rememberAlways(remembered, "exec", "npm run clean");
    expect(run("npm run clean", { remembered, approval: "untrusted" }).decision).toBe("allow");
    expect(run("npm run clean -- --all", { remembered, approval: "untrusted" }).decision).toBe("allow");
    expect(run("npm run clean && rm -rf ~/x", { remembered }).decision).toBe("ask");
  });
});

describe("what 'always' allows", () => {
  it("is said in words before the user chooses", () => {
    expect(describeAlways(alwaysRuleFor("exec", "npm run build -- --prod"))).toBe(
      'commands starting with "npm run build"',
    );
    expect(describeAlways(alwaysRuleFor("exec", "make deploy && make clean"))).toBe("exactly this command");
    expect(describeAlways(alwaysRuleFor("edit", undefined))).toBe("all file edits");
    expect(describeAlways(alwaysRuleFor("mcp", undefined, "mcp__gh__x"))).toBe("the tool mcp__gh__x");
  });

  it("remembers a dangerous command exactly, so a prefix never covers a more destructive one", () => {
    expect(alwaysRuleFor("exec", "git reset --hard", undefined, true)).toEqual({
      kind: "command",
      command: "git reset --hard",
    });
    const r = newRemembered();
    expect(rememberAlways(r, "exec", "git reset --hard")).toBe("exactly `git reset --hard`");
    expect(r.prefixes.size).toBe(0);
    const ask = (command: string) =>
      decide({
        tool: "run_command",
        kind: "exec",
        args: { command },
        approval: "on-request",
        mode: "default",
        remembered: r,
      }).decision;
    // What was approved runs; what it did not approve asks again.
    expect(ask("git reset --hard")).toBe("allow");
    expect(ask("git reset --hard origin")).toBe("ask");
    expect(ask("git reset HEAD~3")).toBe("ask");
  });
});

describe("decide: MCP tools", () => {
  const mcp = (over: Partial<Parameters<typeof decide>[0]> = {}, hints = { readOnly: false, trusted: false }) =>
    decide({
      tool: "mcp__gh__create_issue",
      kind: "mcp",
      args: {},
      approval: "on-request",
      mode: "default",
      remembered: newRemembered(),
      mcp: hints,
      ...over,
    });

  it("asks about tools that may change things, runs read-only and trusted ones", () => {
    expect(mcp()).toMatchObject({ decision: "ask", rule: "approval:on-request" });
    expect(mcp({}, { readOnly: true, trusted: false })).toMatchObject({
      decision: "allow",
      rule: "approval:on-request",
    });
    expect(mcp({}, { readOnly: false, trusted: true }).decision).toBe("allow");
    expect(mcp({ approval: "untrusted" }, { readOnly: true, trusted: false }).decision).toBe("ask");
    expect(mcp({ approval: "untrusted" }, { readOnly: false, trusted: true }).decision).toBe("allow");
    expect(mcp({ approval: "never" }).decision).toBe("allow");
    expect(mcp({ yolo: true }).decision).toBe("allow");
  });

  it("plan mode runs only read-only MCP tools; goal mode runs all; always covers the tool", () => {
    expect(mcp({ mode: "plan" })).toMatchObject({ decision: "deny", rule: "mode:plan" });
    expect(mcp({ mode: "plan", yolo: true }).decision).toBe("deny");
    expect(mcp({ mode: "plan" }, { readOnly: true, trusted: false }).decision).toBe("allow");
    expect(mcp({ mode: "goal" }).decision).toBe("allow");
    const remembered = newRemembered();
    rememberAlways(remembered, "mcp", undefined, "mcp__gh__create_issue");
    expect(mcp({ remembered })).toMatchObject({ decision: "allow", reason: "allowed always for this task" });
    expect(mcp({ remembered, tool: "mcp__gh__delete_repo" }).decision).toBe("ask");
  });
});

describe("decide: approval policy", () => {
  it("never allows; on-request allows read-only commands only; untrusted asks for everything", () => {
    expect(run("make", { approval: "never" })).toMatchObject({ decision: "allow", rule: "approval:never" });
    expect(run("git status")).toMatchObject({ decision: "allow", rule: "approval:on-request" });
    expect(run("make")).toMatchObject({
      decision: "ask",
      rule: "approval:on-request",
      reason: expect.stringMatching(/not a recognised read-only command \(`make` is not/),
    });
    expect(run("git status", { approval: "untrusted" })).toMatchObject({
      decision: "ask",
      reason: "untrusted policy: every command needs approval",
    });
  });

  it("names the part of a compound command that needs approval", () => {
    expect(run("ls && make && cat x")).toMatchObject({ decision: "ask", part: "make" });
    expect(run("ls | head")).toMatchObject({ decision: "allow", readOnly: true });
    expect(run("ls & pwd")).toMatchObject({ decision: "ask", reason: expect.stringMatching(/operator `&`/) });
  });

  it("edits ask under on-request unless accept-edits or remembered; never allows them", () => {
    expect(edit()).toMatchObject({ decision: "ask", reason: "on-request policy: file changes need approval" });
    expect(edit({ mode: "accept-edits" }).decision).toBe("allow");
    expect(edit({ remembered: { ...newRemembered(), allEdits: true } }).decision).toBe("allow");
    expect(edit({ approval: "never" }).decision).toBe("allow");
  });

  it.each(["read", "net", "agent"] as ToolKind[])("%s tools run without approval, even in plan mode", (kind) => {
    expect(
      decide({ tool: "t", kind, args: {}, approval: "untrusted", mode: "plan", remembered: newRemembered() }).decision,
    ).toBe("allow");
  });
});

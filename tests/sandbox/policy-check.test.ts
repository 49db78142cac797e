// `policy check`: the four decisions, the JSON shape, the human line, --stdin in one process, and
// usage errors, through runPolicyCheck with fake streams.
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { policyCheck, runPolicyCheck } from "../../src/sandbox/policy-check.js";

function io(input: string[] = []) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    streams: {
      stdout: { write: (s: string) => out.push(s) },
      stderr: { write: (s: string) => err.push(s) },
      stdin: Readable.from(input.length ? [input.join("\n")] : []),
    },
  };
}

describe("policyCheck", () => {
  it.each([
    ["git status", "on-request", "trusted", null],
    ["make", "on-request", "ask", null],
    ["make", "never", "trusted", null],
    ["git status", "untrusted", "ask", null],
    ["rm -rf ~/x", "never", "dangerous", "recursive-delete"],
    ["rm -rf ~", "never", "blocked", "delete-system"],
    ["curl x | sh", "on-request", "dangerous", "pipe-to-shell"],
    ["rm -rf /", "never", "blocked", "delete-root"],
    [":(){ :|:& };:", "untrusted", "blocked", "fork-bomb"],
  ] as const)("%j under %s is %s", (command, approval, decision, rule) => {
    const c = policyCheck(command, approval);
    expect(c).toMatchObject({ decision, rule });
    expect(c.reason).not.toMatch(/\n/);
  });

  it("a user deny rule is blocked, named by its glob", () => {
    expect(policyCheck('git pu""sh --force', "never", ["git push --force*"])).toMatchObject({
      decision: "blocked",
      rule: "git push --force*",
    });
  });
});

describe("runPolicyCheck", () => {
  it("--json prints exactly one object with decision, rule and reason", async () => {
    const t = io();
    expect(await runPolicyCheck(["--json", "--", "rm -rf /"], t.streams)).toBe(0);
    expect(t.out).toHaveLength(1);
    const parsed = JSON.parse(t.out[0]!);
    expect(Object.keys(parsed)).toEqual(["decision", "rule", "reason"]);
    expect(parsed).toMatchObject({ decision: "blocked", rule: "delete-root" });
  });

  it("joins the words after -- and prints one human-readable line by default", async () => {
    const t = io();
    expect(await runPolicyCheck(["--approval", "never", "--", "rm", "-rf", "~/x"], t.streams)).toBe(0);
    expect(t.out.join("")).toMatch(
      /^dangerous \[recursive-delete\]: recursive rm of `~\/x` deletes files in a home directory \(rule recursive-delete\)\n$/,
    );
  });

  it("trusted commands print a null rule", async () => {
    const t = io();
    await runPolicyCheck(["--json", "git", "log", "--oneline"], t.streams);
    expect(JSON.parse(t.out[0]!)).toMatchObject({ decision: "trusted", rule: null });
  });

  it("--stdin answers one JSON line per input line, in order, in one process", async () => {
    const commands = Array.from(
      { length: 3000 },
      (_, i) => ["ls -la", "make", "rm -rf /", "curl x | sh", "", `git log -${i}`][i % 6]!,
    );
    const t = io(commands);
    expect(await runPolicyCheck(["--stdin", "--approval=on-request"], t.streams)).toBe(0);
    const decisions = t.out.map((l) => JSON.parse(l).decision);
    expect(decisions).toHaveLength(3000);
    expect(decisions.slice(0, 6)).toEqual(["trusted", "ask", "blocked", "dangerous", "ask", "trusted"]);
    expect(t.out.every((l) => l.endsWith("\n") && !l.slice(0, -1).includes("\n"))).toBe(true);
  });

  it("applies --deny rules", async () => {
    const t = io();
    await runPolicyCheck(["--json", "--deny", "npm publish*", "--", "npm publish --tag next"], t.streams);
    expect(JSON.parse(t.out[0]!)).toMatchObject({ decision: "blocked", rule: "npm publish*" });
  });

  it.each([
    [["--approval", "sometimes", "--", "ls"], /unknown approval policy "sometimes"/],
    [["--json"], /no command to check/],
    [["--bogus", "ls"], /unknown option --bogus/],
    [["--stdin", "--", "ls"], /--stdin takes no command argument/],
    [["--approval"], /--approval needs a value/],
  ])("usage error for %j", async (argv, message) => {
    const t = io();
    expect(await runPolicyCheck(argv, t.streams)).toBe(2);
    expect(t.err.join("")).toMatch(message);
    expect(t.err.join("")).toMatch(/usage: nanohermes policy check/);
    expect(t.out).toEqual([]);
  });
});

// Lifecycle hooks with real processes: matching, payload and environment, blocking and warnings,
// chatty and stuck hooks, process-group kills, aborts, and the config schema.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  HOOK_OUTPUT_CAP,
  HOOK_TIMEOUT_MS,
  HookRunner,
  HooksConfigSchema,
  hookMatches,
  hookSpecs,
  runHook,
  type HookSpec,
} from "../../src/hooks/hooks.js";
import { launcherCwd } from "../../src/sandbox/launchers.js";
import { tempDir } from "../helpers/cli.js";
import { alive } from "../helpers/proc.js";
import { waitFor } from "../helpers/wait.js";

/**
 * The hook's background child, gone: the group's SIGKILL is sent as the hook ends, and on a busy
 * machine the kernel may end the child a moment after the hook's shell (a group left alive would
 * sleep 30 s, far past this wait).
 */
const childGone = (ws: string) =>
  waitFor(() => !alive(Number(readFileSync(join(ws, "child.pid"), "utf8"))), {
    what: "the hook's background child ended",
    timeoutMs: 5_000,
  });

const pre = (command: string, matcher = "*", timeoutMs = HOOK_TIMEOUT_MS): HookSpec => ({
  event: "PreToolUse",
  matcher,
  command,
  timeoutMs,
});
const post = (command: string, matcher = "*"): HookSpec => ({
  event: "PostToolUse",
  matcher,
  command,
  timeoutMs: HOOK_TIMEOUT_MS,
});
const runner = (specs: HookSpec[], ws = tempDir()) =>
  new HookRunner(specs, { workspace: ws, env: { ...process.env, EXTRA: "extra-value" } });
const opts = (ws = tempDir(), signal?: AbortSignal) => ({
  cwd: ws,
  env: process.env,
  toolName: "run_command",
  ...(signal ? { signal } : {}),
});

describe("hookMatches", () => {
  it.each([
    ["*", "read_file", true],
    ["", "read_file", true],
    ["  ", "read_file", true],
    ["read_file", "read_file", true],
    ["read_file", "read_files", false],
    ["read_file", "Read_file", false],
    ["write_file,edit_file", "edit_file", true],
    ["write_file, edit_file ", "edit_file", true],
    ["write_file|edit_file", "write_file", true],
    ["write_file | edit_file", "edit_file", true],
    ["write_file,edit_file", "read_file", false],
    ["read_file, *", "grep", true],
    ["write_*", "write_file", false],
  ])("%j matches %s: %s", (matcher, tool, expected) => {
    expect(hookMatches(matcher, tool)).toBe(expected);
  });
});

describe("runHook", () => {
  it("writes the payload as JSON on stdin and sets the environment, starting outside the workspace", async () => {
    const ws = tempDir();
    const command =
      'cat > "$NANOHERMES_WORKSPACE/payload.json"; echo "$NANOHERMES_TOOL_NAME $NANOHERMES_HOOK_EVENT $NANOHERMES_WORKSPACE $EXTRA"; pwd';
    const r = runner([post(command)], ws);
    const { warning, runs } = await r.post("write_file", { path: "a.txt" }, { status: "ok", forModel: "wrote a.txt" });
    expect(warning).toBeUndefined();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.exitCode).toBe(0);
    expect(runs[0]!.stdout).toBe(`write_file PostToolUse ${ws} extra-value\n${launcherCwd([ws])}\n`);
    const payload: unknown = JSON.parse(readFileSync(join(ws, "payload.json"), "utf8"));
    expect(payload).toEqual({
      tool: "write_file",
      event: "PostToolUse",
      arguments: { path: "a.txt" },
      result: "wrote a.txt",
      status: "ok",
    });
  });

  it("sends tool, event and arguments to PreToolUse hooks", async () => {
    const ws = tempDir();
    const r = runner([pre('cat > "$NANOHERMES_WORKSPACE/payload.json"')], ws);
    const outcome = await r.pre("run_command", { command: "ls" });
    expect(outcome.blocked).toBe(false);
    expect(JSON.parse(readFileSync(join(ws, "payload.json"), "utf8"))).toEqual({
      tool: "run_command",
      event: "PreToolUse",
      arguments: { command: "ls" },
    });
  });

  it("drains a chatty hook's stdout and stderr at once and caps both with a note", async () => {
    const command = "yes out | head -c 1048576; yes err | head -c 1048576 >&2; yes out2 | head -c 1048576; echo END";
    const run = await runHook(pre(command), {}, opts());
    expect(run.exitCode).toBe(0);
    for (const text of [run.stdout, run.stderr]) {
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(HOOK_OUTPUT_CAP + 100);
      expect(text).toMatch(/\[\.\.\. \d+ bytes of output dropped while reading \.\.\.\]/);
    }
    expect(run.stdout.endsWith("END\n")).toBe(true);
  });

  it("kills the whole group after the timeout and reports -2", async () => {
    const ws = tempDir();
    const run = await runHook(
      pre("sleep 30 & echo $! > $NANOHERMES_WORKSPACE/child.pid; wait", "*", 500),
      {},
      opts(ws),
    );
    expect(run.exitCode).toBe(-2);
    expect(run.timedOut).toBe(true);
    expect(Number(readFileSync(join(ws, "child.pid"), "utf8"))).toBeGreaterThan(0);
    await childGone(ws);
  });

  it("kills a group that ignores SIGTERM", async () => {
    const ws = tempDir();
    const command = "trap '' TERM; (trap '' TERM; sleep 30) & echo $! > $NANOHERMES_WORKSPACE/child.pid; sleep 30";
    const run = await runHook(pre(command, "*", 300), {}, opts(ws));
    expect(run.exitCode).toBe(-2);
    await childGone(ws);
  });

  it("reports -1 for a hook killed by a signal", async () => {
    const run = await runHook(pre("kill -9 $$"), {}, opts());
    expect(run.exitCode).toBe(-1);
    expect(run.timedOut).toBe(false);
  });

  it("survives a hook that exits without reading a large payload", async () => {
    const big = { content: "x".repeat(1024 * 1024) };
    const run = await runHook(pre("exit 0"), { tool: "write_file", event: "PreToolUse", arguments: big }, opts());
    expect(run.exitCode).toBe(0);
    const r = runner([pre("true"), post("exit 3")]);
    expect((await r.pre("write_file", big)).blocked).toBe(false);
    expect((await r.post("write_file", big, { status: "ok", forModel: "x".repeat(1024 * 1024) })).warning).toContain(
      "exited with code 3",
    );
  });

  it("an abort kills the group and reports -1", async () => {
    const ws = tempDir();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const run = await runHook(
      pre("sleep 30 & echo $! > $NANOHERMES_WORKSPACE/child.pid; wait"),
      {},
      opts(ws, controller.signal),
    );
    expect(run.exitCode).toBe(-1);
    expect(run.timedOut).toBe(false);
    await childGone(ws);
  });

  it("does not start when already aborted", async () => {
    const ws = tempDir();
    const controller = new AbortController();
    controller.abort();
    const run = await runHook(pre("touch ran"), {}, opts(ws, controller.signal));
    expect(run.exitCode).toBe(-1);
    expect(() => readFileSync(join(ws, "ran"))).toThrow();
  });

  it("reports a refused start as 127 with the reason in stderr", async () => {
    const run = await runHook(pre("./check.sh"), {}, opts());
    expect(run.exitCode).toBe(127);
    expect(run.stderr).toMatch(/refused to start the hook: \.\/check\.sh resolves to/);
  });
});

describe("HookRunner", () => {
  it("passes when every matching hook exits 0 and skips hooks for other tools", async () => {
    const ws = tempDir();
    const r = runner([pre("true"), pre("touch other-ran", "grep"), pre("exit 0", "read_file, glob")], ws);
    expect(r.size).toBe(3);
    const outcome = await r.pre("read_file", { path: "x" });
    expect(outcome).toMatchObject({ blocked: false });
    expect(outcome.runs).toHaveLength(2);
    expect(() => readFileSync(join(ws, "other-ran"))).toThrow();
  });

  it("the first non-zero PreToolUse hook blocks with its output; later hooks do not run", async () => {
    const ws = tempDir();
    const r = runner(
      [pre("echo checked"), pre("echo 'no edits to lockfiles'; echo details >&2; exit 2"), pre("touch later-ran")],
      ws,
    );
    const outcome = await r.pre("edit_file", { path: "package-lock.json" });
    expect(outcome.blocked).toBe(true);
    if (!outcome.blocked) return;
    expect(outcome.runs.map((run) => run.exitCode)).toEqual([0, 2]);
    expect(outcome.message).toContain("PreToolUse hook");
    expect(outcome.message).toContain("exited with code 2");
    expect(outcome.message).toContain("no edits to lockfiles\ndetails");
    expect(() => readFileSync(join(ws, "later-ran"))).toThrow();
  });

  it("says when a blocking hook timed out", async () => {
    const outcome = await runner([pre("sleep 30", "*", 500)]).pre("grep", {});
    expect(outcome.blocked).toBe(true);
    if (outcome.blocked) expect(outcome.message).toContain("timed out after 0.5 s");
  });

  it("PostToolUse hooks all run and each failure adds a warning", async () => {
    const ws = tempDir();
    const r = runner(
      [
        post("echo lint failed; exit 1"),
        post('touch "$NANOHERMES_WORKSPACE/second-ran"'),
        post("echo bad >&2; exit 4", "write_file|edit_file"),
      ],
      ws,
    );
    const { warning, runs } = await r.post("edit_file", {}, { status: "ok", forModel: "edited" });
    expect(runs.map((run) => run.exitCode)).toEqual([1, 0, 4]);
    expect(readFileSync(join(ws, "second-ran"), "utf8")).toBe("");
    expect(warning).toContain("exited with code 1:\nlint failed");
    expect(warning).toContain("exited with code 4:\nbad");
    expect(await r.pre("edit_file", {})).toMatchObject({ blocked: false, runs: [] });
  });
});

describe("HooksConfigSchema", () => {
  it("accepts our flat shape and Claude Code's nested shape, in config order", () => {
    const parsed = HooksConfigSchema.safeParse({
      PreToolUse: [
        { matcher: "run_command", command: "./check.sh", timeout: 5 },
        {
          hooks: [
            { type: "command", command: "echo a" },
            { type: "command", command: "echo b", timeout: 1.5 },
          ],
        },
      ],
      PostToolUse: [{ command: "npm run lint" }],
    });
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(hookSpecs(parsed.data)).toEqual([
      { event: "PreToolUse", matcher: "run_command", command: "./check.sh", timeoutMs: 5_000 },
      { event: "PreToolUse", matcher: "*", command: "echo a", timeoutMs: HOOK_TIMEOUT_MS },
      { event: "PreToolUse", matcher: "*", command: "echo b", timeoutMs: 1_500 },
      { event: "PostToolUse", matcher: "*", command: "npm run lint", timeoutMs: HOOK_TIMEOUT_MS },
    ]);
    expect(hookSpecs(undefined)).toEqual([]);
    expect(HooksConfigSchema.safeParse({}).success).toBe(true);
  });

  it.each([
    ["an empty command", { PreToolUse: [{ command: "" }] }],
    ["a blank command", { PreToolUse: [{ command: "   " }] }],
    ["an unknown event", { Stop: [{ command: "true" }] }],
    ["a missing command", { PreToolUse: [{ matcher: "*" }] }],
    ["an unknown entry key", { PreToolUse: [{ command: "true", when: "always" }] }],
    ["a timeout of 0", { PreToolUse: [{ command: "true", timeout: 0 }] }],
    ["a timeout over 600 s", { PostToolUse: [{ command: "true", timeout: 601 }] }],
    ["a nested hook of another type", { PreToolUse: [{ hooks: [{ type: "prompt", command: "true" }] }] }],
    ["an empty nested list", { PreToolUse: [{ hooks: [] }] }],
    ["an entry that is not a list", { PreToolUse: { command: "true" } }],
  ])("rejects %s", (_name, value) => {
    expect(HooksConfigSchema.safeParse(value).success).toBe(false);
  });
});

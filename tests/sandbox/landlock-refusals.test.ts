// Real Landlock through the built helper: every refusal path (never run unsandboxed: no helper,
// no Landlock, an ABI too old, bad arguments), older ABIs still confining, and `sandbox run` /
// `sandbox status`. Never skipped.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  describeSandbox,
  HELPER_MISSING,
  runSandboxCommand,
  sandboxArgv,
  type SandboxHost,
} from "../../src/sandbox/landlock.js";
import { helperRun, outside, setUpLandlockFixture, ws } from "../helpers/landlock.js";

setUpLandlockFixture();

describe("refusals: never run unsandboxed", () => {
  const available = { available: true, abi: 7, reason: "Landlock ABI 7 is enforced" };
  const policy = { mode: "workspace-write" as const, workspace: "/w", writableRoots: [], network: true };

  it("refuses explicit modes when the helper was not built, and runs as is with off", () => {
    const host: SandboxHost = { helper: null, probe: { available: false, abi: 0, reason: HELPER_MISSING } };
    const result = sandboxArgv(policy, ["ls"], host);
    expect(result).toEqual({
      refused: expect.stringContaining("sandbox workspace-write refused: the sandbox helper was not built"),
    });
    expect(sandboxArgv({ ...policy, mode: "read-only" }, ["ls"], host)).toHaveProperty("refused");
    expect(sandboxArgv({ ...policy, mode: "off" }, ["ls", "-la"], host)).toEqual({ argv: ["ls", "-la"] });
  });

  it("refuses when Landlock is reported unavailable, naming why", () => {
    const host: SandboxHost = {
      helper: "/h",
      probe: { available: false, abi: 0, reason: "the kernel has no Landlock support (ENOSYS)" },
    };
    expect(sandboxArgv(policy, ["ls"], host)).toEqual({
      refused: "sandbox workspace-write refused: Landlock is unavailable (the kernel has no Landlock support (ENOSYS))",
    });
  });

  it("network off below ABI 4 runs under the seccomp filter alone (the default must work on old kernels)", () => {
    const old: SandboxHost = { helper: "/h", probe: { ...available, abi: 3 } };
    expect(sandboxArgv({ ...policy, network: false }, ["ls"], old)).toHaveProperty("argv");
    expect(sandboxArgv({ ...policy, network: true }, ["ls"], old)).toHaveProperty("argv");
    const result = sandboxArgv({ ...policy, network: false, writableRoots: ["cache"] }, ["ls"], {
      helper: "/h",
      probe: available,
    });
    const argv = "argv" in result ? result.argv : [];
    expect(argv.slice(0, 11)).toEqual([
      "/h",
      "--mode",
      "workspace-write",
      "--workspace",
      "/w",
      "--writable",
      "/w/cache",
      "--tmpdir",
      expect.any(String),
      "--network",
      "off",
    ]);
    // Then the protected paths of every writable root (protected-paths.test.ts), then the command.
    // (/w has no .git: no parts of one to protect; its .nanohermes must stay absent.)
    expect(argv.slice(11, 13)).toEqual(["--pin", "/w/.git"]);
    expect(argv.join(" ")).toContain("--absent-dir /w/.nanohermes");
    expect(argv).toEqual(expect.arrayContaining(["/w/cache/.git", "/w/cache/.nanohermes"]));
    expect(argv.slice(-2)).toEqual(["--", "ls"]);
  });

  it("the helper refuses an ABI below --abi-min", () => {
    const r = helperRun(["--mode", "read-only", "--abi-min", "99", "--", "sh", "-c", "echo ran"]);
    expect(r.status).toBe(126);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^nh-sandbox: Landlock ABI \d+ is below the required 99; refusing to run\n$/);
  });

  it("the helper keeps TCP out with the network off on a kernel older than ABI 4 (simulated with --abi-max)", () => {
    const tcp = "(exec 3<>/dev/tcp/127.0.0.1/9) 2>&1; echo tcp=$?; exec 3>&-";
    const r = helperRun([
      "--mode",
      "workspace-write",
      "--workspace",
      ws,
      "--network",
      "off",
      "--abi-max",
      "3",
      "--",
      "bash",
      "-c",
      tcp,
    ]);
    expect(r.status).toBe(0);
    // The seccomp filter refuses the socket itself: EACCES, not the port's "Connection refused".
    expect(r.stdout).toMatch(/Permission denied/);
    expect(r.stdout).toContain("tcp=1");
  });

  it.each([1, 2, 3, 4, 5, 6])("still confines writes when limited to ABI %i", (abi) => {
    const r = helperRun([
      "--mode",
      "workspace-write",
      "--workspace",
      ws,
      "--abi-max",
      String(abi),
      "--",
      "sh",
      "-c",
      `echo x > ok.txt; echo y > ${outside}/new.txt`,
    ]);
    expect(r.stderr).toContain("Permission denied");
    expect(readFileSync(join(ws, "ok.txt"), "utf8")).toBe("x\n");
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
  });

  it.each([
    ["an unknown mode", ["--mode", "bogus", "--"]],
    ["no mode", ["--"]],
    ["no --", ["--mode", "read-only"]],
    ["workspace-write without a workspace", ["--mode", "workspace-write", "--"]],
    ["a workspace that does not exist", ["--mode", "workspace-write", "--workspace", "/nonexistent/ws", "--"]],
    [
      "a writable root that does not exist",
      ["--mode", "workspace-write", "--workspace", ".", "--writable", "/nonexistent/root", "--"],
    ],
    ["a bad network value", ["--mode", "read-only", "--network", "maybe", "--"]],
  ])("the helper exits 126 without running the command on %s", (_name, args) => {
    const r = helperRun([...args, "sh", "-c", "echo ran > ran.txt"]);
    expect(r.status).toBe(126);
    expect(r.stderr).toMatch(/^nh-sandbox: .+\n$/);
    expect(existsSync(join(ws, "ran.txt"))).toBe(false);
  });

  it("exits 127 when the program does not exist", () => {
    const r = helperRun(["--mode", "read-only", "--", "no-such-program-nh"]);
    expect(r.status).toBe(127);
    expect(r.stderr).toBe("nh-sandbox: no-such-program-nh: command not found\n");
  });
});

describe("sandbox run and status", () => {
  it("runSandboxCommand returns the command's exit code, 128 + signal, or 126 on refusal", async () => {
    const run = (command: string[], workspace = ws) =>
      runSandboxCommand({ mode: "workspace-write", network: false, workspace, writable: [], command });
    expect(await run(["sh", "-c", "exit 3"])).toBe(3);
    expect(await run(["sh", "-c", "kill -TERM $$"])).toBe(143);
    expect(await run(["sh", "-c", "exit 0"], "/nonexistent/ws")).toBe(126);
  });

  it("describes what each mode enforces here, and what Landlock does not cover", () => {
    const text = describeSandbox().join("\n");
    expect(text).toMatch(/^Landlock: ABI \d+/);
    expect(text).toContain("network off: TCP connect and bind are denied");
    expect(text).toContain("scoping: signals and abstract Unix sockets");
    expect(text).toContain("chmod, chown, timestamps");
    const unavailable = describeSandbox({ helper: null, probe: { available: false, abi: 0, reason: HELPER_MISSING } });
    expect(unavailable[0]).toBe(`Landlock: unavailable (${HELPER_MISSING})`);
    expect(describeSandbox({ helper: "/h", probe: { available: true, abi: 3, reason: "" } }).join("\n")).toContain(
      "network off: a seccomp filter refuses every socket but Unix stream and seqpacket ones (so no TCP,",
    );
  });
});

// Real Landlock through the built helper: what each mode lets a command (and its children) do,
// the network switch, process hygiene, and every refusal path. Never skipped: a machine that
// cannot build or enforce the helper fails here.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawn as ptySpawn } from "node-pty";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  describeSandbox,
  helperPath,
  HELPER_MISSING,
  probeLandlock,
  runSandboxCommand,
  sandboxArgv,
  type SandboxHost,
  type SandboxMode,
} from "../../src/sandbox/landlock.js";

import { commandSandbox } from "../../src/agent/confinement.js";
import { parseFlags } from "../../src/config/flags.js";
import { loadSettings } from "../../src/config/load.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { tempDir } from "../helpers/cli.js";
import { callTool } from "../helpers/tools.js";

const repo = resolve(import.meta.dirname, "../..");
let helper = "";
let base = "";
let ws = "";
let outside = "";

beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-native.mjs"], { cwd: repo, stdio: "pipe" });
  const built = helperPath();
  expect(built, "the helper must build here (is cc installed?)").not.toBeNull();
  helper = built ?? "";
  // Neither the workspace nor the "outside" folder may be under the temp directory, which
  // workspace-write makes writable: the first candidate that is not under it (the checkout
  // itself may live in /tmp, as CI's clean clone can).
  const tmp = realpathSync(tmpdir());
  const candidates = [
    join(repo, ".sandbox-test"),
    "/var/tmp/nanohermes-sandbox-test",
    join(homedir(), ".nanohermes-sandbox-test"),
  ];
  const root = candidates.find((c) => !c.startsWith(`${tmp}/`) && c !== tmp);
  expect(root, "no folder outside the temp directory to test in").toBeDefined();
  mkdirSync(root!, { recursive: true });
  base = realpathSync(mkdtempSync(join(root!, "run-")));
  expect(base.startsWith(`${tmp}/`)).toBe(false);
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

beforeEach(() => {
  rmSync(join(base, "ws"), { recursive: true, force: true });
  rmSync(join(base, "outside"), { recursive: true, force: true });
  ws = join(base, "ws");
  outside = join(base, "outside");
  mkdirSync(ws);
  mkdirSync(outside);
  writeFileSync(join(ws, "inside.txt"), "inside\n");
  writeFileSync(join(outside, "keep.txt"), "keep\n");
});

interface Options {
  network?: boolean;
  writable?: string[];
}

function argvFor(mode: SandboxMode, script: string, options: Options = {}): string[] {
  const result = sandboxArgv(
    { mode, workspace: ws, writableRoots: options.writable ?? [], network: options.network ?? true },
    ["sh", "-c", script],
  );
  if ("refused" in result) throw new Error(result.refused);
  return result.argv;
}

function sandboxed(mode: SandboxMode, script: string, options: Options = {}) {
  const [program, ...args] = argvFor(mode, script, options);
  return spawnSync(program ?? "", args, { cwd: ws, encoding: "utf8" });
}

/** Asynchronous, for commands that talk to a server in this process. */
function sandboxedAsync(
  mode: SandboxMode,
  script: string,
  options: Options = {},
): Promise<{ status: number | null; stdout: string }> {
  const [program, ...args] = argvFor(mode, script, options);
  return new Promise((done) => {
    const child = spawn(program ?? "", args, { cwd: ws });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("close", (status) => done({ status, stdout }));
  });
}

const helperRun = (args: string[]) => spawnSync(helper, args, { cwd: ws, encoding: "utf8" });
const keepIntact = () => expect(readFileSync(join(outside, "keep.txt"), "utf8")).toBe("keep\n");

describe("the probe", () => {
  it("reports Landlock enforced with a recent ABI", () => {
    const probe = probeLandlock();
    expect(probe.available).toBe(true);
    expect(probe.abi).toBeGreaterThanOrEqual(6);
  });
});

describe("workspace-write", () => {
  it("lets a command create, rename, link and remove files inside the workspace", () => {
    const r = sandboxed(
      "workspace-write",
      "echo hi > a && mkdir d && mv a d/b && ln d/b c && ln -s d/b s && mkfifo p && rm c p && cat s && : > inside.txt",
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("hi\n");
    expect(readFileSync(join(ws, "inside.txt"), "utf8")).toBe("");
  });

  it.each([
    ["create a file", "echo x > $OUT/new.txt"],
    ["overwrite a file", "echo x > $OUT/keep.txt"],
    ["append to a file", "echo x >> $OUT/keep.txt"],
    ["truncate a file", "truncate -s 0 $OUT/keep.txt"],
    ["touch a new file", "touch $OUT/new.txt"],
    ["make a directory", "mkdir $OUT/new.txt"],
    ["remove a file", "rm $OUT/keep.txt"],
    ["make a symlink", "ln -s /etc/passwd $OUT/new.txt"],
    ["copy a file out", "cp inside.txt $OUT/new.txt"],
  ])("cannot %s outside the workspace", (_name, script) => {
    const r = sandboxed("workspace-write", script.replaceAll("$OUT", outside));
    expect(r.status).not.toBe(0);
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
    keepIntact();
  });

  it("cannot write outside through a symlink inside the workspace", () => {
    symlinkSync(outside, join(ws, "dir-link"));
    symlinkSync(join(outside, "keep.txt"), join(ws, "file-link"));
    symlinkSync(join(outside, "new.txt"), join(ws, "dangling-link"));
    for (const script of [
      "echo x > dir-link/new.txt",
      "echo x > file-link",
      "echo x > dangling-link",
      "rm dir-link/keep.txt",
    ]) {
      expect(sandboxed("workspace-write", script).status, script).not.toBe(0);
    }
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
    keepIntact();
  });

  it("cannot move a workspace file out", () => {
    const r = sandboxed("workspace-write", `mv inside.txt ${outside}/`);
    expect(r.status).not.toBe(0);
    expect(existsSync(join(ws, "inside.txt"))).toBe(true);
    expect(existsSync(join(outside, "inside.txt"))).toBe(false);
  });

  it("cannot hard-link an outside file in, nor a workspace file out", () => {
    expect(sandboxed("workspace-write", `ln ${outside}/keep.txt in-link`).status).not.toBe(0);
    expect(existsSync(join(ws, "in-link"))).toBe(false);
    expect(sandboxed("workspace-write", `ln inside.txt ${outside}/out-link`).status).not.toBe(0);
    expect(existsSync(join(outside, "out-link"))).toBe(false);
  });

  it("reads and runs programs outside the workspace", () => {
    const r = sandboxed(
      "workspace-write",
      `cat /etc/hostname > /dev/null && ls /usr/bin > /dev/null && /usr/bin/env true && cat ${outside}/keep.txt`,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("keep\n");
  });

  it("holds for children and grandchildren, in the foreground or background", () => {
    const r = sandboxed(
      "workspace-write",
      `sh -c 'sh -c "echo x > ${outside}/new.txt"'; (echo y > ${outside}/new.txt) & wait; sh -c 'echo ok > child.txt'`,
    );
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
    expect(readFileSync(join(ws, "child.txt"), "utf8")).toBe("ok\n");
    expect(r.status).toBe(0);
  });

  it("lets output be thrown away in /dev/null", () => {
    const r = sandboxed(
      "workspace-write",
      "echo hi > /dev/null && ls /nonexistent 2>/dev/null; : > /dev/null && echo ok",
    );
    expect(r.stdout).toBe("ok\n");
  });

  it("makes the temp directory writable", () => {
    const r = sandboxed("workspace-write", 'f=$(mktemp) && echo x > "$f" && cat "$f" && rm "$f"');
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("x\n");
  });

  it("makes extra writable roots writable, and nothing else outside", () => {
    mkdirSync(join(outside, "extra"));
    const r = sandboxed("workspace-write", `echo x > ${outside}/extra/f && echo y > ${outside}/new.txt`, {
      writable: [join(outside, "extra")],
    });
    expect(readFileSync(join(outside, "extra", "f"), "utf8")).toBe("x\n");
    expect(r.status).not.toBe(0);
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
  });

  it("never creates device nodes, even inside the workspace and as root", () => {
    // EACCES is Landlock's refusal; a missing CAP_MKNOD alone would say "Operation not permitted".
    for (const script of ["mknod null c 1 3", "mknod disk b 7 0"]) {
      const r = sandboxed("workspace-write", script);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain("Permission denied");
    }
    expect(existsSync(join(ws, "null"))).toBe(false);
    expect(existsSync(join(ws, "disk"))).toBe(false);
  });
});

describe("read-only", () => {
  it.each([
    ["create a file", "echo x > new.txt"],
    ["append", "echo x >> inside.txt"],
    ["truncate", ": > inside.txt"],
    ["touch a new file", "touch new.txt"],
    ["remove a file", "rm inside.txt"],
    ["rename a file", "mv inside.txt new.txt"],
    ["make a directory", "mkdir new.txt"],
    ["make a symlink", "ln -s inside.txt new.txt"],
    ["make a hard link", "ln inside.txt new.txt"],
    ["make a fifo", "mkfifo new.txt"],
    ["write the temp directory", "mktemp"],
    ["write outside", "echo x > $OUT/new.txt"],
  ])("cannot %s, even in the workspace", (_name, script) => {
    const r = sandboxed("read-only", script.replaceAll("$OUT", outside));
    expect(r.status).not.toBe(0);
    expect(existsSync(join(ws, "new.txt"))).toBe(false);
    expect(readFileSync(join(ws, "inside.txt"), "utf8")).toBe("inside\n");
  });

  it("still reads, runs programs and writes to /dev/null", () => {
    const r = sandboxed(
      "read-only",
      "cat inside.txt && ls /usr/bin > /dev/null && git --version > /dev/null 2>&1; echo ok",
    );
    expect(r.stdout).toBe("inside\nok\n");
  });
});

describe("the network switch", () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((socket) => socket.end());
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    const address = server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });
  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

  const connect = () =>
    `${process.execPath} -e "const s = require('net').connect(${port}, '127.0.0.1'); s.on('connect', () => { console.log('connected'); process.exit(0); }); s.on('error', (e) => { console.log(e.code); process.exit(3); })"`;

  it("off: a TCP connect to a local listener is denied", async () => {
    const r = await sandboxedAsync("workspace-write", connect(), { network: false });
    expect(r.stdout.trim()).toBe("EACCES");
    expect(r.status).toBe(3);
  });

  it("off: binding a TCP port is denied", async () => {
    const listen = `${process.execPath} -e "require('net').createServer().listen(0, '127.0.0.1', () => { console.log('listening'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(3); })"`;
    const r = await sandboxedAsync("read-only", listen, { network: false });
    expect(r.stdout.trim()).toBe("EACCES");
  });

  it("on: the same connect works", async () => {
    const r = await sandboxedAsync("workspace-write", connect(), { network: true });
    expect(r.stdout.trim()).toBe("connected");
    expect(r.status).toBe(0);
  });

  it("where no mount namespace can be made, the first command says so once (issue 26.2, simulated host)", async () => {
    const said: string[] = [];
    const protect = { mountNamespace: false, reason: "simulated: user namespaces are off" };
    const host = () => ({ helper, probe: probeLandlock(), protect });
    const settings = {
      sandbox: { mode: "workspace-write" as const, network: false, writableRoots: [] },
      workspace: ws,
    };
    const sandbox = commandSandbox(settings, (line) => said.push(line), host);
    await sandbox.wrap?.(["true"]);
    await sandbox.wrap?.(["true"]);
    expect(said.filter((l) => l.startsWith("protected paths:"))).toEqual([
      "protected paths: no mount namespace here (simulated: user namespaces are off), so commands can change them while they run; after every command NanoHermes reverts any change to them, and git in commands runs without the repository's hooks and fsmonitor (sandbox status says more)",
    ]);
    expect(describeSandbox({ helper, probe: probeLandlock(), protect }).join("\n")).toContain(
      "no mount namespace here (simulated: user namespaces are off), so commands can change them while they run",
    );
    const quiet: string[] = [];
    await commandSandbox(
      settings,
      (line) => quiet.push(line),
      () => ({ ...host(), protect: { mountNamespace: true, reason: "unshare" } }),
    ).wrap?.(["true"]);
    expect(quiet.filter((l) => l.startsWith("protected paths:"))).toEqual([]);
  });

  it("is off by default (issue 26.6), and one run_command with network: true gets it", async () => {
    const home = tempDir();
    const settings = loadSettings({ flags: parseFlags([]), env: { NANOHERMES_HOME: home }, cwd: ws });
    expect(settings.sandbox.network).toBe(false);
    expect(
      loadSettings({ flags: parseFlags(["--network", "on"]), env: { NANOHERMES_HOME: home }, cwd: ws }).sandbox.network,
    ).toBe(true);
    const sandbox = commandSandbox({ ...settings, sandbox: { ...settings.sandbox, mode: "workspace-write" } });
    const closed = await callTool(runCommandTool, { command: connect() }, ws, undefined, { sandbox });
    expect(closed.forModel).toContain("EACCES");
    const open = await callTool(runCommandTool, { command: connect(), network: true }, ws, undefined, { sandbox });
    expect(open.forModel).toContain("connected");
  });
});

describe("process hygiene", () => {
  const listFds = (argv: string[]) => {
    const [program, ...args] = argv;
    const r = spawnSync(program ?? "", args, { cwd: ws, encoding: "utf8", stdio: ["pipe", "pipe", "pipe", "pipe"] });
    return r.stdout
      .trim()
      .split("\n")
      .map(Number)
      .sort((a, b) => a - b);
  };

  it("closes inherited file descriptors beyond stdio", () => {
    const script = "ls /proc/$$/fd";
    expect(listFds(["sh", "-c", script])).toContain(3); // the control: without the helper fd 3 leaks
    expect(listFds(argvFor("workspace-write", script))).toEqual([0, 1, 2]);
  });

  it("cannot signal processes outside the sandbox", () => {
    const r = sandboxed("workspace-write", `kill -0 ${process.pid} && echo reached`);
    expect(r.stdout).toBe("");
    expect(r.status).not.toBe(0);
  });

  it("drops root's dangerous capabilities (CAP_SYS_ADMIN, CAP_SYS_MODULE) and sets no_new_privs", () => {
    const status = sandboxed("read-only", "cat /proc/self/status").stdout;
    const field = (name: string) => status.match(new RegExp(`^${name}:\\s*(\\S+)`, "m"))?.[1] ?? "";
    for (const set of ["CapEff", "CapPrm", "CapBnd"]) {
      const bits = BigInt(`0x${field(set)}`);
      expect(bits & (1n << 21n), `${set} CAP_SYS_ADMIN`).toBe(0n);
      expect(bits & (1n << 16n), `${set} CAP_SYS_MODULE`).toBe(0n);
    }
    expect(field("NoNewPrivs")).toBe("1");
  });

  it("blocks TIOCSTI, so a command cannot type into the user's terminal", async () => {
    const perl = 'my $c = "x"; print ioctl(STDIN, 0x5412, $c) ? "INJECTED\\n" : "blocked $!\\n"';
    const inPty = (argv: string[]) =>
      new Promise<string>((done) => {
        const [program, ...args] = argv;
        const pty = ptySpawn(program ?? "", args, {
          cols: 80,
          rows: 10,
          cwd: ws,
          env: process.env as Record<string, string>,
        });
        let out = "";
        pty.onData((data) => (out += data));
        pty.onExit(() => done(out));
      });
    expect(await inPty(["perl", "-e", perl])).toContain("INJECTED"); // the control
    expect(await inPty([helper, "--mode", "read-only", "--", "perl", "-e", perl])).toContain(
      "blocked Operation not permitted",
    );
  });
});

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

// The escapes issue 14 closed, against the real helper: network off means no network (seccomp on
// top of Landlock), io_uring refused, root keeps only five capabilities (no chattr +i outside),
// an unsafe TMPDIR is never made writable, and every remaining gap is said in the same words.
import { execFileSync, spawn } from "node:child_process";
import { createSocket, type Socket } from "node:dgram";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandSandbox } from "../../src/agent/confinement.js";
import {
  describeSandbox,
  GAPS,
  NETWORK_CHOICE,
  helperPath,
  KEPT_CAPABILITIES,
  sandboxArgv,
  type SandboxMode,
} from "../../src/sandbox/landlock.js";
import { commandTempDir, unsafeTempReason } from "../../src/sandbox/temp-dir.js";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { startMockServer, textReply, toolReply } from "../helpers/mock-openai.js";

const repo = resolve(import.meta.dirname, "../..");
let helper = "";
let base = "";
let ws = "";
let outside = "";

beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-native.mjs"], { cwd: repo, stdio: "pipe" });
  helper = helperPath() ?? "";
  expect(helper).not.toBe("");
  // Outside /tmp, which workspace-write makes writable.
  mkdirSync("/var/tmp/nanohermes-escapes", { recursive: true });
  base = realpathSync(mkdtempSync("/var/tmp/nanohermes-escapes/run-"));
  ws = join(base, "ws");
  outside = join(base, "outside");
  mkdirSync(ws);
  mkdirSync(outside);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Runs `argv` under the helper, asynchronously (the listeners live in this process). */
function run(
  mode: SandboxMode,
  argv: string[],
  network: boolean,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const result = sandboxArgv({ mode, workspace: ws, writableRoots: [], network }, argv);
  if ("refused" in result) throw new Error(result.refused);
  const [program, ...args] = result.argv;
  return new Promise((done) => {
    const child = spawn(program ?? "", args, { cwd: ws, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (status) => done({ status, stdout, stderr }));
  });
}

/** Each probe prints "NAME ok" or "NAME fail ERRNO". */
const PROBES = String.raw`
import ctypes, os, socket, sys
def probe(name, f):
    try:
        f(); print(name, "ok")
    except OSError as e:
        print(name, "fail", e.errno)
def udp():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b"escaped", ("127.0.0.1", int(sys.argv[1])))
def unix_connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[2])
def pipe():
    r, w = os.pipe(); os.write(w, b"x"); assert os.read(r, 1) == b"x"
def pair():
    a, b = socket.socketpair(); a.send(b"x"); assert b.recv(1) == b"x"
def io_uring():
    libc = ctypes.CDLL(None, use_errno=True)
    params = ctypes.create_string_buffer(120)
    if libc.syscall(425, 1, params) < 0: raise OSError(ctypes.get_errno(), "io_uring_setup")
probe("udp", udp)
probe("netlink", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0))
probe("vsock", lambda: socket.socket(40, socket.SOCK_STREAM))
probe("unix-dgram", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM))
probe("unix-connect", unix_connect)
probe("pipe", pipe)
probe("socketpair", pair)
probe("io_uring", io_uring)
`;

describe("the network switch beyond TCP", () => {
  let udp: Socket;
  let udpPort = 0;
  const received: string[] = [];
  let unixServer: Server;
  let unixPath = "";

  beforeAll(async () => {
    udp = createSocket("udp4");
    udp.on("message", (message) => received.push(message.toString()));
    await new Promise<void>((bound) => udp.bind(0, "127.0.0.1", bound));
    udpPort = udp.address().port;
    unixPath = join(outside, "service.sock");
    unixServer = createServer((socket) => socket.end());
    await new Promise<void>((listening) => unixServer.listen(unixPath, listening));
  });
  afterAll(async () => {
    udp.close();
    await new Promise<void>((closed) => unixServer.close(() => closed()));
  });

  const probes = async (network: boolean) => {
    received.length = 0;
    const r = await run("workspace-write", ["python3", "-c", PROBES, String(udpPort), unixPath], network);
    expect(r.stderr).toBe("");
    return Object.fromEntries(
      r.stdout
        .trim()
        .split("\n")
        .map((line) => [line.split(" ")[0], line.split(" ").slice(1).join(" ")]),
    );
  };

  it("off: UDP, netlink, vsock, Unix datagram sockets and a Unix connect outside fail; pipes and socketpairs work", async () => {
    const result = await probes(false);
    expect(result).toEqual({
      udp: "fail 13",
      netlink: "fail 13",
      vsock: "fail 13",
      "unix-dgram": "fail 13",
      "unix-connect": "fail 13",
      pipe: "ok",
      socketpair: "ok",
      io_uring: "fail 1",
    });
    await new Promise((settle) => setTimeout(settle, 100));
    expect(received).toEqual([]);
  });

  it("on: the same UDP send arrives, sockets open and the Unix connect works; io_uring stays refused", async () => {
    const result = await probes(true);
    expect(result).toMatchObject({
      udp: "ok",
      netlink: "ok",
      "unix-dgram": "ok",
      "unix-connect": "ok",
      pipe: "ok",
      socketpair: "ok",
      io_uring: "fail 1",
    });
    // vsock exists only where the kernel has it: refused by the family, never by us.
    expect(result.vsock === "ok" || result.vsock === "fail 97").toBe(true);
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((settle) => setTimeout(settle, 20));
    expect(received).toEqual(["escaped"]);
  });

  it("the control: outside the sandbox io_uring is available here", () => {
    const out = execFileSync("python3", ["-c", PROBES, String(udpPort), unixPath], { encoding: "utf8" });
    expect(out).toContain("io_uring ok");
  });
});

describe("capabilities", () => {
  const field = (status: string, name: string) =>
    BigInt(`0x${status.match(new RegExp(`^${name}:\\s*(\\S+)`, "m"))?.[1] ?? "0"}`);
  const root = process.getuid?.() === 0;

  it.each([
    [false, 0x1bn],
    [true, 0x1bn],
  ])(
    "network on=%s: root keeps exactly CHOWN, DAC_OVERRIDE, FOWNER, FSETID (no DAC_READ_SEARCH, no NET_RAW)",
    async (network, kept) => {
      const status = (await run("read-only", ["cat", "/proc/self/status"], network)).stdout;
      for (const set of ["CapEff", "CapPrm", "CapInh", "CapAmb"]) expect(field(status, set) & ~kept, set).toBe(0n);
      if (root) {
        expect(field(status, "CapEff")).toBe(kept);
        expect(field(status, "CapBnd")).toBe(kept);
      }
      expect(KEPT_CAPABILITIES).toEqual(["CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_FSETID"]);
    },
  );

  it("chattr +i (FS_IOC_SETFLAGS) on a file outside the workspace fails from read-only", async () => {
    const target = join(outside, "victim.txt");
    writeFileSync(target, "keep\n");
    const setImmutable = String.raw`
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
flags = struct.unpack("i", fcntl.ioctl(fd, 0x80086601, struct.pack("i", 0)))[0]
try:
    fcntl.ioctl(fd, 0x40086602, struct.pack("i", flags | 0x10)); print("immutable")
    fcntl.ioctl(fd, 0x40086602, struct.pack("i", flags)) # the control undoes it at once
except OSError as e:
    print("refused", e.errno)
`;
    const sandboxed = await run("read-only", ["python3", "-c", setImmutable, target], true);
    expect(sandboxed.stdout.trim()).toBe("refused 1");
    // The control: root outside the sandbox can (the file system supports the flag).
    if (root)
      expect(execFileSync("python3", ["-c", setImmutable, target], { encoding: "utf8" }).trim()).toBe("immutable");
    rmSync(target);
  });
});

describe("TMPDIR", () => {
  it("refuses /, the home folder and its parents, and parents of the workspace, but not /tmp or a folder inside", () => {
    const home = realpathSync(homedir());
    expect(unsafeTempReason("/", ws, home)).toBe("/");
    expect(unsafeTempReason(home, ws, home)).toBe("the home folder or a parent of it");
    expect(unsafeTempReason(dirname(home), ws, home)).not.toBeNull(); // "/" when home is /root
    expect(unsafeTempReason(base, ws, home)).toBe("a parent of the workspace");
    expect(unsafeTempReason("/var", ws, home)).toBe("a parent of the workspace");
    expect(unsafeTempReason("/tmp", "/tmp/some-ws", home)).toBeNull();
    expect(unsafeTempReason(join(ws, "tmp"), ws, home)).toBeNull();
    expect(unsafeTempReason(outside, ws, home)).toBeNull();
  });

  it("replaces an unsafe TMPDIR with one private folder and says so", () => {
    const choice = commandTempDir(ws, { TMPDIR: base, HOME: homedir() });
    expect(choice.dir).toMatch(/^\/tmp\/nanohermes-tmp-/);
    expect(choice.warning).toBe(
      `TMPDIR ${base} is a parent of the workspace: not making it writable; commands use the private temp folder ${choice.dir}`,
    );
    expect(commandTempDir(ws, { TMPDIR: "/", HOME: homedir() }).dir).toBe(choice.dir);
    expect(commandTempDir(ws, { TMPDIR: outside, HOME: homedir() })).toEqual({ dir: outside, warning: null });
  });

  it("the helper on its own refuses TMPDIR=/ : a private folder, removed afterwards", async () => {
    const env = { ...process.env, TMPDIR: "/" };
    const r = await new Promise<{ stdout: string; stderr: string }>((done) => {
      const child = spawn(
        helper,
        [
          "--mode",
          "workspace-write",
          "--workspace",
          ws,
          "--",
          "sh",
          "-c",
          'echo "$TMPDIR"; echo x > "$TMPDIR/f" && echo wrote; { echo y > /nh-escape-test; } 2>/dev/null || echo refused',
        ],
        { env },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      child.on("close", () => done({ stdout, stderr }));
    });
    const [dir, wrote, refused] = r.stdout.trim().split("\n");
    expect(dir).toMatch(/^\/tmp\/nh-sandbox-tmp-/);
    expect([wrote, refused]).toEqual(["wrote", "refused"]);
    expect(r.stderr).toBe(`nh-sandbox: TMPDIR / is /: not making it writable; using the private temp folder ${dir}\n`);
    expect(existsSync(dir!)).toBe(false);
    expect(existsSync("/nh-escape-test")).toBe(false);
  });

  it("a parent of the workspace given as TMPDIR does not become writable", async () => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = base;
    const r = await run(
      "workspace-write",
      ["sh", "-c", `echo x > ${base}/sibling.txt || echo refused; echo "$TMPDIR"`],
      true,
    ).finally(() => {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    });
    expect(r.stdout).toMatch(/^refused\n\/tmp\/nanohermes-tmp-/);
    expect(existsSync(join(base, "sibling.txt"))).toBe(false);
  });

  it("a tool run says it on stderr in one line", async () => {
    const cwd = tempDir();
    const r = await runCli(
      ["tool", "run_command", JSON.stringify({ command: 'echo "$TMPDIR"' }), "--sandbox", "workspace-write"],
      { cwd, env: testEnv({ TMPDIR: "/" }) },
    );
    expect(r.stderr).toMatch(
      /^nanohermes: TMPDIR \/ is \/: not making it writable; commands use the private temp folder \/tmp\/nanohermes-tmp-\S+\n$/,
    );
    expect(r.stdout).toMatch(/\n\/tmp\/nanohermes-tmp-/);
  });
});

describe("saying it where it happens", () => {
  it("auto falling back to unsandboxed says so once, and still reaps with the helper", async () => {
    const lines: string[] = [];
    const probe = { available: false, abi: 0, reason: "the kernel has no Landlock support (ENOSYS)" };
    const sandbox = commandSandbox(
      { sandbox: { mode: "auto", network: true, writableRoots: [] }, workspace: ws },
      (line) => lines.push(line),
      () => ({ helper: "/h", probe }),
    );
    expect(await sandbox.wrap?.(["ls"])).toEqual({ argv: ["/h", "--mode", "off", "--", "ls"] });
    expect(await sandbox.wrap?.(["ls"])).toEqual({ argv: ["/h", "--mode", "off", "--", "ls"] });
    expect(lines).toEqual([
      "sandbox auto: Landlock is unavailable (the kernel has no Landlock support (ENOSYS)); commands run unsandboxed",
    ]);
    const bare = commandSandbox(
      { sandbox: { mode: "off", network: true, writableRoots: [] }, workspace: ws },
      undefined,
      () => ({ helper: null, probe }),
    );
    expect(await bare.wrap?.(["ls"])).toEqual({ argv: ["ls"] });
  });

  it("one-shot and tool runs say in one line on stderr that auto fell back to unsandboxed", async () => {
    // A copy of the program without the built helper beside it: Landlock is unavailable to it.
    const copy = tempDir("nh-nohelper-");
    execFileSync("cp", ["-r", join(repo, "dist"), join(copy, "dist")]);
    writeFileSync(join(copy, "package.json"), JSON.stringify({ name: "nanohermes", version: "0.0.0", type: "module" }));
    const cwd = tempDir();
    const line =
      "sandbox auto: Landlock is unavailable (the sandbox helper was not built (no C compiler at install?)); commands run unsandboxed";
    const cli = (args: string[], env: Record<string, string | undefined>) =>
      new Promise<{ stdout: string; stderr: string }>((done) => {
        const child = spawn(process.execPath, [join(copy, "dist/cli.js"), ...args], {
          cwd,
          env: env as NodeJS.ProcessEnv,
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
        child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
        child.on("close", () => done({ stdout, stderr }));
      });
    const tool = await cli(["tool", "run_command", JSON.stringify({ command: "echo ran" })], testEnv());
    expect(tool.stderr).toBe(`nanohermes: ${line}\n`);
    expect(tool.stdout).toContain("\nran");
    const server = await startMockServer([
      toolReply([{ name: "run_command", args: { command: "echo ran" } }]),
      textReply("done"),
    ]);
    try {
      const oneShot = await cli(["-p", "go"], testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.url }));
      expect(oneShot.stdout).toBe("done\n");
      expect(oneShot.stderr).toBe(`warn: ${line}\n`);
    } finally {
      await server.close();
    }
  });

  it("sandbox run --help lists every mode it accepts, and each is accepted", async () => {
    const help = await runCli(["sandbox", "run", "--help"]);
    expect(help.code).toBe(0);
    for (const mode of ["workspace-write", "read-only", "auto", "off"]) {
      expect(help.stdout).toContain(`  ${mode} `);
      const r = await runCli(["sandbox", "run", "--mode", mode, "--", "true"], { cwd: ws });
      expect(r.code, mode).toBe(0);
    }
    expect((await runCli(["sandbox", "run", "--mode", "bogus", "--", "true"])).stderr).toContain(
      "--mode expects workspace-write, read-only, auto or off",
    );
  });

  it("sandbox run -C DIR runs the command in DIR, the workspace it may write, in every mode", async () => {
    for (const mode of ["workspace-write", "read-only", "off"]) {
      const r = await runCli(["sandbox", "run", "--mode", mode, "-C", ws, "--", "sh", "-c", "pwd -P"], { cwd: repo });
      expect(r.code, mode).toBe(0);
      expect(r.stdout, mode).toBe(`${realpathSync(ws)}\n`);
    }
    // A relative path written in DIR lands in DIR (the workspace-write sandbox allows it only there).
    const made = await runCli(["sandbox", "run", "-C", ws, "--", "sh", "-c", "echo here > ran-in-ws.txt"], {
      cwd: repo,
    });
    expect(made.code).toBe(0);
    expect(readFileSync(join(ws, "ran-in-ws.txt"), "utf8")).toBe("here\n");
  });

  it("status names every gap in the README's words, and what root keeps", () => {
    const readme = readFileSync(join(repo, "README.md"), "utf8").replace(/\s*\n\s*/g, " ");
    for (const gap of Object.values(GAPS)) expect(readme.includes(gap), gap).toBe(true);
    expect(readme.includes(NETWORK_CHOICE), NETWORK_CHOICE).toBe(true);
    const status = describeSandbox().join("\n");
    expect(status).toContain(NETWORK_CHOICE);
    expect(status).toContain(`not covered:\n  - ${GAPS.metadata}\n  - ${GAPS.unixSockets}`);
    expect(status).toContain(`root keeps only ${KEPT_CAPABILITIES.join(", ")}`);
    expect(status).toContain("reaping: when a foreground command ends");
    const helperless = describeSandbox({ helper: null, probe: { available: false, abi: 0, reason: "no helper" } }).join(
      "\n",
    );
    expect(helperless).toContain(`reaping: ${GAPS.noHelperReaping}`);
  });
});

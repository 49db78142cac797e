// Real Landlock through the built helper: process hygiene. A sandboxed command inherits no file
// descriptors beyond stdio, cannot signal processes outside, keeps no dangerous capability and
// cannot type into the user's terminal (TIOCSTI). Never skipped.
import { spawnSync } from "node:child_process";
import { spawn as ptySpawn } from "node-pty";
import { describe, expect, it } from "vitest";
import { argvFor, helper, sandboxed, setUpLandlockFixture, ws } from "../helpers/landlock.js";

setUpLandlockFixture();

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

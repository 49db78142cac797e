// Issue 26.2 and 26.5 against the real helper: no way around the read-only binds through
// open_by_handle_at, placeholders for protected folders that do not exist yet, and less reach for a
// command (its own IPC namespace, no raw or packet sockets with the network on, its own session
// keyring, first for the OOM killer, a process limit where the host allows one).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { helperPath, processLimitLine, sandboxArgv, type SandboxMode } from "../../src/sandbox/landlock.js";

const repo = join(import.meta.dirname, "../..");
const root = process.geteuid?.() === 0;
const dirs: string[] = [];
const fresh = (prefix = "nh-reach-") => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-native.mjs"], { cwd: repo, stdio: "pipe" });
  expect(helperPath()).not.toBeNull();
});

function sandboxed(ws: string, argv: string[], mode: SandboxMode = "workspace-write", network = true) {
  const result = sandboxArgv({ mode, workspace: ws, writableRoots: [], network }, argv);
  if ("refused" in result) throw new Error(result.refused);
  return spawnSync(result.argv[0]!, result.argv.slice(1), { cwd: ws, encoding: "utf8" });
}

/** Finds .git/hooks by handle and reopens it through the workspace's (writable) mount. */
const BY_HANDLE = String.raw`
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void) {
  struct file_handle *h = malloc(sizeof *h + 128);
  int mount_id;
  h->handle_bytes = 128;
  if (name_to_handle_at(AT_FDCWD, ".git/hooks", h, &mount_id, 0)) { printf("name_to_handle_at %d\n", errno); return 0; }
  int ws = open(".", O_RDONLY | O_DIRECTORY);
  int dir = open_by_handle_at(ws, h, O_RDONLY | O_DIRECTORY);
  if (dir < 0) { printf("open_by_handle_at %s\n", strerror(errno)); return 0; }
  int fd = openat(dir, "post-checkout", O_CREAT | O_WRONLY, 0755);
  if (fd < 0) { printf("plant %s\n", strerror(errno)); return 0; }
  dprintf(fd, "#!/bin/sh\ntouch planted\n");
  printf("planted\n");
  return 0;
}
`;

function repoWs(): string {
  const ws = fresh();
  execFileSync("git", ["init", "-q"], { cwd: ws });
  return ws;
}

describe("no way around the binds", () => {
  it("open_by_handle_at cannot reach .git/hooks through the writable mount beneath its bind", () => {
    const ws = repoWs();
    const tools = fresh("nh-tools-");
    writeFileSync(join(tools, "h.c"), BY_HANDLE);
    execFileSync("cc", ["-o", join(tools, "by-handle"), join(tools, "h.c")]);
    const r = sandboxed(ws, [join(tools, "by-handle")]);
    expect(r.stdout).toMatch(/open_by_handle_at Operation not permitted/);
    expect(existsSync(join(ws, ".git/hooks/post-checkout"))).toBe(false);
  });

  it("a missing .git/hooks is made empty and bound read-only, not left for a plant", () => {
    const ws = repoWs();
    rmSync(join(ws, ".git/hooks"), { recursive: true });
    const r = sandboxed(ws, ["sh", "-c", "echo '#!/bin/sh' > .git/hooks/post-checkout; echo w=$?"]);
    expect(r.stdout).toMatch(/w=[12]/);
    expect(readdirSync(join(ws, ".git/hooks"))).toEqual([]);
  });
});

describe("less reach", () => {
  it("System V IPC of outside processes is out of reach, also in read-only mode", () => {
    const ws = fresh();
    const id = /(\d+)/.exec(execFileSync("ipcmk", ["-M", "4096"], { encoding: "utf8" }))?.[1];
    expect(id).toBeDefined();
    try {
      for (const mode of ["read-only", "workspace-write"] as const) {
        const r = sandboxed(ws, ["sh", "-c", `ipcrm -m ${id}; echo rm=$?`], mode);
        expect(r.stdout, mode).toMatch(/rm=1/);
      }
      expect(execFileSync("ipcs", ["-m", "-i", id!], { encoding: "utf8" })).toMatch(new RegExp(`shmid=${id}`));
    } finally {
      spawnSync("ipcrm", ["-m", id!]);
    }
  });

  it("no raw or packet sockets with the network on (a loopback sniffer)", () => {
    const ws = fresh();
    const probe = `
import socket
for name, args in [("packet", (17, socket.SOCK_RAW, 0x0300)), ("raw", (socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP))]:
    try:
        socket.socket(*args); print(name, "ok")
    except OSError as e:
        print(name, "fail", e.errno)
`;
    const r = sandboxed(ws, ["python3", "-c", probe], "workspace-write", true);
    expect(r.stdout).toMatch(/packet fail 1\nraw fail 1/);
    if (root) expect(execFileSync("python3", ["-c", probe], { encoding: "utf8" })).toMatch(/packet ok/);
  });

  it("a session keyring of its own, and first in line for the OOM killer", () => {
    const ws = fresh();
    const keyring = `import ctypes; print(ctypes.CDLL(None).syscall(250, 0, -3, 0))`;
    const outside = execFileSync("python3", ["-c", keyring], { encoding: "utf8" }).trim();
    const r = sandboxed(ws, ["sh", "-c", `python3 -c '${keyring}'; cat /proc/self/oom_score_adj`]);
    const [inside, oom] = r.stdout.trim().split("\n");
    expect(inside).not.toBe(outside);
    expect(oom).toBe("1000");
  });

  it("a process limit where the host allows one, as sandbox status says", () => {
    const ws = fresh();
    const line = processLimitLine();
    const script =
      "p=$(grep :pids: /proc/self/cgroup | cut -d: -f3); echo $p; cat /sys/fs/cgroup/pids$p/pids.max; ulimit -u";
    const r = sandboxed(ws, ["sh", "-c", script]);
    if (/2048 processes per command/.test(line)) expect(r.stdout).toMatch(/nh-sandbox-\d+\n2048\n/);
    else if (!root) expect(r.stdout).toMatch(/\n32768\n?$/);
    if (root) expect(line).toMatch(/2048 processes per command|not limited/);
  });
});

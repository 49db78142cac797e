// A failed save fails the run: an unwritable, dangling or non-folder session folder, and a full
// disk, each give a non-zero exit, a line on stderr and `"reason": "save_failed"` under --json.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, collect, runCli, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

/** A home whose config points the session folder at `sessionDir`. */
function withSessionDir(env: Record<string, string | undefined>, sessionDir: string) {
  writeFileSync(join(env.NANOHERMES_HOME!, "config.json"), JSON.stringify({ sessionDir }));
  return env;
}

type JsonResult = { reason: string; error?: string; saveError?: string; response: string };

async function expectSaveFailed(sessionDir: string, problem: RegExp): Promise<void> {
  const { mock, env } = await e2eEnv([textReply("never asked")]);
  const ws = tempDir();
  const r = await runCli(["-p", "hello", "-C", ws, "--json"], { env: withSessionDir(env, sessionDir) });
  expect(r.code, r.stderr).toBe(1);
  const body = JSON.parse(r.stdout) as JsonResult;
  expect(body.reason).toBe("save_failed");
  expect(body.error).toMatch(problem);
  expect(r.stderr).toMatch(new RegExp(`^nanohermes: cannot save the session: .*${problem.source}`, "m"));
  // Found before the turn: no model call was spent on a turn that could not be kept.
  expect(mock.requests).toHaveLength(0);
}

describe("a failed save fails the run", () => {
  it('"sessionDir" naming a file (like /etc/passwd)', async () => {
    const file = join(tempDir(), "passwd");
    writeFileSync(file, "root:x:0:0\n");
    await expectSaveFailed(file, /ENOTDIR|EEXIST/);
  });

  it("a dangling session folder (a symlink to nothing)", async () => {
    const dir = join(tempDir(), "sessions");
    symlinkSync("/nonexistent-nh-target/sessions", dir);
    await expectSaveFailed(dir, /ENOENT|EEXIST/);
  });

  it("an unwritable session folder (a read-only mount: root ignores mode bits)", async () => {
    const dir = tempDir("nh-ro-");
    const { mock, env } = await e2eEnv([textReply("never asked")]);
    withSessionDir(env, dir);
    const ws = tempDir();
    const script = `mount -t tmpfs -o ro,size=64k tmpfs ${dir} && ${process.execPath} ${CLI} -p hello -C ${ws} --json; echo "exit=$?"`;
    const r = await collect(spawn("unshare", ["-m", "sh", "-c", script], { env: env as NodeJS.ProcessEnv }));
    expect(r.stdout).toContain("exit=1");
    const body = JSON.parse(r.stdout.split("\n")[0]!) as JsonResult;
    expect(body.reason).toBe("save_failed");
    expect(body.error).toMatch(/EROFS/);
    expect(r.stderr).toMatch(/^nanohermes: cannot save the session: .*EROFS/m);
    expect(mock.requests).toHaveLength(0);
  });

  it('a full disk at start: no model call, --json says "save_failed" and the exit is 1', async () => {
    const mnt = tempDir("nh-full-");
    const { mock, env } = await e2eEnv([textReply(`answer ${"y".repeat(20_000)}`)]);
    withSessionDir(env, join(mnt, "sessions"));
    const ws = tempDir();
    const script = [
      `mount -t tmpfs -o size=64k tmpfs ${mnt}`,
      `mkdir ${mnt}/sessions`,
      `dd if=/dev/zero of=${mnt}/filler bs=1k count=100 2>/dev/null`,
      `${process.execPath} ${CLI} -p hello -C ${ws} --json; echo "exit=$?"`,
      `ls -a ${mnt}/sessions`,
    ].join("\n");
    const r = await collect(spawn("unshare", ["-m", "sh", "-c", script], { env: env as NodeJS.ProcessEnv }));
    expect(r.stdout).toContain("exit=1");
    const body = JSON.parse(r.stdout.split("\n")[0]!) as JsonResult;
    expect(body.reason).toBe("save_failed");
    expect(body.error).toMatch(/no space left on the device \(ENOSPC\)/);
    expect(r.stderr).toMatch(
      /^nanohermes: cannot save the session: .*sessions: no space left on the device \(ENOSPC\)$/m,
    );
    expect(mock.requests).toHaveLength(0);
    // Neither a temp file (the probe) nor the lock is left behind.
    expect(r.stdout.split("exit=1\n")[1]!.trim().split("\n").sort()).toEqual([".", ".."]);
  });

  it("a session folder that works: exit 0 and reason completed (the same run, nothing failing)", async () => {
    const dir = join(tempDir(), "sessions");
    mkdirSync(dir);
    const { env } = await e2eEnv([textReply("fine")]);
    const r = await runCli(["-p", "hello", "-C", tempDir(), "--json"], { env: withSessionDir(env, dir) });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as JsonResult).reason).toBe("completed");
    expect(readdirSync(dir).filter((n) => n.endsWith(".json"))).toHaveLength(1);
  });
});

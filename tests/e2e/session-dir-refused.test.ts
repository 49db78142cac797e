// A session folder under /proc or /sys (directly or through a symlink) is refused at start with one
// line, instead of a run that spins on saves that can never succeed.
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";

function envWithSessionDir(dir: string) {
  const env = testEnv({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
  writeFileSync(join(env.NANOHERMES_HOME!, "config.json"), JSON.stringify({ sessionDir: dir }));
  return env;
}

describe("session folders on kernel file systems", () => {
  it('refuses "sessionDir": "/proc/x" and "/sys/x" before any work', async () => {
    for (const dir of ["/proc/x", "/sys/kernel/x"]) {
      const r = await runCli(["-p", "hi", "-C", tempDir()], { env: envWithSessionDir(dir), timeoutMs: 15_000 });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `"sessionDir": ${dir} is under ${dir.startsWith("/proc") ? "/proc" : "/sys"}, a kernel file system that cannot hold files`,
      );
    }
  });

  it("refuses a path that reaches /proc through a symlink, and the daemon's --session-dir", async () => {
    const base = tempDir();
    symlinkSync("/proc/self", join(base, "link"));
    const viaLink = await runCli(["-p", "hi", "-C", tempDir()], {
      env: envWithSessionDir(join(base, "link", "sessions")),
      timeoutMs: 15_000,
    });
    expect(viaLink.code).toBe(2);
    expect(viaLink.stderr).toContain("is under /proc");
    const daemon = await runCli(["--daemon", "--daemon-port", "0", "--session-dir", "/sys/x", "-C", tempDir()], {
      env: testEnv({ OPENAI_API_KEY: "sk-test" }),
      timeoutMs: 15_000,
    });
    expect(daemon.code).toBe(2);
    expect(daemon.stderr).toContain("--session-dir: /sys/x is under /sys");
  });
});

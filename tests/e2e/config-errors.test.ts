// Configuration errors are configuration errors: a base URL that is no URL is refused at start
// (exit 2), not retried as a broken connection; a lock that cannot be made is said in the user's
// terms; a long Retry-After wait is one line on stderr even when stderr is no terminal.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI, collect, runCli, tempDir, testEnv } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

describe("configuration errors", () => {
  it.each([
    ["--base-url", { args: ["--base-url", "notaurl"], env: {} }],
    ["OPENAI_BASE_URL", { args: [], env: { OPENAI_BASE_URL: "notaurl" } }],
    ["a scheme that is not http", { args: ["--base-url", "ftp://example.com/v1"], env: {} }],
  ])("a base URL that is no http(s) URL (%s) is refused at start with exit 2", async (_name, { args, env }) => {
    const r = await runCli(["-p", "hi", "-C", tempDir(), ...args], { env: testEnv({ OPENAI_API_KEY: "k", ...env }) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^nanohermes: the base URL ".*" is not an http:\/\/ or https:\/\/ URL/m);
    expect(r.stderr).not.toMatch(/retrying|connection error/);
  });

  it("a session folder the lock cannot be made in is named, with the reason in words", async () => {
    const dir = tempDir("nh-ro-");
    const env = testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://127.0.0.1:9" });
    const script = `mount -t tmpfs -o ro,size=64k tmpfs ${dir} && ${process.execPath} ${CLI} -p hello -C ${tempDir()} --session ${dir}/s.json; echo "exit=$?"`;
    const r = await collect(spawn("unshare", ["-m", "sh", "-c", script], { env: env as NodeJS.ProcessEnv }));
    expect(r.stdout).toContain("exit=1");
    expect(r.stderr).toMatch(
      /^nanohermes: cannot save the session: cannot write in the session folder .*nh-ro-\w+: read-only file system \(EROFS\)$/m,
    );
    expect(r.stderr).not.toMatch(/symlink '|\.lock/);
  });

  it.each([["text"], ["--json"]])(
    "a long Retry-After wait is one line on a stderr that is no terminal (%s)",
    async (mode) => {
      const { run } = await e2eEnv([{ status: 429, headers: { "retry-after": "5" } }, textReply("fine")]);
      const r = await run(["-p", "hi", "-C", tempDir(), ...(mode === "text" ? [] : [mode])]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.split("\n").filter((l) => l.includes("retrying"))).toEqual([
        expect.stringMatching(/^\s*retrying, attempt 2 of 3 in 5\.0 s: 429 /),
      ]);
    },
    20_000,
  );
});

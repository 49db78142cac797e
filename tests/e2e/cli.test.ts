// The built program's own surface: help, version, config errors, `tool` runs and session files.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { flagSpecs } from "../../src/config/flag-table.js";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

describe("help, version and usage errors", () => {
  it("--help documents every flag", async () => {
    const r = await runCli(["--help"]);
    expect(r.code).toBe(0);
    for (const spec of flagSpecs) expect(r.stdout).toContain(`--${spec.name}`);
    expect(r.stdout).toContain("OPENAI_API_KEY");
  });

  it("--version prints the package version", async () => {
    const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../package.json"), "utf8")) as {
      version: string;
    };
    const r = await runCli(["--version"]);
    expect(r).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it("an unknown flag is a usage error (exit 2, one line)", async () => {
    const r = await runCli(["--frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/frobnicate/);
  });

  it("a bad integer flag names the flag", async () => {
    const r = await runCli(["-p", "x", "--max-retries", "lots"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('nanohermes: --max-retries expects an integer from 0 to 10, got "lots"\n');
  });

  it("without a prompt and without a terminal, prints a hint and exits 2", async () => {
    const r = await runCli([], { input: "" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/prompt is empty/);
  });

  it("without an API key or endpoint, says what to set", async () => {
    const r = await runCli(["-p", "hi"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/No model is set up yet, so nothing is sent/);
    expect(r.stderr).toMatch(/OPENAI_API_KEY=sk-/);
    expect(r.stderr).toMatch(/--base-url/);
  });
});

describe("config files", () => {
  it("an invalid config stops start-up naming the file, the key and the problem", async () => {
    const env = testEnv({ OPENAI_API_KEY: "k" });
    const file = join(env.NANOHERMES_HOME!, "config.json");
    writeFileSync(file, JSON.stringify({ model: "m", maxRetries: "two" }));
    const r = await runCli(["-p", "hi"], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `nanohermes: invalid config ${file}: "maxRetries": Invalid input: expected number, received string\n`,
    );
  });

  it("names unknown keys and JSON syntax errors", async () => {
    const env = testEnv({ OPENAI_API_KEY: "k" });
    const file = join(env.NANOHERMES_HOME!, "config.json");
    writeFileSync(file, JSON.stringify({ modle: "typo" }));
    expect((await runCli(["-p", "hi"], { env })).stderr).toContain(`invalid config ${file}: "modle": unknown key`);
    writeFileSync(file, '{"model": "m",}');
    const r = await runCli(["-p", "hi"], { env });
    expect(r.stderr).toMatch(new RegExp(`invalid config ${file}: not valid JSON`));
  });

  it("merges user config < workspace config < environment < flags", async () => {
    const { mock, env } = await e2eEnv(() => textReply("ok"));
    const ws = tempDir();
    writeFileSync(join(env.NANOHERMES_HOME!, "config.json"), JSON.stringify({ model: "from-user", thinking: "low" }));
    mkdirSync(join(ws, ".nanohermes"));
    writeFileSync(join(ws, ".nanohermes", "config.json"), JSON.stringify({ model: "from-workspace" }));
    await runCli(["-p", "a", "-C", ws], { env });
    await runCli(["-p", "b", "-C", ws], { env: { ...env, NANOHERMES_MODEL: "from-env" } });
    await runCli(["-p", "c", "-C", ws, "-m", "from-flag"], { env: { ...env, NANOHERMES_MODEL: "from-env" } });
    expect(mock.requests.map((r) => r.model)).toEqual(["from-workspace", "from-env", "from-flag"]);
    expect(mock.requests[0]!.body.reasoning_effort).toBe("low");
  });
});

describe("nanohermes tool", () => {
  it("runs a tool and prints its result; exit 1 when the tool fails", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "a.txt"), "one\ntwo\n");
    const ok = await runCli(["tool", "read_file", '{"path":"a.txt","offset":2}', "-C", ws]);
    expect(ok).toMatchObject({ code: 0, stdout: "     2\ttwo\n" });
    const missing = await runCli(["tool", "read_file", '{"path":"nope.txt"}', "-C", ws]);
    expect(missing).toMatchObject({ code: 1, stdout: "no such file: nope.txt\n" });
    const invalid = await runCli(["tool", "edit_file", '{"path":"a.txt"}', "-C", ws]);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toMatch(/invalid arguments for edit_file: "old_string": Invalid input/);
  });

  it("edits with the same bounds as in a turn, and refuses paths outside the workspace", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "a.txt"), "x = 1\nx = 1\n");
    const twice = await runCli([
      "tool",
      "edit_file",
      JSON.stringify({ path: "a.txt", old_string: "x = 1", new_string: "x = 2" }),
      "-C",
      ws,
    ]);
    expect(twice.code).toBe(1);
    expect(twice.stdout).toMatch(/occurs 2 times in a.txt \(at lines 1, 2\)/);
    const outside = await runCli([
      "tool",
      "write_file",
      JSON.stringify({ path: "../escape.txt", content: "x" }),
      "-C",
      ws,
    ]);
    expect(outside.code).toBe(1);
    expect(outside.stdout).toMatch(/outside the workspace/);
    expect(existsSync(join(ws, "..", "escape.txt"))).toBe(false);
  });

  it("--schema prints the JSON schema with the documented argument names; no name lists the tools", async () => {
    const r = await runCli(["tool", "edit_file", "--schema"]);
    const schema = JSON.parse(r.stdout) as { parameters: { properties: Record<string, unknown>; required: string[] } };
    expect(Object.keys(schema.parameters.properties)).toEqual(["path", "old_string", "new_string", "replace_all"]);
    expect(schema.parameters.required).toEqual(["path", "old_string", "new_string"]);
    const list = await runCli(["tool"]);
    for (const name of [
      "read_file",
      "write_file",
      "edit_file",
      "apply_patch",
      "list_dir",
      "grep",
      "glob",
      "run_command",
    ]) {
      expect(list.stdout).toMatch(new RegExp(`^${name}\\b`, "m"));
    }
  });

  it("run_command reports the exit code and fails the CLI on a non-zero exit", async () => {
    const r = await runCli(["tool", "run_command", '{"command":"echo out; echo err >&2; exit 3"}', "-C", tempDir()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^\$ echo out; echo err >&2; exit 3\nexit code 3 \(\d+\.\d s\)\n--- stdout ---\nout\n--- stderr ---\nerr\n$/,
    );
  });
});

describe("session files", () => {
  it("resumes a session: the next turn sees the earlier messages", async () => {
    const { mock, env } = await e2eEnv([textReply("first"), textReply("second")]);
    const ws = tempDir();
    const file = join(ws, "s.json");
    await runCli(["-p", "one", "-C", ws, "--session", file], { env });
    await runCli(["-p", "two", "-C", ws, "--session", file], { env });
    const sent = mock.requests[1]!.messages as { role: string; content: string }[];
    expect(sent.map((m) => [m.role, m.role === "system" ? "" : m.content])).toEqual([
      ["system", ""],
      ["user", "one"],
      ["assistant", "first"],
      ["user", "two"],
    ]);
  });

  it("saves new sessions under ~/.nanohermes/sessions with no secrets in them", async () => {
    const { env } = await e2eEnv([textReply("the key is sk-test-very-secret-key-42")], {
      key: "sk-test-very-secret-key-42",
    });
    await runCli(["-p", "hi", "-C", tempDir()], { env });
    const dir = join(env.NANOHERMES_HOME!, "sessions");
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const text = readFileSync(join(dir, files[0]!), "utf8");
    expect(text).toContain("[redacted]");
    expect(text).not.toContain("sk-test-very-secret-key-42");
  });

  it("an unreadable session starts fresh with a warning and keeps the bad file", async () => {
    const { mock, env } = await e2eEnv([textReply("fresh")]);
    const ws = tempDir();
    const file = join(ws, "s.json");
    writeFileSync(file, '{"version":1,"messages":[{"role":"user"');
    const r = await runCli(["-p", "hi", "-C", ws, "--session", file], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^warn: session .*s\.json is unreadable \(not valid JSON.*\); it was kept as .*s\.json\.corrupt-\d+ and a new session started\n$/,
    );
    expect(readdirSync(ws).some((f) => f.startsWith("s.json.corrupt-"))).toBe(true);
    expect((mock.requests[0]!.messages as unknown[]).length).toBe(2);
  });

  it("a session write killed mid-way leaves the old file intact", async () => {
    const ws = tempDir();
    const file = join(ws, "s.json");
    const old = {
      version: 1,
      id: "s",
      createdAt: "t",
      updatedAt: "t",
      workspace: ws,
      model: "m",
      messages: [{ role: "user", content: "old" }],
    };
    writeFileSync(file, JSON.stringify(old));
    // A child process saves a 200 MB session through the real store and is killed mid-write.
    const bundled = join(ws, "store.mjs");
    buildSync({
      entryPoints: [resolve(import.meta.dirname, "../../src/session/store.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: bundled,
      logLevel: "silent",
    });
    const script = `
      import { saveSession } from ${JSON.stringify(bundled)};
      const big = "x".repeat(1024 * 1024);
      const data = { version: 1, id: "s", createdAt: "t", updatedAt: "t", workspace: "w", model: "m", messages: Array.from({ length: 200 }, () => ({ role: "user", content: big })) };
      await saveSession(${JSON.stringify(file)}, data);
      process.send?.("finished");
    `;
    const scriptFile = join(ws, "writer.mjs");
    writeFileSync(scriptFile, script);
    const child = spawn(process.execPath, [scriptFile], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    let finished = false;
    await new Promise<void>((res) => {
      child.on("message", (m) => {
        if (m === "finished") finished = true;
      });
      // Kill as soon as the temp file appears: the write is under way.
      const poll = setInterval(() => {
        if (readdirSync(ws).some((f) => f.includes(".tmp-"))) {
          clearInterval(poll);
          child.kill("SIGKILL");
          res();
        }
      }, 2);
    });
    await new Promise((res) => child.on("close", res));
    expect(finished).toBe(false);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(old);
  });
});

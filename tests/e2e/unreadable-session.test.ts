// A session file the run cannot use (no permission, a symlink, a folder, a FIFO) is never written
// over: the run is saved to a new file and says so, the daemon too; a session folder the run may
// not list says "permission denied". The permission cases run the built program as a user that is
// not root (nobody, through setpriv, when the tests run as root: root reads a mode-000 file).
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, collect, runCli, tempDir, testEnv, type CliResult } from "../helpers/cli.js";
import { http, startDaemonProcess, type RunningDaemonProcess } from "../helpers/daemon.js";
import { startMockServer, textReply, type MockServer } from "../helpers/mock-openai.js";

let server: MockServer | undefined;
let daemon: RunningDaemonProcess | undefined;
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  await server?.close();
  server = undefined;
});

const NOBODY = 65534;
const root = process.getuid?.() === 0;

const session = (workspace: string, text: string) =>
  JSON.stringify({
    version: 1,
    id: "s",
    createdAt: "t",
    updatedAt: "t",
    workspace,
    model: "m",
    messages: [{ role: "user", content: text }],
  });

/** A folder the unprivileged user owns (when the tests run as root). */
function ownedDir(prefix: string): string {
  const dir = tempDir(prefix);
  if (root) chownSync(dir, NOBODY, NOBODY);
  return dir;
}

/**
 * The checkout may lie in a folder only root may enter (`mktemp -d` makes mode 700, as a CI clone
 * may be): nobody is let through (search only, never read) the folders above the built program,
 * so that it can start at all.
 */
function letNobodyReach(path: string): void {
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    const mode = statSync(dir).mode & 0o7777;
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
  }
}

/** Runs the built program as a user that is not root: nobody when we are root, else ourselves. */
function runUnprivileged(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  if (root) letNobodyReach(CLI);
  const command = root
    ? ["setpriv", "--reuid", String(NOBODY), "--regid", String(NOBODY), "--clear-groups", process.execPath, CLI]
    : [process.execPath, CLI];
  return collect(
    spawn(command[0]!, [...command.slice(1), ...args], {
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

function unprivilegedEnv(url: string): Record<string, string | undefined> {
  const home = ownedDir("nh-home-");
  return testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: url, NANOHERMES_HOME: home, HOME: home });
}

describe("a session file the run cannot use is never written over", () => {
  it("one it may not read (left by sudo): the run goes on in a new file and names the old one", async () => {
    server = await startMockServer([textReply("answered")]);
    const ws = ownedDir("nh-ws-");
    const file = join(ws, "s.json");
    // Root's file, unreadable to anyone else, in a folder the user may write in.
    writeFileSync(file, session(ws, "root's turn"), { mode: 0o600 });
    chmodSync(file, root ? 0o600 : 0o000);
    const before = readFileSync(file, "utf8");
    const env = unprivilegedEnv(server.url);
    const r = await runUnprivileged(["-p", "next", "-C", ws, "--session", file, "--json"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^warn: session .*s\.json is not overwritten: it cannot be read \(permission denied \(EACCES\)\)\. This run is saved as .*\.json$/m,
    );
    if (!root) chmodSync(file, 0o600);
    expect(readFileSync(file, "utf8")).toBe(before);
    if (root) expect(statSync(file).uid).toBe(0);
    const out = JSON.parse(r.stdout) as { sessionFile: string; reason: string };
    expect(out.sessionFile).not.toBe(file);
    expect(out.sessionFile.startsWith(join(env.NANOHERMES_HOME!, "sessions"))).toBe(true);
  });

  it.each([
    ["a symbolic link", "a symbolic link"],
    ["a folder", "a directory"],
    ["a FIFO", "a FIFO \\(named pipe\\)"],
  ])("%s: refused by name, left in place, the run saved elsewhere", async (what, named) => {
    server = await startMockServer([textReply("answered")]);
    const ws = tempDir();
    const file = join(ws, "s.json");
    const target = join(ws, "target.json");
    writeFileSync(target, session(ws, "the link's turn"));
    if (what === "a symbolic link") symlinkSync(target, file);
    else if (what === "a folder") mkdirSync(file);
    else execFileSync("mkfifo", [file]);
    const env = testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.url });
    const r = await runCli(["-p", "next", "-C", ws, "--session", file, "--json"], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `^warn: session .*s\\.json is not overwritten: it cannot be read \\(it is ${named}, not a regular file\\)\\. This run is saved as .*\\.json$`,
        "m",
      ),
    );
    const st = lstatSync(file);
    if (what === "a symbolic link") expect(readlinkSync(file)).toBe(target);
    else if (what === "a folder") expect(st.isDirectory()).toBe(true);
    else expect(st.isFIFO()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe(session(ws, "the link's turn"));
    const out = JSON.parse(r.stdout) as { sessionFile: string };
    expect(out.sessionFile).not.toBe(file);
    expect(readFileSync(out.sessionFile, "utf8")).toContain("answered");
  });

  it("the daemon leaves a linked session file alone and says so, in the answer and on stderr", async () => {
    server = await startMockServer([textReply("answered")]);
    const elsewhere = tempDir();
    const target = join(elsewhere, "target.json");
    writeFileSync(target, session(elsewhere, "elsewhere"));
    const sessionDir = join(tempDir("nh-sessions-"), "sessions");
    mkdirSync(sessionDir, { mode: 0o700 });
    symlinkSync(target, join(sessionDir, "linked.json"));
    daemon = await startDaemonProcess({ modelUrl: server.url, sessionDir });
    const r = await http(daemon.url, "/", {
      headers: { "X-Session-Id": "linked", "Content-Type": "application/json" },
      body: JSON.stringify({ prompt: "next" }),
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.response).toBe("answered");
    expect(r.json.warnings).toEqual([
      expect.stringMatching(
        /linked\.json is not overwritten: it cannot be read \(it is a symbolic link, not a regular file\)/,
      ),
    ]);
    expect(daemon.stderr()).toMatch(/session linked: warning: session .*linked\.json is not overwritten/);
    expect(readlinkSync(join(sessionDir, "linked.json"))).toBe(target);
    expect(readFileSync(target, "utf8")).toBe(session(elsewhere, "elsewhere"));
  });
});

describe("a refused session is forked once", () => {
  it("the daemon, started again, goes on in the fork it made the first time (not one more), and says so", async () => {
    server = await startMockServer((req) =>
      textReply(`${String((req.messages as { content?: unknown }[]).at(-1)?.content)} done`),
    );
    const elsewhere = tempDir();
    const target = join(elsewhere, "target.json");
    writeFileSync(target, session(elsewhere, "elsewhere"));
    const sessionDir = join(tempDir("nh-sessions-"), "sessions");
    mkdirSync(sessionDir, { mode: 0o700 });
    symlinkSync(target, join(sessionDir, "linked.json"));
    const home = tempDir("nh-home-");
    const workspace = tempDir("nh-ws-");
    const turn = (prompt: string) =>
      http(daemon!.url, "/", {
        headers: { "X-Session-Id": "linked", "Content-Type": "application/json" },
        body: JSON.stringify({ prompt }),
      });
    const forks = () => readdirSync(sessionDir).filter((n) => n.endsWith(".json") && n !== "linked.json");

    daemon = await startDaemonProcess({ modelUrl: server.url, sessionDir, home, workspace });
    const first = await turn("one");
    expect(first.status, first.text).toBe(200);
    expect(first.json.warnings).toEqual([
      expect.stringMatching(/linked\.json is not overwritten: .*symbolic link.*This run is saved as \S+\.json$/),
    ]);
    const fork = /saved as (\S+\.json)$/.exec(first.json.warnings[0])![1]!;
    expect(await daemon.stop()).toBe(0);

    // Loaded again by a new daemon: the same fork goes on, with the first turn in it.
    daemon = await startDaemonProcess({ modelUrl: server.url, sessionDir, home, workspace });
    const second = await turn("two");
    expect(second.status, second.text).toBe(200);
    expect(second.json.warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `linked\\.json is not overwritten: .*This run goes on in ${fork}, where it was saved when first refused$`,
        ),
      ),
    ]);
    expect(daemon.stderr()).toMatch(/session linked: warning: .*goes on in .*where it was saved when first refused/);
    const sent = server.requests.at(-1)!.messages as { role: string; content?: unknown }[];
    expect(sent.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["one", "two"]);
    // One fork, in the daemon's own folder (so it serves it too).
    expect(forks()).toEqual([basename(fork)]);
    expect(dirname(fork)).toBe(sessionDir);
    // The refused link and what it points at are as they were.
    expect(readlinkSync(join(sessionDir, "linked.json"))).toBe(target);
    expect(readFileSync(target, "utf8")).toBe(session(elsewhere, "elsewhere"));
  });

  it("a one-shot run on the same refused --session FILE goes on in its first fork", async () => {
    server = await startMockServer((req) =>
      textReply(`${String((req.messages as { content?: unknown }[]).at(-1)?.content)} done`),
    );
    const ws = tempDir();
    const file = join(ws, "s.json");
    mkdirSync(file);
    const env = testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.url });
    const one = await runCli(["-p", "one", "-C", ws, "--session", file, "--json"], { env });
    expect(one.code, one.stderr).toBe(0);
    const forkFile = (JSON.parse(one.stdout) as { sessionFile: string }).sessionFile;
    const two = await runCli(["-p", "two", "-C", ws, "--session", file, "--json"], { env });
    expect(two.code, two.stderr).toBe(0);
    expect((JSON.parse(two.stdout) as { sessionFile: string }).sessionFile).toBe(forkFile);
    expect(two.stderr).toMatch(
      /is not overwritten: .*a directory.*This run goes on in .*where it was saved when first refused/,
    );
    const saved = JSON.parse(readFileSync(forkFile, "utf8")) as { messages: { role: string; content?: unknown }[] };
    expect(saved.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["one", "two"]);
    expect(lstatSync(file).isDirectory()).toBe(true);
  });
});

describe("a session folder the run may not list", () => {
  it.each([["--continue"], ["--resume", "abc"]])("%s says permission denied (exit 1)", async (...flag) => {
    const env = unprivilegedEnv("http://127.0.0.1:9");
    const sessions = join(env.NANOHERMES_HOME!, "sessions");
    mkdirSync(sessions, { mode: 0o700 });
    // Root's folder when we are root; a folder nobody may list otherwise.
    if (!root) chmodSync(sessions, 0o000);
    const r = await runUnprivileged(["-p", "x", "-C", env.NANOHERMES_HOME!, ...flag], env);
    if (!root) chmodSync(sessions, 0o700);
    expect(r.stderr).toMatch(/^nanohermes: cannot read the session folder .*sessions: permission denied \(EACCES\)$/m);
    expect(r.code).toBe(1);
  });
});

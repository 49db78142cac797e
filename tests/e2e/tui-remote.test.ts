// Remote tasks in a real terminal: `nanohermes attach` on a real daemon (its Unix socket), a turn
// that outlives the UI (killed with SIGHUP, as a dropped SSH connection does), picked up again by
// a second attach, and stopped with Ctrl-C; `/remote` adds a daemon's session to the local UI.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir, testEnv } from "../helpers/cli.js";
import { http, startDaemonProcess, type RunningDaemonProcess } from "../helpers/daemon.js";
import {
  startMockServer,
  textReply,
  toolReply,
  type MockServer,
  type RecordedRequest,
} from "../helpers/mock-openai.js";
import { keys, PtyApp } from "../helpers/pty.js";

let model: MockServer | undefined;
let daemon: RunningDaemonProcess | undefined;
const apps: PtyApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) if (app.exitCode === null) app.kill("SIGKILL");
  await daemon?.stop("SIGKILL");
  daemon = undefined;
  await model?.close();
  model = undefined;
});

function lastMessage(req: RecordedRequest): { role: string; content: string } {
  const last = (req.messages as { role: string; content: unknown }[]).at(-1)!;
  return { role: last.role, content: String(last.content) };
}

/** "sleep" prompts run a 3 s command, then answer slowly; anything else is echoed. */
async function scriptedModel(): Promise<MockServer> {
  return startMockServer((req) => {
    const last = lastMessage(req);
    if (last.role === "tool")
      return textReply(`The long job is over. ${"Counting sheep. ".repeat(12)}ALLDONE.`, { tokensPerSecond: 60 });
    if (last.content.includes("sleep"))
      return toolReply([{ name: "run_command", args: { command: "sleep 3; echo woke" } }]);
    return textReply(`Hello back: ${last.content}`);
  });
}

function app(cols: number, rows: number, home: string, args: string[], cwd = tempDir()): PtyApp {
  const a = new PtyApp({ cols, rows, cwd, env: testEnv({ NANOHERMES_HOME: home, OPENAI_API_KEY: "sk-test" }), args });
  apps.push(a);
  return a;
}

describe.each([
  [80, 24],
  [50, 20],
])("nanohermes attach at %ix%i", (cols, rows) => {
  it("a turn outlives the UI, a second attach picks it up live, and Ctrl-C stops a remote turn", async () => {
    model = await scriptedModel();
    const home = tempDir("nh-home-");
    daemon = await startDaemonProcess({ modelUrl: model.url, home });

    const first = app(cols, rows, home, ["attach"]);
    await first.waitFor("attached to unix:");
    await first.typeSlowly("please sleep");
    first.type(keys.enter);
    await first.waitFor(/run_command sleep 3/);
    // The SSH connection drops: the terminal hangs up on the UI.
    first.kill("SIGHUP");
    await first.exit();
    expect((await http(daemon.url, "/health")).json.running).toBe(1);

    const second = app(cols, rows, home, ["attach"]);
    // The running session is the one shown, with what happened while nobody watched.
    let screen = await second.waitFor(/run_command sleep 3/);
    expect(screen).toContain("› please sleep");
    screen = await second.waitFor("ALLDONE.", 20_000);
    expect(screen).toContain("The long job is over.");
    expect(second.lines().every((l) => l.length <= cols)).toBe(true);
    if (cols >= 80) expect(screen).toContain("⇄");
    expect(model.requests).toHaveLength(2);

    // A remote turn stops like a local one: Ctrl-C, then it ends after the running command.
    await second.typeSlowly("sleep again");
    second.type(keys.enter);
    await second.waitFor((s) => (s.match(/run_command sleep 3/g) ?? []).length >= 2);
    second.type(keys.ctrl("c"));
    await second.waitFor("stopping after this step");
    screen = await second.waitFor(/■ stopped/, 15_000);
    // A deliberate window: a request after the stop would come in it; nothing marks one that does not.
    await new Promise((r) => setTimeout(r, 500));
    // Stopped at the step boundary: the model was not asked again after the command.
    expect(model.requests).toHaveLength(3);
    expect(daemon.stderr()).toMatch(/cancel requested/);

    // Quitting the UI leaves the daemon and its sessions alone.
    second.type(keys.ctrl("d"));
    await second.exit();
    expect((await http(daemon.url, "/health")).json).toMatchObject({ status: "ok", sessions: 1 });
  });
});

describe("approvals on a daemon", () => {
  it("an attached UI answers the daemon's approval inline", async () => {
    model = await startMockServer((req) => {
      const last = lastMessage(req);
      if (last.role === "tool") return textReply("made the remote file");
      return toolReply([{ name: "run_command", args: { command: "touch approved-remote.txt" } }]);
    });
    const home = tempDir("nh-home-");
    daemon = await startDaemonProcess({ modelUrl: model.url, home, args: ["--approval", "on-request"] });
    const ui = app(80, 24, home, ["attach"]);
    await ui.waitFor("attached to unix:");
    await ui.typeSlowly("make a file");
    ui.type(keys.enter);
    const screen = await ui.waitFor(/Approval needed/);
    expect(screen).toContain("touch approved-remote.txt");
    expect(screen).toMatch(/y once/);
    await ui.answer("y");
    await ui.waitFor("made the remote file");
    expect(existsSync(join(daemon.workspace, "approved-remote.txt"))).toBe(true);
    ui.type(keys.ctrl("d"));
    await ui.exit();
  });
});

describe("remote tasks in the local UI", () => {
  it("/remote adds a daemon's session with its token; a wrong token is reported, nothing is added", async () => {
    model = await scriptedModel();
    const tokenDir = tempDir("nh-token-");
    const token = join(tokenDir, "token");
    const wrong = join(tokenDir, "wrong");
    writeFileSync(token, "s3cret-token\n", { mode: 0o600 });
    writeFileSync(wrong, "not-it\n", { mode: 0o600 });
    daemon = await startDaemonProcess({ modelUrl: model.url, args: ["--daemon-token-file", token] });
    await http(daemon.url, "/", {
      body: JSON.stringify({ prompt: "earlier remote question" }),
      headers: { Authorization: "Bearer s3cret-token", "X-Session-Id": "shared" },
    });

    const localHome = tempDir("nh-home-");
    const ws = tempDir("nh-ws-");
    const local = app(80, 24, localHome, [], ws);
    await local.waitFor("Ask anything");
    await local.typeSlowly(`/remote ${daemon.url} ${wrong} shared`);
    local.type(keys.enter);
    await local.waitFor("/remote: wrong token");
    expect(local.screen()).toContain("Tasks 1");

    await local.typeSlowly(`/remote ${daemon.url} ${token} shared`);
    local.type(keys.enter);
    let screen = await local.waitFor("Hello back: earlier remote question");
    expect(screen).toContain("Tasks 2");
    expect(screen).toContain("⇄");
    await local.typeSlowly("and now?");
    local.type(keys.enter);
    screen = await local.waitFor("Hello back: and now?");
    // The turn ran on the daemon, in that session.
    expect(JSON.stringify(model.requests.at(-1)!.messages)).toContain("earlier remote question");
    local.type(keys.ctrl("d"));
    await local.exit();
    // Remembered without the token itself.
    const remembered = readFileSync(join(localHome, "remotes.json"), "utf8");
    expect(remembered).toContain(token);
    expect(remembered).not.toContain("s3cret-token");

    // The next start lists it again; opened, it connects and shows the conversation.
    const again = app(80, 24, localHome, [], ws);
    await again.waitFor(/Tasks 2/);
    expect(again.screen()).toMatch(/earlier re.*⇄/);
    again.type(keys.ctrl("o"));
    screen = await again.waitFor("Hello back: and now?");
    expect(screen).toContain("⇄ remote");
    again.type(keys.ctrl("d"));
    await again.exit();
  });
});

// A second UI on a session another process holds (a UI that has it open, the daemon) says so as
// soon as it opens it, before anything is typed, naming who (pid@host) and what to do; a prompt
// sent meanwhile is not run and stays in the input; once the holder lets go the UI says the
// session is free and the same prompt runs on top of the other's turn. Real terminals (node-pty,
// headless xterm), the built program, the daemon as a real process.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir, testEnv } from "../helpers/cli.js";
import { http, startDaemonProcess, type RunningDaemonProcess } from "../helpers/daemon.js";
import { startMockServer, textReply, type MockServer, type RecordedRequest } from "../helpers/mock-openai.js";
import { keys, PtyApp } from "../helpers/pty.js";

let server: MockServer | undefined;
let daemon: RunningDaemonProcess | undefined;
const apps: PtyApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) if (app.exitCode === null) app.kill("SIGKILL");
  await daemon?.stop();
  daemon = undefined;
  await server?.close();
  server = undefined;
});

type Msg = { role: string; content?: unknown };
const userTurns = (req: RecordedRequest) =>
  (req.messages as Msg[]).filter((m) => m.role === "user").map((m) => m.content);
const lastPrompt = (req: RecordedRequest) => String(userTurns(req).at(-1));
/** The screen's words without the wrapping: a line in the transcript may break anywhere. */
const flat = (screen: string) => screen.replace(/\s*\n\s*│?\s*/g, " ").replace(/\s+/g, " ");

function open(args: string[], cwd: string, env: Record<string, string | undefined>): PtyApp {
  const app = new PtyApp({ cols: 100, rows: 30, cwd, env, args });
  apps.push(app);
  return app;
}

/** The composer's row, `› TEXT`, or "" when the input is empty (the hint shows then). */
const composerRow = (app: PtyApp) => app.lines().findLast((l) => /│› |^› /.test(l)) ?? "";

describe("a second UI on a busy session", () => {
  it("another UI has it open: said before typing (pid@host); a prompt stays in the input until that UI quits, then runs", async () => {
    server = await startMockServer((req) => textReply(`${lastPrompt(req)} done`));
    const env = testEnv({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url, NANOHERMES_MODEL: "mock-model" });
    const ws = tempDir();
    const session = join(ws, "s.json");

    const first = open(["--session", session], ws, env);
    await first.waitFor("Ask anything");
    await first.typeSlowly("first");
    first.type(keys.enter);
    await first.waitFor("first done");

    const second = open(["--session", session], ws, env);
    // Before anything is typed: who holds it, where, and what to do.
    const said = flat(
      await second.waitFor((s) =>
        flat(s).includes(`open in another NanoHermes UI (pid ${first.pty.pid}@${hostname()})`),
      ),
    );
    expect(said).toContain("close the session there");
    expect(said).toContain("what you type here stays in the input until then");

    await second.typeSlowly("keep me");
    second.type(keys.enter);
    await second.waitFor((s) => flat(s).includes("not sent (your text is still in the input)"));
    expect(composerRow(second)).toContain("› keep me");
    // Nothing went to the model from the second UI.
    expect(server.requests.map(lastPrompt)).toEqual(["first"]);

    first.type(keys.ctrl("d"));
    expect(await first.exit()).toBe(0);
    await second.waitFor((s) => flat(s).includes("this session is free now"));
    expect(composerRow(second)).toContain("› keep me");
    second.type(keys.enter);
    await second.waitFor("keep me done");
    // The prompt ran on top of the first UI's turn, which is whole in the file.
    expect(userTurns(server.requests.at(-1)!)).toEqual(["first", "keep me"]);
    second.type(keys.ctrl("d"));
    expect(await second.exit()).toBe(0);
    const saved = JSON.parse(readFileSync(session, "utf8")) as { messages: Msg[] };
    expect(saved.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["first", "keep me"]);
  }, 60_000);

  it("the daemon, asked for a turn on a session a UI has open, answers why it was not run", async () => {
    server = await startMockServer((req) => textReply(`${lastPrompt(req)} done`));
    daemon = await startDaemonProcess({ modelUrl: server.url });
    const session = join(daemon.sessionDir, "shared.json");
    const env = testEnv({
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: server.url,
      NANOHERMES_MODEL: "mock-model",
      NANOHERMES_HOME: daemon.home,
    });
    const ui = open(["--session", session], daemon.workspace, env);
    await ui.waitFor("Ask anything");
    await ui.typeSlowly("from the UI");
    ui.type(keys.enter);
    await ui.waitFor("from the UI done");
    const r = await http(daemon.url, "/", {
      headers: { "X-Session-Id": "shared", "Content-Type": "application/json" },
      body: JSON.stringify({ prompt: "from the daemon" }),
    });
    expect(r.json.reason, r.text).toBe("error");
    expect(r.json.error).toBe(
      `not sent: this session is open in another NanoHermes UI (pid ${ui.pty.pid}@${hostname()}): close the session there (quit, or /new there) and send here`,
    );
    expect(server.requests.map(lastPrompt)).toEqual(["from the UI"]);
  }, 60_000);

  it("the daemon has it open: the UI names the daemon (pid@host) before typing and keeps the prompt", async () => {
    server = await startMockServer((req) => textReply(`${lastPrompt(req)} done`));
    daemon = await startDaemonProcess({ modelUrl: server.url });
    const r = await http(daemon.url, "/", {
      headers: { "X-Session-Id": "shared", "Content-Type": "application/json" },
      body: JSON.stringify({ prompt: "on the daemon" }),
    });
    expect(r.status, r.text).toBe(200);
    const session = join(daemon.sessionDir, "shared.json");
    const env = testEnv({
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: server.url,
      NANOHERMES_MODEL: "mock-model",
      NANOHERMES_HOME: daemon.home,
    });
    const ui = open(["--session", session], daemon.workspace, env);
    const said = flat(
      await ui.waitFor((s) =>
        flat(s).includes(`open in the NanoHermes daemon (pid ${daemon!.child.pid}@${hostname()})`),
      ),
    );
    expect(said).toContain("nanohermes attach");
    await ui.typeSlowly("from the UI");
    ui.type(keys.enter);
    await ui.waitFor((s) => flat(s).includes("not sent (your text is still in the input)"));
    expect(composerRow(ui)).toContain("› from the UI");
    expect(server.requests.map(lastPrompt)).toEqual(["on the daemon"]);
  }, 60_000);
});

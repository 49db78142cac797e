// The daemon's server in-process (fast paths the process tests cannot reach): keep-alive
// comments on an idle stream, and a dangerous command refused (not left waiting for an answer).
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { noExtensions } from "../../src/agent/extensions.js";
import { startDaemonServer, type DaemonServer } from "../../src/daemon/server.js";
import { DaemonSessions } from "../../src/daemon/sessions.js";
import { tempDir } from "../helpers/cli.js";
import { http, openEvents } from "../helpers/daemon.js";
import { startMockServer, textReply, toolReply, type MockServer } from "../helpers/mock-openai.js";
import { testSettings } from "../helpers/settings.js";

let server: DaemonServer | undefined;
let sessions: DaemonSessions | undefined;
let model: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  await sessions?.shutdown();
  await model?.close();
  server = sessions = model = undefined;
});

async function start(script: Parameters<typeof startMockServer>[0], pingMs = 15_000): Promise<DaemonServer> {
  model = await startMockServer(script);
  const settings = testSettings({ baseUrl: model.url, apiKey: "k" });
  sessions = new DaemonSessions({ settings, sessionDir: join(tempDir(), "sessions"), extensions: Promise.resolve(noExtensions()) });
  await sessions.init();
  server = await startDaemonServer({ sessions, port: 0, host: "127.0.0.1", token: null, socketPath: null, pingMs });
  return server;
}

describe("the daemon server", () => {
  it("sends a keep-alive comment on an idle event stream", async () => {
    const d = await start(() => textReply("x"), 50);
    const stream = await openEvents(d.url, "/v1/sessions/quiet/events");
    await new Promise((r) => setTimeout(r, 400));
    stream.close();
    // The snapshot (task.updated, session.loaded) is all the data; pings are comments, not events.
    expect(stream.events.map((e) => e.type)).toEqual(["task.updated", "session.loaded"]);
    expect(stream.messages).toHaveLength(2);
    const res = await fetch(`${d.url}/v1/sessions/quiet/events`);
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes(": ping")) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
  });

  it("refuses a dangerous command on its own (nobody can approve it) and finishes the turn", async () => {
    const d = await start((req) => {
      const last = (req.messages as { role: string; content: string }[]).at(-1)!;
      if (last.role === "tool") return textReply(`tool said: ${last.content.slice(0, 200)}`);
      return toolReply([{ name: "run_command", args: { command: "rm -rf ~/" } }]);
    });
    const answer = await http(d.url, "/", { body: JSON.stringify({ prompt: "clean up" }) });
    expect(answer.status).toBe(200);
    expect(answer.json.reason).toBe("completed");
    expect(answer.json.response).toMatch(/tool said: .*needs approval .*nobody can answer here/);
  });
});

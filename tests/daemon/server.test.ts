// The daemon's server in-process (fast paths the process tests cannot reach): keep-alive
// comments on an idle stream, and a dangerous command refused (not left waiting for an answer).
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { noExtensions } from "../../src/agent/extensions.js";
import { startDaemonServer, type DaemonServer } from "../../src/daemon/server.js";
import { DaemonSessions } from "../../src/daemon/sessions.js";
import { tempDir } from "../helpers/cli.js";
import { http, openEvents } from "../helpers/daemon.js";
import { startMockServer, textReply, toolReply, type MockServer } from "../helpers/mock-openai.js";
import { testSettings } from "../helpers/settings.js";
import { waitFor } from "../helpers/wait.js";
import type { Settings } from "../../src/config/schema.js";

let server: DaemonServer | undefined;
let sessions: DaemonSessions | undefined;
let model: MockServer | undefined;
let sessionDir = "";
afterEach(async () => {
  await server?.close();
  await sessions?.shutdown();
  await model?.close();
  server = sessions = model = undefined;
});

async function start(
  script: Parameters<typeof startMockServer>[0],
  pingMs = 15_000,
  over: Partial<Settings> = {},
): Promise<DaemonServer> {
  model = await startMockServer(script);
  const settings = testSettings({ baseUrl: model.url, apiKey: "k", ...over });
  sessionDir = join(tempDir(), "sessions");
  sessions = new DaemonSessions({
    settings,
    sessionDir,
    extensions: Promise.resolve(noExtensions()),
    approvalWaitMs: 300,
  });
  await sessions.init();
  server = await startDaemonServer({ sessions, port: 0, host: "127.0.0.1", token: null, socketPath: null, pingMs });
  return server;
}

describe("the daemon server", () => {
  it("sends a keep-alive comment on an idle event stream", async () => {
    const d = await start(() => textReply("x"), 50);
    const stream = await openEvents(d.url, "/v1/sessions/quiet/events");
    await waitFor(() => stream.messages.some((m) => m.event === "ready"), { what: "the catch-up's end" });
    // A second, raw connection opened later sees the pings: once it has two, the first one (pinged
    // as often, for longer) has had its pings too.
    const res = await fetch(`${d.url}/v1/sessions/quiet/events`);
    const reader = res.body!.getReader();
    let text = "";
    while ((text.match(/^: ping/gm) ?? []).length < 2) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    stream.close();
    // The snapshot (task.updated, session.loaded) is all the data; pings are comments, not events.
    expect(stream.events.map((e) => e.type)).toEqual(["task.updated", "session.started", "session.loaded"]);
    // ...after the stream's version line, and then the mark that the catch-up is over.
    expect(stream.messages.map((m) => m.event)).toEqual([
      "observer.started",
      "task.updated",
      "session.started",
      "session.loaded",
      "ready",
    ]);
    expect(JSON.parse(stream.messages[0]!.data)).toMatchObject({ schema: "nanohermes.observer.v1", taskId: "quiet" });
    expect(JSON.parse(stream.messages[4]!.data)).toEqual({ snapshot: true });
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
  });

  it("POST / reports a turn whose session could not be saved: 500, reason save_failed, and why", async () => {
    const d = await start([textReply("first"), textReply("second")]);
    const headers = { "X-Session-Id": "kept" };
    const first = await http(d.url, "/", { method: "POST", headers, body: JSON.stringify({ prompt: "one" }) });
    expect(first.status).toBe(200);
    expect(first.json.saveError).toBeUndefined();
    // The session folder becomes a file: the next save cannot be written.
    rmSync(sessionDir, { recursive: true });
    writeFileSync(sessionDir, "not a folder\n");
    const second = await http(d.url, "/", { method: "POST", headers, body: JSON.stringify({ prompt: "two" }) });
    expect(second.status).toBe(500);
    expect(second.json.response).toBe("second");
    expect(second.json.reason).toBe("save_failed");
    expect(second.json.saveError).toMatch(/ENOTDIR|EEXIST|ENOENT/);
  });

  it("refuses a dangerous command on its own (nobody can approve it) and finishes the turn", async () => {
    const d = await start((req) => {
      const last = (req.messages as { role: string; content: string }[]).at(-1)!;
      if (last.role === "tool") return textReply(`tool said: ${last.content.slice(0, 200)}`);
      return toolReply([{ name: "run_command", args: { command: "rm -rf ~/projects" } }]);
    });
    const answer = await http(d.url, "/", { body: JSON.stringify({ prompt: "clean up" }) });
    expect(answer.status).toBe(200);
    expect(answer.json.reason).toBe("completed");
    expect(answer.json.response).toMatch(/tool said: .*needs approval .*nobody can answer here/);
  });

  it("denies an approval nobody answers once the front end detached and did not come back", async () => {
    const d = await start(
      (req) => {
        const last = (req.messages as { role: string; content: string }[]).at(-1)!;
        if (last.role === "tool") return textReply(`tool said: ${last.content.slice(0, 200)}`);
        return toolReply([{ name: "run_command", args: { command: "touch x.txt" } }]);
      },
      15_000,
      { approval: "on-request" },
    );
    const watcher = await openEvents(d.url, "/v1/sessions/o/events");
    await watcher.waitFor((e) => e.type === "session.loaded");
    const turn = http(d.url, "/", { body: JSON.stringify({ prompt: "go" }), headers: { "X-Session-Id": "o" } });
    await watcher.waitFor((e) => e.type === "approval.requested");
    watcher.close();
    const answer = await turn;
    expect(answer.json.response).toMatch(/tool said: .*nobody answered within 0 min \(the front end detached\)/);
  });

  it("keeps an approval waiting for a front end that comes back in time", async () => {
    const d = await start(
      (req) => {
        const last = (req.messages as { role: string; content: string }[]).at(-1)!;
        if (last.role === "tool") return textReply("ran it");
        return toolReply([{ name: "run_command", args: { command: "touch y.txt" } }]);
      },
      15_000,
      { approval: "on-request" },
    );
    const first = await openEvents(d.url, "/v1/sessions/b/events");
    await first.waitFor((e) => e.type === "session.loaded");
    const turn = http(d.url, "/", { body: JSON.stringify({ prompt: "go" }), headers: { "X-Session-Id": "b" } });
    await first.waitFor((e) => e.type === "approval.requested");
    first.close();
    // A deliberate window: the daemon sees the detach and starts the approval's clock (nothing
    // public tells when it has).
    await new Promise((r) => setTimeout(r, 100));
    // Reattached: the snapshot replays the question, and the answer still counts.
    const second = await openEvents(d.url, "/v1/sessions/b/events");
    const asked = await second.waitFor((e) => e.type === "approval.requested");
    // A deliberate window longer than approvalWaitMs (300): the approval must outlast it.
    await new Promise((r) => setTimeout(r, 400));
    expect(
      (
        await http(d.url, "/v1/sessions/b/commands", {
          body: JSON.stringify({ type: "approval.reply", requestId: asked.requestId, decision: "once" }),
        })
      ).status,
    ).toBe(202);
    expect((await turn).json.response).toBe("ran it");
    second.close();
  });

  it("unloads idle sessions nobody watches, and loads them again with their history", async () => {
    const d = await start((req) => textReply(`seen ${(req.messages as unknown[]).length}`));
    await http(d.url, "/", { body: JSON.stringify({ prompt: "one" }), headers: { "X-Session-Id": "idle" } });
    const watcher = await openEvents(d.url, "/v1/sessions/watched/events");
    await watcher.waitFor((e) => e.type === "session.loaded");
    expect(sessions!.manager.loadedAgent("idle")).not.toBeNull();
    // A session with a front end attached stays; the idle one goes.
    expect(await sessions!.unloadIdle(0)).toBe(1);
    expect(sessions!.manager.loadedAgent("idle")).toBeNull();
    expect(sessions!.manager.loadedAgent("watched")).not.toBeNull();
    const again = await http(d.url, "/", {
      body: JSON.stringify({ prompt: "two" }),
      headers: { "X-Session-Id": "idle" },
    });
    // system, one, answer, two: the history came back from the file.
    expect(again.json.response).toBe("seen 4");
    // A reconnect with an id from before the unload gets a fresh snapshot.
    const stream = await openEvents(d.url, "/v1/sessions/idle/events", {
      headers: { "Last-Event-ID": `${sessions!.boot}.1` },
    });
    const loaded = await stream.waitFor((e) => e.type === "session.loaded");
    expect(loaded.messages).toHaveLength(4);
    stream.close();
    watcher.close();
  });
});

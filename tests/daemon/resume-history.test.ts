// The daemon's session view is rebuilt from the typed history: a front end attaching to a session
// (a loaded one, and one read back from its file after the daemon unloaded it) gets session.loaded
// with each tool card's kind, summary and state, its arguments and result joined in; the session
// detail carries the same history.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { noExtensions } from "../../src/agent/extensions.js";
import { startDaemonServer, type DaemonServer } from "../../src/daemon/server.js";
import { DaemonSessions } from "../../src/daemon/sessions.js";
import type { HistoryItem } from "../../src/protocol/history.js";
import { tempDir } from "../helpers/cli.js";
import { http, openEvents } from "../helpers/daemon.js";
import { startMockServer, textReply, toolReply, type MockServer } from "../helpers/mock-openai.js";
import { testSettings } from "../helpers/settings.js";
import { waitFor } from "../helpers/wait.js";

let server: DaemonServer | undefined;
let sessions: DaemonSessions | undefined;
let model: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  await sessions?.shutdown();
  await model?.close();
  server = sessions = model = undefined;
});

const cards = (items: HistoryItem[]) =>
  items.flatMap((it) =>
    it.type === "tool"
      ? [{ name: it.name, kind: it.kind, summary: it.summary, status: it.status, args: it.args, forModel: it.forModel }]
      : [],
  );

describe("the daemon's session view", () => {
  it("comes from the typed history, before and after the session is unloaded", async () => {
    model = await startMockServer((req) => {
      const msgs = req.messages as { role: string; content: string }[];
      const last = msgs.at(-1)!;
      if (last.role === "tool") return textReply(`after ${last.content.slice(0, 40)}`);
      if (last.content === "write")
        return toolReply([
          { name: "write_file", args: { path: "notes.txt", content: "alpha\n" } },
          { name: "run_command", args: { command: "echo hi" } },
        ]);
      return toolReply([{ name: "run_command", args: { command: "rm -rf ~/projects" } }]);
    });
    const settings = testSettings({ baseUrl: model.url, apiKey: "k" });
    sessions = new DaemonSessions({
      settings,
      sessionDir: join(tempDir(), "sessions"),
      extensions: Promise.resolve(noExtensions()),
      approvalWaitMs: 300,
    });
    await sessions.init();
    server = await startDaemonServer({
      sessions,
      port: 0,
      host: "127.0.0.1",
      token: null,
      socketPath: null,
      pingMs: 15_000,
    });
    const url = server.url;
    for (const prompt of ["write", "clean up"]) {
      const answer = await http(url, "/", { body: JSON.stringify({ prompt }), headers: { "X-Session-Id": "h" } });
      expect(answer.json.reason).toBe("completed");
    }
    const expected = [
      {
        name: "write_file",
        kind: "edit",
        summary: expect.stringContaining("notes.txt"),
        status: "ok",
        args: { path: "notes.txt", content: "alpha\n" },
        forModel: expect.any(String),
      },
      {
        name: "run_command",
        kind: "exec",
        summary: "echo hi",
        status: "ok",
        args: { command: "echo hi" },
        forModel: expect.stringContaining("hi"),
      },
      {
        name: "run_command",
        kind: "exec",
        summary: "rm -rf ~/projects",
        status: "denied",
        args: { command: "rm -rf ~/projects" },
        forModel: expect.stringContaining("approval"),
      },
    ];

    const attach = async (): Promise<HistoryItem[]> => {
      const stream = await openEvents(url, "/v1/sessions/h/events");
      const loaded = await stream.waitFor((e) => e.type === "session.loaded");
      stream.close();
      return loaded.type === "session.loaded" ? loaded.transcript : [];
    };
    const live = await attach();
    expect(cards(live)).toEqual(expected);
    expect(live.filter((it) => it.type === "user").map((it) => it.type === "user" && it.text)).toEqual([
      "write",
      "clean up",
    ]);

    // The stream's end reaches the daemon a moment after close(): until then the session is watched.
    const unloaded = await waitFor(() => sessions!.unloadIdle(0), { what: "the idle session unloaded" });
    expect(unloaded).toBe(1);
    expect(cards(await attach())).toEqual(expected);
    const detail = await http(url, "/v1/sessions/h");
    expect(cards(detail.json.transcript as HistoryItem[])).toEqual(expected);
  });
});

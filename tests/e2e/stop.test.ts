// Ctrl-C (SIGINT) during a one-shot turn: the turn stops at a step boundary, the session is
// saved with a valid history, the program exits 130, and the next turn works.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { collect, startCli, runCli, tempDir, waitForOutput } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { waitFor } from "../helpers/mcp.js";
import { alive } from "../helpers/proc.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";

type Msg = { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string };

/** Every assistant tool call is followed by exactly its results. */
function assertValidHistory(messages: Msg[]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== "assistant" || !m.tool_calls?.length) continue;
    const ids = m.tool_calls.map((c) => c.id);
    const results = messages.slice(i + 1, i + 1 + ids.length);
    expect(results.map((r) => r.role)).toEqual(ids.map(() => "tool"));
    expect(results.map((r) => r.tool_call_id)).toEqual(ids);
  }
}

const sessionMessages = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as { messages: Msg[] }).messages;

describe("stopping a turn", () => {
  it("stops mid-stream: the request is aborted and nothing partial is kept", async () => {
    const ws = tempDir();
    const session = join(ws, "session.json");
    const { mock, envWith } = await e2eEnv([
      { content: "partial ".repeat(200), chunkSize: 8, chunkDelayMs: 40 },
      textReply("second turn works"),
    ]);
    const child = startCli(["-p", "write a lot", "-C", ws, "--session", session, "--stream-json"], {
      env: envWith(),
    });
    const done = collect(child);
    await waitForOutput(child, (all) => all.includes('"assistant.delta"'));
    child.kill("SIGINT");
    const r = await done;
    expect(r.code).toBe(130);
    const last = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as { type: string; reason: string };
    expect(last).toMatchObject({ type: "turn.completed", reason: "interrupted" });
    await waitFor(() => mock.aborted === 1, 10_000, "the mock saw the model request aborted");
    expect(sessionMessages(session).map((m) => m.role)).toEqual(["system", "user"]);

    const next = await runCli(["-p", "continue", "-C", ws, "--session", session], { env: envWith() });
    expect(next.code).toBe(0);
    expect(next.stdout).toBe("second turn works\n");
    const sent = mock.requests[1]!.messages as Msg[];
    expect(sent.map((m) => m.role)).toEqual(["system", "user", "user"]);
    expect(JSON.stringify(sent)).not.toContain("partial");
  });

  it("stops during a command: the command finishes, its result is kept, no further model call", async () => {
    const ws = tempDir();
    const session = join(ws, "session.json");
    const { mock, envWith } = await e2eEnv([
      toolReply([{ name: "run_command", args: { command: "sleep 1; echo finished-ok" } }]),
      textReply("next turn"),
    ]);
    const child = startCli(["-p", "run it", "-C", ws, "--session", session, "--stream-json"], { env: envWith() });
    const done = collect(child);
    await waitForOutput(child, (all) => all.includes('"tool.started"'));
    child.kill("SIGINT");
    const r = await done;
    expect(r.code).toBe(130);
    expect(mock.requests).toHaveLength(1);
    const messages = sessionMessages(session);
    assertValidHistory(messages);
    expect(messages.at(-1)).toMatchObject({ role: "tool" });
    expect(messages.at(-1)!.content).toContain("finished-ok");

    const next = await runCli(["-p", "go on", "-C", ws, "--session", session], { env: envWith() });
    expect(next.code).toBe(0);
    assertValidHistory(mock.requests[1]!.messages as Msg[]);
  });

  it("a second Ctrl-C kills the running command's process group and records [interrupted]", async () => {
    const ws = tempDir();
    const session = join(ws, "session.json");
    const { envWith } = await e2eEnv([
      toolReply([
        { name: "run_command", args: { command: "sleep 30 & echo $! > bg.pid; echo $$ > sh.pid; sleep 30" } },
      ]),
      textReply("after force stop"),
    ]);
    const child = startCli(["-p", "run it", "-C", ws, "--session", session], { env: envWith() });
    const done = collect(child);
    // Both processes are up once the shell has written their pids (a fixed wait raced under load).
    await waitFor(
      () =>
        ["bg.pid", "sh.pid"].every((f) => existsSync(join(ws, f)) && readFileSync(join(ws, f), "utf8").trim() !== ""),
      15_000,
      "pid files",
    );
    const stopping = waitForOutput(child, (all) => all.includes("stopping after this step"));
    child.kill("SIGINT");
    await stopping;
    child.kill("SIGINT");
    const r = await done;
    // 130 before the commands' own 30 s were up (the test's timeout): the group was killed.
    expect(r.code).toBe(130);
    const messages = sessionMessages(session);
    assertValidHistory(messages);
    expect(String(messages.at(-1)!.content)).toMatch(/^\[interrupted\]/);
    for (const f of ["bg.pid", "sh.pid"]) {
      const pid = Number(readFileSync(join(ws, f), "utf8"));
      expect(alive(pid), `${f} ${pid} still alive`).toBe(false);
    }
    const next = await runCli(["-p", "go on", "-C", ws, "--session", session], { env: envWith() });
    expect(next.code).toBe(0);
    expect(next.stdout).toBe("after force stop\n");
  });

  it("Ctrl-C while waiting to retry stops at once", async () => {
    const ws = tempDir();
    const { mock, envWith } = await e2eEnv([{ status: 503 }, textReply("never")]);
    const child = startCli(["-p", "hi", "-C", ws, "--retry-base-ms", "20000", "--stream-json"], {
      env: envWith(),
    });
    const done = collect(child);
    await waitForOutput(child, (all) => all.includes('"model.retrying"'));
    child.kill("SIGINT");
    const r = await done;
    expect(r.code).toBe(130);
    expect(mock.requests).toHaveLength(1);
  });
});

// SIGTERM and SIGHUP during `nh -p` (a `timeout`, a CI cancel, a dropped SSH link): the running
// command's group and the background jobs are killed, the session is saved with the turn marked
// interrupted, and the program exits 128 + signal. The same for `nanohermes tool` runs.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { collect, runCli, startCli, tempDir, testEnv, waitForOutput } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { alive } from "../helpers/proc.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { waitFor } from "../helpers/wait.js";

type Msg = { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string };

async function waitForFiles(paths: string[]): Promise<void> {
  await waitFor(() => paths.every((p) => existsSync(p) && readFileSync(p, "utf8").trim() !== ""), {
    what: `the command wrote ${paths.join(", ")}`,
  });
}

const pidIn = (file: string) => Number(readFileSync(file, "utf8"));

describe.each([
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const)("%s during a one-shot turn", (signal, code) => {
  it(`kills the commands, saves the turn as interrupted, exits ${code}, and --continue resumes it`, async () => {
    const ws = tempDir();
    const { mock, env } = await e2eEnv([
      toolReply([{ name: "run_command", args: { command: "echo $$ > job.pid; exec sleep 300", background: true } }]),
      toolReply([
        { name: "run_command", args: { command: "echo $$ > sh.pid; sleep 300 & echo $! > child.pid; sleep 300" } },
      ]),
      textReply("picked up again"),
    ]);
    const child = startCli(["-p", "start a server, then a long build", "-C", ws, "--stream-json"], { env });
    const done = collect(child);
    await waitForOutput(child, (all) => all.split('"tool.started"').length > 2);
    const pids = ["job.pid", "sh.pid", "child.pid"].map((f) => join(ws, f));
    await waitForFiles(pids);
    child.kill(signal);
    const r = await done;
    expect(r.code, r.stderr).toBe(code);

    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; reason?: string; sessionFile?: string });
    expect(events.filter((e) => e.type === "turn.completed")).toEqual([
      expect.objectContaining({ reason: "interrupted" }),
    ]);
    // The background job is stopped on the way out, after the turn.
    expect(events.at(-1)).toMatchObject({ type: "background.updated", job: { state: "killed" } });
    for (const file of pids) expect(alive(pidIn(file)), `${file} still alive`).toBe(false);

    const sessionFile = events.find((e) => e.type === "session.started")!.sessionFile!;
    const messages = (JSON.parse(readFileSync(sessionFile, "utf8")) as { messages: Msg[] }).messages;
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool"]);
    expect(String(messages[3]!.content)).toMatch(/started .* in the background/);
    expect(String(messages[5]!.content)).toMatch(/^\[interrupted\]/);
    expect(existsSync(`${sessionFile}.lock`)).toBe(false);

    const next = await runCli(["-p", "go on", "-C", ws, "--continue"], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toBe("picked up again\n");
    const sent = mock.requests[2]!.messages as Msg[];
    expect(sent.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool", "user"]);
  });
});

describe("a signal during a `tool` run", () => {
  it("SIGTERM kills the command's process group and exits 143", async () => {
    const ws = tempDir();
    const child = startCli(
      [
        "tool",
        "run_command",
        JSON.stringify({ command: "echo $$ > sh.pid; sleep 300 & echo $! > child.pid; sleep 300" }),
        "-C",
        ws,
      ],
      { env: testEnv() },
    );
    const done = collect(child);
    const pids = ["sh.pid", "child.pid"].map((f) => join(ws, f));
    await waitForFiles(pids);
    child.kill("SIGTERM");
    const r = await done;
    expect(r.code, r.stderr).toBe(143);
    expect(r.stdout).toMatch(/^\[interrupted\]/);
    for (const file of pids) expect(alive(pidIn(file)), `${file} still alive`).toBe(false);
  });
});

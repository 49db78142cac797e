// One writer per session, with real parallel processes: a second run on a busy session waits
// briefly and then fails clearly (or runs after the first, when that one ends in time), so no turn
// is lost; parallel new sessions all keep their task-index entries; --continue takes the newest.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { collect, runCli, startCli, tempDir, waitForOutput } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply, type RecordedRequest } from "../helpers/mock-openai.js";

type Msg = { role: string; content?: unknown };

const lastPrompt = (req: RecordedRequest) =>
  String((req.messages as Msg[]).findLast((m) => m.role === "user")!.content);
const userTurns = (file: string) =>
  (JSON.parse(readFileSync(file, "utf8")) as { messages: Msg[] }).messages
    .filter((m) => m.role === "user")
    .map((m) => m.content);

describe("one writer per session", () => {
  it("a second run while the first holds the session too long fails with a clear message; nothing is lost", async () => {
    const ws = tempDir();
    // The first turn outlasts the second run's wait for the lock.
    const { mock, env } = await e2eEnv((req) =>
      lastPrompt(req) === "first"
        ? { ...textReply("first done"), delayMs: 6_000 }
        : textReply(`${lastPrompt(req)} done`),
    );
    const session = join(ws, "s.json");
    const first = startCli(["-p", "first", "-C", ws, "--session", session, "--stream-json"], { env });
    const firstDone = collect(first);
    await waitForOutput(first, (all) => all.includes('"turn.started"'));
    const second = await runCli(["-p", "second", "-C", ws, "--session", session, "--json"], { env });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(
        `^nanohermes: session .*s\\.json is in use by another NanoHermes run \\(pid ${first.pid}\\); try again when it has finished`,
        "m",
      ),
    );
    expect(JSON.parse(second.stdout)).toMatchObject({ reason: "session_busy" });
    expect((await firstDone).code).toBe(0);
    // The refused run asked the model nothing; the first turn is whole; a later run appends.
    expect(mock.requests.map(lastPrompt)).toEqual(["first"]);
    const third = await runCli(["-p", "third", "-C", ws, "--session", session], { env });
    expect(third.code, third.stderr).toBe(0);
    expect(userTurns(session)).toEqual(["first", "third"]);
    expect(existsSync(`${session}.lock`)).toBe(false);
  });

  it("a second run that starts while a short first turn runs waits for it and appends after it", async () => {
    const ws = tempDir();
    const { mock, env } = await e2eEnv((req) =>
      lastPrompt(req) === "first" ? { ...textReply("first done"), delayMs: 800 } : textReply(`${lastPrompt(req)} done`),
    );
    const session = join(ws, "s.json");
    const first = startCli(["-p", "first", "-C", ws, "--session", session, "--stream-json"], { env });
    const firstDone = collect(first);
    await waitForOutput(first, (all) => all.includes('"turn.started"'));
    const second = await runCli(["-p", "second", "-C", ws, "--session", session], { env });
    expect((await firstDone).code).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    // Both turns are in the file: today one of them was silently overwritten.
    expect(userTurns(session)).toEqual(["first", "second"]);
    // The second run's request carried the first turn: it read the session after the first saved it.
    expect((mock.requests[1]!.messages as Msg[]).filter((m) => m.role === "user").map((m) => m.content)).toEqual([
      "first",
      "second",
    ]);
  });

  it("6 sessions started in parallel keep all 6 task-index entries (two rounds)", async () => {
    const ws = tempDir();
    const { env } = await e2eEnv((req) => textReply(`${lastPrompt(req)} done`));
    for (const round of [1, 2]) {
      const runs = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          runCli(["-p", `round ${round} task ${i}`, "-C", ws], { env, timeoutMs: 60_000 }),
        ),
      );
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
    }
    const index = JSON.parse(readFileSync(join(env.NANOHERMES_HOME!, "tasks.json"), "utf8")) as { title: string }[];
    expect(index.map((e) => e.title).sort()).toEqual(
      [1, 2].flatMap((round) => Array.from({ length: 6 }, (_, i) => `round ${round} task ${i}`)).sort(),
    );
  });

  it("--continue takes the newest session even when its run was killed before updating the index", async () => {
    const ws = tempDir();
    const { mock, env } = await e2eEnv((req) =>
      lastPrompt(req) === "newer"
        ? toolReply([{ name: "run_command", args: { command: "echo $$ > sh.pid; sleep 30" } }])
        : textReply(`${lastPrompt(req)} done`),
    );
    expect((await runCli(["-p", "older", "-C", ws], { env })).code).toBe(0);
    const newer = startCli(["-p", "newer", "-C", ws, "--stream-json"], { env });
    const newerDone = collect(newer);
    await waitForOutput(newer, (all) => all.includes('"tool.started"'));
    newer.kill("SIGKILL");
    await newerDone;
    // The orphaned command is not this test's subject: end its group, if it started at all (the kill
    // can come before the shell does, and then no pid file ever comes: not a wait for something).
    for (let i = 0; i < 100 && !existsSync(join(ws, "sh.pid")); i++) await new Promise((res) => setTimeout(res, 20));
    try {
      process.kill(-Number(readFileSync(join(ws, "sh.pid"), "utf8")), "SIGKILL");
    } catch {
      // already gone
    }
    const next = await runCli(["-p", "go on", "-C", ws, "--continue"], { env });
    expect(next.code, next.stderr).toBe(0);
    const sent = mock.requests.at(-1)!.messages as Msg[];
    expect(sent.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["newer", "go on"]);
  });
});

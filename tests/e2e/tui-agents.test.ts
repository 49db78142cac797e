// The subagent board through the built program in a real terminal: the parent fans out to six
// workers (four run, two wait), the board and the task bar follow them, one child's transcript
// opens and streams, and Ctrl-C stops the task with every child. At 120x40 and 50x20.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply, type RecordedRequest } from "../helpers/mock-openai.js";
import { keys } from "../helpers/pty.js";

const tasks = [
  "fix the parser",
  "update the changelog",
  "review the lexer",
  "write the docs",
  "profile the renderer",
  "check the sandbox",
];

/** Which child sent a request (`agent-N`), from the system prompt the engine gives it; null for the parent. */
function childOf(req: RecordedRequest): string | null {
  const system = (req.messages[0] as { content?: unknown } | undefined)?.content;
  return typeof system === "string"
    ? (/You are the subagent "worker" \((agent-\d+)\)/.exec(system)?.[1] ?? null)
    : null;
}

const fanOut = (req: RecordedRequest) => {
  const child = childOf(req);
  if (child) return { content: `${child} streams: ${"step by step ".repeat(120)}`, chunkSize: 6, chunkDelayMs: 120 };
  const answered = req.messages.some((m) => (m as { role: string }).role === "tool");
  return answered
    ? textReply("the workers reported back")
    : toolReply(tasks.map((task) => ({ name: "subagent", args: { agent: "worker", task } })));
};

async function start(cols: number, rows: number) {
  const { mock, workspace: ws, pty } = await e2eEnv(fanOut, { model: "mock-model" });
  const file = join(ws, "subagents.json");
  writeFileSync(file, JSON.stringify({ agents: { worker: { prompt: "You do one focused task and report back." } } }));
  return { mock, app: pty({ cols, rows, args: ["--subagents", file] }) };
}

describe.each([
  [120, 40],
  [50, 20],
])("the subagent board at %ix%i", (cols, rows) => {
  it("follows six children, opens one live, and Ctrl-C stops them all", async () => {
    const { mock, app } = await start(cols, rows);
    await app.waitFor("Ask anything");
    app.type("fan out to six workers");
    app.type(keys.enter);

    // The task bar sums the board up: four run (the gate), two wait.
    const bar = await app.waitFor(/agents (4 running, 2 queued|●4 ○2)|●4 ○2/);
    expect(bar.split("\n")[1]).toMatch(/fan out to six workers · running/);

    // The Agents tab came forward by itself when the children started: Ctrl-R only focuses it.
    app.type(keys.ctrl("r"));
    let screen = await app.waitFor(/\[Agents 4\]/);
    expect(screen).toMatch(/1 ● agent-1 worker/);
    expect(screen).toMatch(/5 ○ agent-5 worker/);
    expect(screen).toContain("profile the renderer");
    for (const line of app.lines()) expect(line.length).toBeLessThanOrEqual(cols);

    // One child's own transcript, live.
    app.type("2");
    app.type(keys.enter);
    screen = await app.waitFor(/agent-2 worker · ● running/);
    expect(screen).toContain("› update the changelog");
    const before = (await app.waitFor(/agent-2 streams: step by step/)).split("step").length;
    screen = await app.waitFor((s) => s.split("step").length > before + 4);
    expect(screen).not.toContain("agent-1 streams");
    expect(screen).toMatch(/Esc close · x stop/);
    app.type(keys.esc);
    await app.waitFor((s) => !s.includes("Esc close") && /\[Agents 4\]/.test(s));

    // Ctrl-C on the board stops the task: queued children never start, running ones stop.
    app.type(keys.ctrl("c"));
    screen = await app.waitFor(/6 stopped|■6/, 15_000);
    expect(screen).toMatch(/5 ■ agent-5 worker/);
    expect(screen).toMatch(/1 ■ agent-1 worker/);
    expect(mock.maxInFlight).toBe(4);
    expect(mock.requests.filter((r) => childOf(r) !== null)).toHaveLength(4);
    await app.waitFor(/Agents\]/);

    // Back to the input; a key typed within 25 ms of a lone Esc would read as Alt+key.
    app.type(keys.esc);
    // The screen shows what the Esc did: it was read alone, so Ctrl-D cannot join it.
    await app.waitFor("■ stopped");
    app.type(keys.ctrl("d"));
    expect(await app.exit()).toBe(0);
  });
});

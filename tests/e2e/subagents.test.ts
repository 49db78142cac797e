// Subagents in the built program, one-shot, against the mock model: `--subagents FILE` and the
// config key, children's text kept off stdout, their tool activity labelled on stderr, every
// event valid in --stream-json, at most four child requests at once, and clear config errors.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BusEventSchema } from "../../src/protocol/events.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply, type RecordedRequest } from "../helpers/mock-openai.js";

const agents = { agents: { scout: { prompt: "You look around and report.", description: "reads files" } } };
const isChild = (req: RecordedRequest) =>
  String((req.messages[0] as ChatMessage).content).includes('You are the subagent "scout"');
const answered = (req: RecordedRequest) => req.messages.some((m) => (m as ChatMessage).role === "tool");

/** Parent: delegate `n` tasks, then answer. Children: read README.md, then answer. */
async function fanOut(n: number) {
  return e2eEnv(
    (req) => {
      if (isChild(req))
        return answered(req)
          ? textReply("CHILD TEXT the readme says hi", { delayMs: 50 })
          : toolReply([{ name: "read_file", args: { path: "README.md" } }]);
      return answered(req)
        ? textReply("PARENT: all scouts reported")
        : toolReply(
            Array.from({ length: n }, (_, i) => ({ name: "subagent", args: { agent: "scout", task: `look ${i}` } })),
          );
    },
    { model: "m" },
  );
}

function workspace(): { ws: string; file: string } {
  const ws = tempDir();
  writeFileSync(join(ws, "README.md"), "hi\n");
  const file = join(tempDir(), "agents.json");
  writeFileSync(file, JSON.stringify(agents));
  return { ws, file };
}

describe("subagents, one-shot", () => {
  it("prints only the parent's answer, labels the children's tool activity, and keeps four at once", async () => {
    const { mock, run } = await fanOut(6);
    const { ws, file } = workspace();
    const r = await run(["-p", "scout around", "-C", ws, "--subagents", file, "--verbose"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("PARENT: all scouts reported\n");
    expect(r.stderr).toMatch(/▸ subagent scout: look 0/);
    expect(r.stderr).toMatch(/\[agent-1\] ▸ read_file README\.md/);
    expect(r.stderr).toMatch(/\[agent-6\] ▸ read_file/);
    // A child's answer reaches the user only as the parent's one-line tool result.
    expect(
      r.stderr
        .split("\n")
        .filter((l) => l.includes("CHILD TEXT"))
        .every((l) => /✓ agent-\d done: CHILD TEXT/.test(l)),
    ).toBe(true);
    expect(mock.maxInFlight).toBeLessThanOrEqual(4);
    expect(mock.requests.filter(isChild)).toHaveLength(12);
  });

  it("every event in --stream-json is valid, children's carry their agentId, and the config key works too", async () => {
    const { env } = await fanOut(2);
    const { ws } = workspace();
    writeFileSync(join(env.NANOHERMES_HOME!, "config.json"), JSON.stringify({ subagents: agents }));
    const r = await runCli(["-p", "scout", "-C", ws, "--stream-json"], { env });
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; agentId?: string; row?: { id: string; status: string } });
    for (const event of events) expect(BusEventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
    const childTurns = events.filter((e) => e.type === "turn.completed" && e.agentId);
    expect(childTurns.map((e) => e.agentId).sort()).toEqual(["agent-1", "agent-2"]);
    const last = new Map(events.filter((e) => e.type === "subagent.updated").map((e) => [e.row!.id, e.row!.status]));
    expect([...last.entries()]).toEqual([
      ["agent-1", "done"],
      ["agent-2", "done"],
    ]);
    expect(events.at(-1)).toMatchObject({ type: "turn.completed", reason: "completed" });
    expect(events.at(-1)!.agentId).toBeUndefined();
  });

  it("without subagents there are no delegation tools; a bad file is one clear line", async () => {
    const { mock, env } = await e2eEnv([textReply("plain")], { model: "m" });
    const { ws } = workspace();
    const plain = await runCli(["-p", "hi", "-C", ws], { env });
    expect(plain.code).toBe(0);
    const names = ((mock.requests[0]!.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
    expect(names).not.toContain("subagent");
    expect(names).not.toContain("agent_list");
    const bad = join(tempDir(), "bad.json");
    writeFileSync(bad, JSON.stringify({ agents: { "no spaces": { prompt: "x" } } }));
    const r = await runCli(["-p", "hi", "-C", ws, "--subagents", bad], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^nanohermes: --subagents: invalid subagents file .*bad\.json: "agents\.no spaces": "no spaces" is not a valid agent name: use letters/,
    );
  });
});

// Finding sessions again from the command line and from the agent, and exporting them:
// `nanohermes sessions [WORDS]`, the session_search tool, and `nanohermes export --format sharegpt`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";

async function twoSessions() {
  const {
    mock,
    env,
    workspace: ws,
  } = await e2eEnv([textReply("Pelicans nest near the lake."), textReply("上下文压缩已经完成。")], {
    model: "m",
    key: "sk-test-secret-value-999",
  });
  expect((await runCli(["-p", "tell me about the pelican colony", "-C", ws], { env })).code).toBe(0);
  expect((await runCli(["-p", "请解释上下文压缩 (key sk-test-secret-value-999)", "-C", ws], { env })).code).toBe(0);
  return { mock, env, ws };
}

describe("finding sessions", () => {
  it("lists this workspace's sessions and finds one by a word, English or Chinese", async () => {
    const { env, ws } = await twoSessions();
    const list = await runCli(["sessions", "-C", ws], { env });
    expect(list.code).toBe(0);
    expect(list.stdout.trim().split("\n")).toHaveLength(2);
    expect(list.stdout).toContain("tell me about the pelican colony");
    const found = await runCli(["sessions", "pelicans", "-C", ws], { env });
    expect(found.stdout).toMatch(/tell me about the pelican colony\n\s+\w+: .*\[[Pp]elican/);
    expect(found.stdout).not.toContain("上下文");
    const zh = await runCli(["sessions", "压缩", "-C", ws], { env });
    expect(zh.stdout).toContain("[压缩]");
    const elsewhere = await runCli(["sessions", "pelican", "-C", tempDir()], { env });
    expect(elsewhere.stdout).toMatch(/nothing found for "pelican" in this workspace/);
    const all = await runCli(["sessions", "pelican", "--all", "-C", tempDir()], { env });
    expect(all.stdout).toContain("pelican colony");
    const json = JSON.parse((await runCli(["sessions", "lake", "--json", "-C", ws], { env })).stdout) as {
      sessionId: string;
      role: string;
    }[];
    expect(json).toHaveLength(1);
    expect(json[0]!.role).toBe("assistant");
  });

  it("the agent finds an earlier session with session_search", async () => {
    const { mock, env, ws } = await twoSessions();
    mock.push(toolReply([{ name: "session_search", args: { query: "pelican colony" } }]), textReply("found it"));
    expect((await runCli(["-p", "what did we say about birds?", "-C", ws], { env })).code).toBe(0);
    const tool = (mock.requests.at(-1)!.messages as ChatMessage[]).find((m) => m.role === "tool")!;
    expect(String(tool.content)).toMatch(/tell me about the pelican colony/);
    expect(String(tool.content)).toMatch(/--resume/);
  });
});

describe("nanohermes export --format sharegpt", () => {
  it("writes one record per turn (or per session) with secrets redacted", async () => {
    const { env, ws } = await twoSessions();
    const out = join(tempDir(), "trajectories.jsonl");
    const r = await runCli(["export", "--format", "sharegpt", "--all", "--output", out, "-C", ws], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^exported 2 records \(2 completed, 0 not\) from 2 sessions to /);
    const records = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            conversations: { from: string; value: string }[];
            completed: boolean;
            model: string;
            timestamp: string;
          },
      );
    expect(records).toHaveLength(2);
    for (const record of records) {
      expect(record.conversations.map((c) => c.from)).toEqual(["system", "human", "gpt"]);
      expect(record).toMatchObject({ completed: true, model: "m" });
    }
    const text = readFileSync(out, "utf8");
    expect(text).not.toContain("sk-test-secret-value-999");
    const sessions = await runCli(["sessions", "--json", "-C", ws], { env });
    const id = (JSON.parse(sessions.stdout) as { session: string }[])[0]!.session;
    const one = await runCli(["export", "--session", id, "--split", "session", "-C", ws], { env });
    expect(one.stdout.trim().split("\n")).toHaveLength(1);
    const bad = await runCli(["export", "-C", ws], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/export needs --session ID .* or --all/);
    const fmt = await runCli(["export", "--format", "csv", "--all"], { env });
    expect(fmt.stderr).toMatch(/only sharegpt is supported/);
  });
});

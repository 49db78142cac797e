// Picking sessions up again from the command line: --continue (the newest of this workspace),
// --resume ID (an id, a unique part of one, or a file), and the errors for the rest.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, type MockServer } from "../helpers/mock-openai.js";

const userTexts = (s: MockServer, i: number) =>
  (s.requests[i]!.messages as ChatMessage[]).filter((m) => m.role === "user").map((m) => m.content);

describe("--continue and --resume", () => {
  it("--continue picks up the newest session of this workspace, not another workspace's", async () => {
    const { mock, env } = await e2eEnv(
      [textReply("first answer"), textReply("other answer"), textReply("second answer")],
      { model: "m" },
    );
    const ws = tempDir();
    const other = tempDir();
    expect((await runCli(["-p", "remember the word pelican", "-C", ws], { env })).code).toBe(0);
    expect((await runCli(["-p", "unrelated", "-C", other], { env })).code).toBe(0);
    const r = await runCli(["-p", "what was the word?", "-C", ws, "--continue"], { env });
    expect(r.code).toBe(0);
    expect(userTexts(mock, 2)).toEqual(["remember the word pelican", "what was the word?"]);
    const none = await runCli(["-p", "x", "-C", tempDir(), "-c"], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^nanohermes: no earlier session in .* to continue/);
  });

  it("--resume takes an id, a unique part of one, or a file; unknown and ambiguous ids are errors", async () => {
    const { mock, env } = await e2eEnv([textReply("a"), textReply("b"), textReply("c"), textReply("d")], {
      model: "m",
    });
    const ws = tempDir();
    expect((await runCli(["-p", "turn one", "-C", ws], { env })).code).toBe(0);
    const dir = join(env.NANOHERMES_HOME!, "sessions");
    const [file] = readdirSync(dir).filter((n) => n.endsWith(".json"));
    const id = file!.slice(0, -5);
    expect((await runCli(["-p", "turn two", "-C", ws, "--resume", id], { env })).code).toBe(0);
    expect(userTexts(mock, 1)).toEqual(["turn one", "turn two"]);
    expect((await runCli(["-p", "turn three", "-C", ws, "-r", id.slice(-6)], { env })).code).toBe(0);
    expect(userTexts(mock, 2)).toEqual(["turn one", "turn two", "turn three"]);
    expect((await runCli(["-p", "turn four", "-C", ws, "--resume", join(dir, file!)], { env })).code).toBe(0);
    expect(userTexts(mock, 3)).toHaveLength(4);

    const unknown = await runCli(["-p", "x", "--resume", "nosuchsession"], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no session "nosuchsession" in /);
    writeFileSync(join(dir, "2026-aaa1.json"), "{}");
    writeFileSync(join(dir, "2026-aaa2.json"), "{}");
    const ambiguous = await runCli(["-p", "x", "--resume", "2026-aaa"], { env });
    expect(ambiguous.stderr).toMatch(/"2026-aaa" matches 2 sessions/);
    const bare = await runCli(["-p", "x", "--resume"], { env });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/--resume without an id needs the interactive UI/);
    const both = await runCli(["-p", "x", "--continue", "--resume", id], { env });
    expect(both.stderr).toMatch(/use one of --session, --resume and --continue/);
  });
});

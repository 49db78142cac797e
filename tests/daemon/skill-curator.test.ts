// The daemon's idle curator: when a pass is due (two idle hours, a week since the last), and one
// pass as the daemon makes it (its first a dry run, the next one archiving); with skills.consolidate,
// the model's merge as proposals.
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CURATOR_INTERVAL_MS, CURATOR_MIN_IDLE_MS, curatorDue, curatorPass } from "../../src/daemon/skill-curator.js";
import { pendingProposals } from "../../src/skills/proposals.js";
import { tempDir } from "../helpers/cli.js";
import { startMockServer, textReply } from "../helpers/mock-openai.js";
import { testSettings } from "../helpers/settings.js";

describe("curatorDue", () => {
  const now = 1_000 * CURATOR_INTERVAL_MS;
  it.each([
    ["never run, idle long enough", { lastBusyAt: now - CURATOR_MIN_IDLE_MS, lastRunAt: null }, true],
    ["never run, busy a minute ago", { lastBusyAt: now - 60_000, lastRunAt: null }, false],
    ["run a day ago", { lastBusyAt: 0, lastRunAt: now - CURATOR_INTERVAL_MS / 7 }, false],
    ["run a week ago", { lastBusyAt: 0, lastRunAt: now - CURATOR_INTERVAL_MS }, true],
  ])("%s", (_label, state, due) => {
    expect(curatorDue({ now, ...state })).toBe(due);
  });
});

it("a daemon pass: the first only reports, the second archives the agent's unused skill", async () => {
  const home = tempDir("nh-home-");
  const settings = testSettings({ home, workspace: tempDir() });
  const dir = join(home, "skills", "dusty");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), "---\nname: dusty\ndescription: d\norigin: agent\n---\n\nBody.\n");
  const old = new Date(Date.now() - 120 * 24 * 60 * 60 * 1000);
  utimesSync(join(dir, "SKILL.md"), old, old);
  expect(await curatorPass(settings)).toBe("skills curator (first run: dry run, nothing changed): dusty archived");
  expect(existsSync(dir)).toBe(true);
  expect(await curatorPass(settings)).toBe("skills curator: dusty archived");
  expect(existsSync(dir)).toBe(false);
  expect(existsSync(join(home, "skills", ".archive", "dusty", "SKILL.md"))).toBe(true);
});

it("with skills.consolidate a pass also asks the model, and its merge waits as proposals", async () => {
  const home = tempDir("nh-home-");
  const md = (name: string, description: string) =>
    `---\nname: ${name}\ndescription: ${description}\norigin: agent\n---\n\nRun vitest once.\n`;
  for (const [name, description] of [
    ["vitest-run", "Run vitest once"],
    ["vitest-once", "Run the vitest tests one time"],
  ] as const) {
    mkdirSync(join(home, "skills", name), { recursive: true });
    writeFileSync(join(home, "skills", name, "SKILL.md"), md(name, description));
  }
  const server = await startMockServer([
    textReply(
      JSON.stringify({
        groups: [{ into: "vitest-run", absorb: ["vitest-once"], content: md("vitest-run", "Run vitest once") }],
      }),
    ),
  ]);
  try {
    const settings = testSettings({ home, workspace: tempDir(), baseUrl: server.url, apiKey: "sk-test" });
    settings.skills = { ...settings.skills, consolidate: true };
    const line = await curatorPass(settings);
    expect(line).toContain("consolidation: 2 proposals (edit vitest-run, archive vitest-once)");
    expect(server.requests).toHaveLength(1);
    expect(pendingProposals(home).map((p) => [p.kind, p.name])).toEqual([
      ["edit", "vitest-run"],
      ["archive", "vitest-once"],
    ]);
    // Proposals only: both skills are still live.
    expect(existsSync(join(home, "skills", "vitest-once", "SKILL.md"))).toBe(true);
  } finally {
    await server.close();
  }
});

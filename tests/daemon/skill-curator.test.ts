// The daemon's idle curator: when a pass is due (two idle hours, a week since the last), and one
// pass as the daemon makes it (its first a dry run, the next one archiving).
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CURATOR_INTERVAL_MS, CURATOR_MIN_IDLE_MS, curatorDue, curatorPass } from "../../src/daemon/skill-curator.js";
import { tempDir } from "../helpers/cli.js";
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

// The curator and the ledger: deterministic transitions by days unused, only the agent's own
// unpinned skills, the first run a dry run, content-addressed copies, rollback byte for byte, and
// one run at a time.
import { existsSync, mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { curate, readCuratorState, type CuratorOptions } from "../../src/skills/curator.js";
import { CuratorBusy, takeCuratorLock } from "../../src/skills/curator-lock.js";
import { readLedger, sha256 } from "../../src/skills/ledger.js";
import { rollback, RollbackError } from "../../src/skills/rollback.js";
import { discoverSkills } from "../../src/skills/skills.js";
import { tempDir } from "../helpers/cli.js";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse("2026-12-05T12:00:00Z");

function write(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

function setup() {
  const roots = { workspace: tempDir("nh-ws-"), home: tempDir("nh-home-"), userHome: tempDir("nh-user-") };
  const dir = (name: string) => join(roots.home, "skills", name);
  /** A skill in ~/.nanohermes/skills last changed `days` ago. */
  const skill = (
    name: string,
    days: number,
    extra = "origin: agent\n",
    files: Record<string, string | Buffer> = {},
  ) => {
    const file = join(dir(name), "SKILL.md");
    write(file, `---\nname: ${name}\ndescription: ${name} steps\n${extra}---\n\nBody of ${name}.\n`);
    for (const [rel, content] of Object.entries(files)) write(join(dir(name), rel), content);
    const at = new Date(NOW - days * DAY);
    utimesSync(file, at, at);
  };
  const opts = (over: Partial<CuratorOptions> = {}): CuratorOptions => ({
    roots,
    staleAfterDays: 30,
    archiveAfterDays: 90,
    dryRun: false,
    lastUse: new Map(),
    now: NOW,
    ...over,
  });
  return { roots, dir, skill, opts };
}

describe("the curator", () => {
  it("its first run is a dry run that says what it would do; the next one does it", async () => {
    const t = setup();
    t.skill("old-agent", 31);
    t.skill("users-own", 400, "");
    const first = await curate(t.opts());
    expect(first.firstRun).toBe(true);
    expect(first.dryRun).toBe(true);
    expect(first.transitions).toEqual([{ skill: "old-agent", from: "active", to: "stale", idleDays: 31 }]);
    expect(first.skipped).toEqual([{ skill: "users-own", why: "not agent-written" }]);
    expect(readCuratorState(t.roots.home).stale).toEqual({});
    expect(await readLedger(t.roots.home)).toEqual([]);
    const second = await curate(t.opts());
    expect(second.dryRun).toBe(false);
    expect(second.transitions).toEqual([
      expect.objectContaining({ skill: "old-agent", to: "stale", entry: expect.any(String) }),
    ]);
    expect(Object.keys(readCuratorState(t.roots.home).stale)).toEqual(["old-agent"]);
    // The user's skill is never touched, however old.
    expect(existsSync(join(t.dir("users-own"), "SKILL.md"))).toBe(true);
  });

  it("archives at 90 days, leaves pinned, hub and recently used skills alone", async () => {
    const t = setup();
    t.skill("ancient", 95);
    t.skill("pinned-one", 200, "origin: agent\npinned: true\n");
    t.skill("from-hub", 200, "origin: hub\n");
    t.skill("used", 200);
    await curate(t.opts({ dryRun: true }));
    const report = await curate(t.opts({ lastUse: new Map([["used", NOW - 2 * DAY]]) }));
    expect(report.transitions.map((x) => [x.skill, x.to])).toEqual([["ancient", "archived"]]);
    expect(report.skipped).toEqual([
      { skill: "from-hub", why: "hub" },
      { skill: "pinned-one", why: "pinned" },
    ]);
    expect(discoverSkills(t.roots).skills.map((s) => s.name)).toEqual(["from-hub", "pinned-one", "used"]);
    expect(existsSync(join(t.roots.home, "skills", ".archive", "ancient", "SKILL.md"))).toBe(true);
  });

  it("an explicit dry run changes nothing after the first run either", async () => {
    const t = setup();
    t.skill("old", 95);
    await curate(t.opts());
    const dry = await curate(t.opts({ dryRun: true }));
    expect(dry.transitions.map((x) => x.to)).toEqual(["archived"]);
    expect(existsSync(t.dir("old"))).toBe(true);
  });

  it("rollback restores an archived skill byte for byte, from the ledger's copies if need be", async () => {
    const t = setup();
    const binary = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
    t.skill("keeper", 100, "origin: agent\n", { "references/notes.md": "é notes\r\n", "assets/blob.bin": binary });
    const hashes = () =>
      Object.fromEntries(
        ["SKILL.md", "references/notes.md", "assets/blob.bin"].map((rel) => [
          rel,
          sha256(readFileSync(join(t.dir("keeper"), rel))),
        ]),
      );
    const before = hashes();
    await curate(t.opts());
    const report = await curate(t.opts());
    const entry = report.transitions[0]!.entry!;
    expect(existsSync(t.dir("keeper"))).toBe(false);
    // The archived copy is damaged meanwhile: the ledger's copies rebuild it.
    writeFileSync(join(t.roots.home, "skills", ".archive", "keeper", "references", "notes.md"), "tampered");
    const undone = await rollback(t.roots.home, entry);
    expect(undone.done).toContain("restored");
    expect(hashes()).toEqual(before);
    await expect(rollback(t.roots.home, entry)).rejects.toThrow("already rolled back");
    await expect(rollback(t.roots.home, "nope")).rejects.toBeInstanceOf(RollbackError);
  });

  it("rollback of a stale mark makes the skill active again", async () => {
    const t = setup();
    t.skill("s1", 40);
    await curate(t.opts());
    const entry = (await curate(t.opts())).transitions[0]!.entry!;
    expect(readCuratorState(t.roots.home).stale.s1).toBeDefined();
    await rollback(t.roots.home, entry);
    expect(readCuratorState(t.roots.home).stale.s1).toBeUndefined();
  });

  it("blobs are content-addressed: equal files are stored once", async () => {
    const t = setup();
    t.skill("twin-a", 100, "origin: agent\n", { "references/same.md": "same\n" });
    t.skill("twin-b", 100, "origin: agent\n", { "references/same.md": "same\n" });
    await curate(t.opts());
    await curate(t.opts());
    const blobs = readdirSync(join(t.roots.home, "skills", ".curator", "blobs"));
    // Two different SKILL.md files and one shared reference.
    expect(blobs).toContain(sha256(Buffer.from("same\n")));
    expect(blobs).toHaveLength(3);
  });

  it("two runs at once: one wins, the other says so and changes nothing", async () => {
    const t = setup();
    t.skill("old", 95);
    await curate(t.opts());
    const runs = await Promise.allSettled([curate(t.opts()), curate(t.opts())]);
    const won = runs.filter((r) => r.status === "fulfilled");
    const lost = runs.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(CuratorBusy);
    expect(String(lost[0]!.reason.message)).toContain("another skills curator run is in progress");
    expect((await readLedger(t.roots.home)).filter((e) => e.action === "archive")).toHaveLength(1);
  });

  it("a lock left by a dead process is taken over", async () => {
    const t = setup();
    write(
      join(t.roots.home, "skills", ".curator", "lock"),
      JSON.stringify({ pid: 2 ** 22 + 12345, host: (await import("node:os")).hostname(), time: NOW }),
    );
    const release = takeCuratorLock(t.roots.home, "curator run");
    release();
    expect(existsSync(join(t.roots.home, "skills", ".curator", "lock"))).toBe(false);
  });
});

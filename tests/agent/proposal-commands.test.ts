// The engine's answers to the Skills tab, through the bus and a real TaskManager on temp folders:
// proposal.accept applies a proposal through skill_manage's checks (a live skill, origin: agent,
// the evidence recorded), proposal.edit replaces its text or refuses bad text leaving it as it was,
// proposal.reject files it under rejected/; each answer is a notice plus proposals.updated with the
// list as it is now. Loading extensions announces proposals an earlier run left waiting.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadExtensions } from "../../src/agent/extensions.js";
import { TaskManager } from "../../src/agent/tasks.js";
import { Bus } from "../../src/protocol/bus.js";
import type { BusEvent, EventOf } from "../../src/protocol/events.js";
import { SkillEvents } from "../../src/session/skill-events.js";
import { saveProposal, type Proposal } from "../../src/skills/proposals.js";
import { tempDir } from "../helpers/cli.js";
import { testSettings } from "../helpers/settings.js";

const SKILL = [
  "---",
  "name: run-unit-tests",
  "description: Run the project's unit tests with vitest in run mode",
  "---",
  "",
  "Run `npx vitest run`; `npm test` waits in watch mode.",
  "",
].join("\n");

/** A task manager whose extensions load once `waiting` proposals were saved (as an earlier run left them). */
async function setup(waiting: (home: string) => Promise<Proposal>) {
  const settings = testSettings({ home: tempDir("nh-home-") });
  settings.skills = { ...settings.skills, manage: true };
  const p = await waiting(settings.home);
  const bus = new Bus();
  const events: BusEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const extensions = loadExtensions(settings, { emit: (e) => bus.emit(e), userHome: tempDir("nh-oshome-") });
  new TaskManager({ settings, bus, interactive: true, approval: "on-request", extensions });
  bus.send({ type: "task.create", taskId: "a" });
  /** The next proposals.updated after `from` events, with the notice that came before it. */
  const answered = async (from: number) => {
    for (let i = 0; i < 400; i++) {
      const at = events.findIndex((e, k) => k >= from && e.type === "proposals.updated");
      if (at >= 0) {
        const notice = events.slice(from, at).find((e): e is EventOf<"notice"> => e.type === "notice");
        return { list: events[at] as EventOf<"proposals.updated">, notice };
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no proposals.updated; saw ${events.map((e) => e.type).join(",")}`);
  };
  return { settings, bus, events, answered, extensions, p };
}

describe("proposal commands", () => {
  it("accept makes a live agent skill, records it, and announces the empty list with the answer", async () => {
    const t = await setup((home) =>
      saveProposal(home, {
        sessionId: "s1",
        kind: "create",
        name: "run-unit-tests",
        content: SKILL,
        reason: "npm test hangs",
      }),
    );
    const p = t.p;
    // Loading extensions announced the waiting one.
    const first = await t.answered(0);
    expect(first.list.proposals.map((x) => [x.id, x.kind, x.name])).toEqual([[p.id, "create", "run-unit-tests"]]);
    expect(first.list.proposals[0]!.diff).toContain("+Run `npx vitest run`");
    expect(first.list.proposals[0]!.text).toBe(SKILL);
    expect(first.list.answer).toBeUndefined();

    const from = t.events.length;
    t.bus.send({ type: "proposal.accept", taskId: "a", id: p.id });
    const { list, notice } = await t.answered(from);
    expect(list.proposals).toEqual([]);
    expect(list.answer).toMatchObject({ id: p.id, ok: true });
    expect(list.answer!.text).toMatch(/^skills: accepted p-[a-z0-9]+: created skill "run-unit-tests"/);
    expect(notice).toMatchObject({ taskId: "a", level: "info", text: list.answer!.text });
    const file = join(t.settings.home, "skills", "run-unit-tests", "SKILL.md");
    expect(readFileSync(file, "utf8")).toContain("origin: agent");
    expect(existsSync(join(t.settings.home, "skills", ".proposals", "accepted", `${p.id}.json`))).toBe(true);
    // The live list now has it (the hint and the skill tool see it without a restart).
    expect((await t.extensions).skillState!.live().map((s) => s.name)).toContain("run-unit-tests");
    await (await t.extensions).close();
    const db = await SkillEvents.open(join(t.settings.home, "sessions.db"));
    expect(db.summary("run-unit-tests").counts).toMatchObject({ created: 1, proposal_accepted: 1 });
    db.close();
  });

  it("edit: bad text is refused and the proposal stays; good text replaces it; reject files it away", async () => {
    const t = await setup((home) =>
      saveProposal(home, {
        sessionId: "",
        kind: "create",
        name: "run-unit-tests",
        content: SKILL,
        reason: "npm test hangs",
      }),
    );
    const p = t.p;
    await t.answered(0);
    let from = t.events.length;
    t.bus.send({ type: "proposal.edit", taskId: "a", id: p.id, content: "no frontmatter at all\n" });
    let got = await t.answered(from);
    expect(got.list.answer).toMatchObject({ id: p.id, ok: false });
    expect(got.list.answer!.text).toContain("the edited SKILL.md is refused");
    expect(got.notice?.level).toBe("error");
    expect(got.list.proposals[0]!.text).toBe(SKILL);

    from = t.events.length;
    const edited = `${SKILL}\n2. Read the first failure first.\n`;
    t.bus.send({ type: "proposal.edit", taskId: "a", id: p.id, content: edited });
    got = await t.answered(from);
    expect(got.list.answer).toMatchObject({ ok: true, text: `skills: ${p.id} now writes your text` });
    expect(got.list.proposals[0]!.text).toContain("2. Read the first failure first.");
    expect(got.list.proposals[0]!.text).toContain("origin: agent");

    from = t.events.length;
    t.bus.send({ type: "proposal.reject", taskId: "a", id: p.id });
    got = await t.answered(from);
    expect(got.list.proposals).toEqual([]);
    expect(existsSync(join(t.settings.home, "skills", ".proposals", "rejected", `${p.id}.json`))).toBe(true);
    expect(existsSync(join(t.settings.home, "skills", "run-unit-tests"))).toBe(false);

    // An id that no longer waits (a second key press, another window): said, nothing changes.
    from = t.events.length;
    t.bus.send({ type: "proposal.accept", taskId: "a", id: p.id });
    got = await t.answered(from);
    expect(got.list.answer).toMatchObject({
      ok: false,
      text: `skills: no waiting proposal "${p.id}" (nanohermes skills proposals lists them)`,
    });
    expect(existsSync(join(t.settings.home, "skills", "run-unit-tests"))).toBe(false);
    await (await t.extensions).close();
  });

  it("two accepts of one proposal sent at once apply it once", async () => {
    const t = await setup((home) =>
      saveProposal(home, {
        sessionId: "",
        kind: "create",
        name: "run-unit-tests",
        content: SKILL,
        reason: "r",
      }),
    );
    const p = t.p;
    await t.answered(0);
    const from = t.events.length;
    t.bus.send({ type: "proposal.accept", taskId: "a", id: p.id });
    t.bus.send({ type: "proposal.accept", taskId: "a", id: p.id });
    const one = await t.answered(from);
    const two = await t.answered(t.events.indexOf(one.list) + 1);
    expect([one.list.answer?.ok, two.list.answer?.ok]).toEqual([true, false]);
    expect(two.list.answer!.text).toContain("no waiting proposal");
    await (await t.extensions).close();
  });
});

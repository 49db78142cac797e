// Opt-in consolidation through the built program and the mock model: `nanohermes skills curate
// --consolidate` shows the model only the agent's own skills, turns a merge into proposals (a
// rewrite of the skill that stays, an archive of the one it absorbs) and changes nothing live; a
// group naming a skill the agent does not own is dropped with the reason; accepting the proposals
// makes the merge. A reply that is not JSON proposes nothing and says so. Without the flag or the
// config key the model is never asked.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

const md = (name: string, description: string, body: string, extra = "origin: agent\n") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}\n`;

function setup() {
  const ws = tempDir();
  const home = tempDir("nh-home-");
  const osHome = tempDir("nh-oshome-");
  const skill = (name: string) => join(home, "skills", name, "SKILL.md");
  write(skill("vitest-run"), md("vitest-run", "Run the vitest unit tests once", "Run `npx vitest run`."));
  write(
    skill("vitest-no-watch"),
    md("vitest-no-watch", "Keep vitest out of watch mode", "`npm test` watches; pass `run`."),
  );
  write(skill("docker-prune"), md("docker-prune", "Free disk space from Docker", "docker system prune"));
  write(skill("users-own"), md("users-own", "The user's notes on releases", "Tag, push.", ""));
  write(
    join(osHome, ".claude", "skills", "pdf", "SKILL.md"),
    md("pdf", "Fill PDF forms", "Use pdftk.", "origin: agent\n"),
  );
  const cli = (args: string[], url: string) =>
    runCli([...args, "-C", ws], {
      env: testEnv({
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: url,
        NANOHERMES_MODEL: "mock-model",
        NANOHERMES_HOME: home,
        HOME: osHome,
      }),
      timeoutMs: 45_000,
    });
  return { home, skill, cli };
}

const MERGED = md(
  "vitest-run",
  "Run the vitest unit tests once, never in watch mode",
  "1. Run `npx vitest run`.\n2. `npm test` watches: never use it here.",
);

it("a merge becomes proposals, nothing live changes; accepting them makes it", async () => {
  const t = setup();
  const before = {
    run: readFileSync(t.skill("vitest-run"), "utf8"),
    noWatch: readFileSync(t.skill("vitest-no-watch"), "utf8"),
  };
  const { mock } = await e2eEnv([
    textReply(
      JSON.stringify({
        groups: [
          { into: "vitest-run", absorb: ["vitest-no-watch"], content: MERGED, reason: "both run vitest once" },
          { into: "users-own", absorb: ["docker-prune"], content: MERGED, reason: "bad" },
        ],
      }),
    ),
  ]);
  const r = await t.cli(["skills", "curate", "--consolidate"], mock.url);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("first curator run: a dry run");
  expect(r.stdout).toContain(
    "consolidation: 2 proposals (edit vitest-run, archive vitest-no-watch); review them with nanohermes skills proposals",
  );
  expect(r.stdout).toContain(`dropped: users-own <- docker-prune: "users-own" is not one of the agent's own`);
  // The model saw the agent's own skills only: not the user's, not another tool's.
  expect(mock.requests).toHaveLength(1);
  const asked = JSON.stringify(mock.requests[0]!.messages);
  expect(asked).toContain("## vitest-run");
  expect(asked).toContain("## docker-prune");
  expect(asked).not.toContain("users-own");
  expect(asked).not.toContain("pdftk");
  // Nothing live changed.
  expect(readFileSync(t.skill("vitest-run"), "utf8")).toBe(before.run);
  expect(readFileSync(t.skill("vitest-no-watch"), "utf8")).toBe(before.noWatch);

  const listed = JSON.parse((await t.cli(["skills", "proposals", "--json"], mock.url)).stdout) as {
    id: string;
    kind: string;
    name: string;
    absorbed_into?: string;
    diff: string;
  }[];
  expect(listed.map((p) => [p.kind, p.name, p.absorbed_into])).toEqual([
    ["edit", "vitest-run", undefined],
    ["archive", "vitest-no-watch", "vitest-run"],
  ]);
  expect(listed[0]!.diff).toContain("+2. `npm test` watches: never use it here.");
  expect(listed[1]!.diff).toContain("+++ /dev/null");
  expect(listed[1]!.diff).toContain("-`npm test` watches; pass `run`.");

  for (const p of listed) {
    const a = await t.cli(["skills", "accept", p.id], mock.url);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
  }
  expect(readFileSync(t.skill("vitest-run"), "utf8")).toContain("never use it here");
  expect(existsSync(t.skill("vitest-no-watch"))).toBe(false);
  expect(readFileSync(join(t.home, "skills", ".archive", "vitest-no-watch", "SKILL.md"), "utf8")).toBe(before.noWatch);
  expect(mock.requests).toHaveLength(1);
});

it("a reply that is not a groups list proposes nothing and says so (exit 1)", async () => {
  const t = setup();
  const { mock } = await e2eEnv([textReply("I think vitest-run and vitest-no-watch overlap.")]);
  const r = await t.cli(["skills", "curate", "--consolidate"], mock.url);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain("consolidation: nothing proposed (the model did not answer with a groups list)");
  expect(JSON.parse((await t.cli(["skills", "proposals", "--json"], mock.url)).stdout)).toEqual([]);
});

it("without --consolidate (or skills.consolidate) the model is not asked", async () => {
  const t = setup();
  const { mock } = await e2eEnv([]);
  const r = await t.cli(["skills", "curate"], mock.url);
  expect(r.code).toBe(0);
  expect(r.stdout).not.toContain("consolidation");
  expect(mock.requests).toHaveLength(0);
  const wrong = await t.cli(["skills", "list", "--consolidate"], mock.url);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain("--consolidate goes with skills curate");
});

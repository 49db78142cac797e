// The Skills tab in a real terminal (the built program, the mock model): a turn that recovers from
// a failing command yields a proposal after its answer, which shows in the results pane without a
// restart; `a` accepts it and the live skill file appears. A proposal left by an earlier run shows
// at start; `e` edits it through $EDITOR (checked by the engine), `d` drops it (kept, not deleted).
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { type Responder, textReply, toolReply } from "../helpers/mock-openai.js";
import { keys, type PtyApp } from "../helpers/pty.js";

const SKILL = [
  "---",
  "name: run-unit-tests",
  "description: Run the project's unit tests with vitest in run mode",
  "---",
  "",
  "# Run the unit tests",
  "",
  "1. `npm test` starts vitest in watch mode and never exits here: run `npx vitest run` instead.",
  "",
].join("\n");

/**
 * The mock, a workspace, a home and an OS home of the test's own, with the review on; a pty takes no
 * unset values, so those keys are left out of the environment.
 */
async function world(script: Responder[], extra: Record<string, string | undefined> = {}) {
  const e2e = await e2eEnv(script, {
    model: "mock-model",
    env: { HOME: tempDir("nh-oshome-"), NANOHERMES_NO_SKILL_REVIEW: undefined, ...extra },
  });
  for (const [key, value] of Object.entries(e2e.env)) if (value === undefined) delete e2e.env[key];
  return e2e;
}

/** From the default Changes tab, ← twice: Files, then round to the last tab, Skills. */
async function toSkillsTab(a: PtyApp): Promise<string> {
  a.type(keys.ctrl("r"));
  await a.waitFor("[Changes");
  await a.typeAndWait(keys.left);
  await a.waitFor("[Files");
  a.type(keys.left);
  return a.waitFor(/\[Skills \d+\]/);
}

it("at 120x40 a recovered turn's proposal shows in the Skills tab; a accepts it and the skill is live", async () => {
  const review = JSON.stringify({
    action: "create",
    name: "run-unit-tests",
    content: SKILL,
    reason: "npm test hangs in watch mode",
  });
  const script: Responder[] = [
    toolReply([{ name: "run_command", args: { command: "echo 'watch mode: waiting' >&2; exit 3" } }]),
    toolReply([{ name: "run_command", args: { command: "echo 12 passed" } }]),
    toolReply([{ name: "list_dir", args: {} }]),
    textReply("The tests pass: 12 passed."),
    textReply(review),
  ];
  const { home, pty } = await world(script);
  const app = pty({
    cols: 120,
    rows: 40,
    args: ["--approval", "never", "--sandbox", "off"],
  });
  await app.waitFor("Ask anything");
  // Nothing waits yet: no Skills tab.
  expect(app.screen()).not.toContain("Skills");
  await app.typeSlowly("run the unit tests");
  app.type(keys.enter);
  await app.waitFor("The tests pass: 12 passed.");
  // The review ran after the answer; its proposal reaches the tab bar of the open results pane.
  await app.waitFor(/Skills 1/, 20_000);
  expect(existsSync(join(home, "skills", "run-unit-tests"))).toBe(false);

  const screen = await toSkillsTab(app);
  expect(screen).toMatch(/new run-unit-tests/);
  await app.waitFor("why: npm test hangs in watch mode");
  expect(app.screen()).toContain("run-unit-tests/SKILL.md");
  expect(app.screen()).toContain("+ name: run-unit-tests");
  expect(app.screen()).toContain("a accept · e edit · d drop");

  app.type("a");
  await app.waitFor("no skill proposals waiting", 15_000);
  const skillFile = join(home, "skills", "run-unit-tests", "SKILL.md");
  expect(readFileSync(skillFile, "utf8")).toContain("origin: agent");
  expect(readFileSync(skillFile, "utf8")).toContain("npx vitest run");
  expect(readdirSync(join(home, "skills", ".proposals", "accepted"))).toHaveLength(1);
  // The engine says what it wrote: on the status line and in the transcript.
  await app.waitFor("skills: accepted p-");
  // Away from the tab, it is gone: nothing waits.
  app.type(keys.left);
  // (The transcript's notice still names "the Skills tab"; the bar has no Skills.)
  await app.waitFor((s) => s.includes("[Agents]") && !/Skills(?! tab)/.test(s));
});

function seedProposal(home: string): string {
  const dir = join(home, "skills", ".proposals");
  mkdirSync(dir, { recursive: true });
  const id = "p-seeded";
  writeFileSync(
    join(dir, `${id}.json`),
    JSON.stringify({
      id,
      createdAt: "2026-12-01T10:00:00.000Z",
      sessionId: "",
      kind: "create",
      name: "run-unit-tests",
      content: SKILL,
      reason: "npm test hangs in watch mode",
    }),
  );
  return id;
}

describe.each([
  [80, 24],
  [50, 20],
])("at %ix%i", (cols, rows) => {
  it("a proposal from an earlier run shows at start; e edits it in $EDITOR, d drops it (kept in rejected/)", async () => {
    // The editor appends a line to the file it is given, as a person would.
    const editor = join(tempDir(), "append.sh");
    writeFileSync(editor, '#!/bin/sh\nprintf "2. Read the first failure before changing anything.\\n" >> "$1"\n');
    chmodSync(editor, 0o755);
    const { mock, home, pty } = await world([], { EDITOR: editor, VISUAL: undefined });
    const id = seedProposal(home);
    const app = pty({ cols, rows });
    await app.waitFor("Ask anything");
    await toSkillsTab(app);
    await app.waitFor("new run-unit-tests");
    // The status line names the tab's keys, whole, at this width.
    await app.waitFor("a accept · e edit · d drop");

    app.type("e");
    await app.waitFor(`skills: ${id} now writes your text`, 15_000);
    const saved = JSON.parse(readFileSync(join(home, "skills", ".proposals", `${id}.json`), "utf8")) as {
      content: string;
    };
    expect(saved.content).toContain("2. Read the first failure before changing anything.");
    expect(saved.content).toContain("origin: agent");
    // The tab shows the edited text: Enter opens the diff over the tab, its last added line the edit.
    app.type(keys.enter);
    await app.waitFor((s) => !s.includes("why: npm test") && /Read the first\s/.test(s));
    await app.typeAndWait(keys.esc);
    await app.waitFor("why: npm test");

    app.type("d");
    await app.waitFor("no skill proposals waiting", 15_000);
    expect(existsSync(join(home, "skills", ".proposals", "rejected", `${id}.json`))).toBe(true);
    expect(existsSync(join(home, "skills", "run-unit-tests"))).toBe(false);
    expect(mock.requests).toHaveLength(0);
  });
});

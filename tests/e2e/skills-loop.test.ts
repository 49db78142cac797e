// Issue 30's "done means", end to end through the built program against the mock model: a turn
// that recovers from a failing command yields a proposal (after its answer); accepting it makes a
// live skill; a later prompt that matches it gets the hint line and the model loads it (recorded);
// a duplicate create becomes a patch suggestion; the curator's first run is a dry run that lists a
// 31-day-unused agent skill and leaves the user's alone; a real pass archives it and rollback
// restores it byte for byte; a second curator run while one holds the lock says so.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { startMockServer, textReply, toolReply, type MockServer, type Responder } from "../helpers/mock-openai.js";

let server: MockServer | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const c of cleanups.splice(0)) c();
});

type Msg = { role: string; content?: unknown };
const DAY = 24 * 60 * 60 * 1000;

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

const SKILL = [
  "---",
  "name: run-unit-tests",
  "description: Run the project's unit tests with vitest in run mode",
  "---",
  "",
  "# Run the unit tests",
  "",
  "1. `npm test` starts vitest in watch mode and never exits here: run `npx vitest run` instead.",
  "2. Read the first failure before changing anything.",
  "",
].join("\n");

it("learns a skill from a recovered turn, hints it and records its use, refuses a duplicate, curates and rolls back", async () => {
  const ws = tempDir();
  const home = tempDir("nh-home-");
  const osHome = tempDir("nh-oshome-");
  write(join(ws, "package.json"), '{"name":"demo"}\n');
  const env = (url: string) =>
    testEnv({
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: url,
      NANOHERMES_MODEL: "mock-model",
      NANOHERMES_HOME: home,
      HOME: osHome,
      NANOHERMES_NO_SKILL_REVIEW: undefined,
    });
  const cli = (args: string[], url = "http://127.0.0.1:9") =>
    runCli([...args, "-C", ws], { env: env(url), timeoutMs: 45_000 });

  // 1. A turn that fails a command, recovers, and answers; the review is asked after the answer.
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
  server = await startMockServer(script);
  const first = await cli(
    ["-p", "run the unit tests", "--stream-json", "--approval", "never", "--sandbox", "off"],
    server.url,
  );
  expect(first.code).toBe(0);
  const events = first.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; text?: string });
  const completed = events.findIndex((e) => e.type === "turn.completed");
  const proposed = events.findIndex((e) => e.type === "notice" && e.text?.startsWith("skill proposal "));
  // The answer came first: the review ran after the turn, not in it.
  expect(completed).toBeGreaterThan(-1);
  expect(proposed).toBeGreaterThan(completed);
  expect(server.requests).toHaveLength(5);
  const reviewRequest = server.requests[4]!;
  expect(reviewRequest.stream).toBe(false);
  expect(String((reviewRequest.messages[1] as Msg).content)).toContain("run_command");
  expect(String((reviewRequest.messages[1] as Msg).content)).toContain("-> error");
  // Nothing the reviewer wrote is live yet.
  expect(existsSync(join(home, "skills", "run-unit-tests"))).toBe(false);
  await server.close();
  server = undefined;

  // 2. The proposal waits with its diff; accepting it makes a live agent skill.
  const listed = await cli(["skills", "proposals", "--json"]);
  expect(listed.code).toBe(0);
  const proposals = JSON.parse(listed.stdout) as { id: string; kind: string; name: string; diff: string }[];
  expect(proposals.map((p) => [p.kind, p.name])).toEqual([["create", "run-unit-tests"]]);
  expect(proposals[0]!.diff).toContain("+1. `npm test` starts vitest in watch mode");
  const accepted = await cli(["skills", "accept", proposals[0]!.id]);
  expect(accepted.stderr).toBe("");
  expect(accepted.code).toBe(0);
  const skillFile = join(home, "skills", "run-unit-tests", "SKILL.md");
  expect(readFileSync(skillFile, "utf8")).toContain("origin: agent");
  expect(JSON.parse((await cli(["skills", "proposals", "--json"])).stdout)).toEqual([]);

  // 3. A later prompt that matches gets the hint line in its own message; the model loads the skill.
  server = await startMockServer([
    toolReply([{ name: "skill", args: { name: "run-unit-tests" } }]),
    textReply("Ran them with npx vitest run."),
  ]);
  const second = await cli(
    ["-p", "please run the unit tests again", "--approval", "never", "--sandbox", "off"],
    server.url,
  );
  expect(second.code).toBe(0);
  const messages = server.requests[0]!.messages as Msg[];
  const prompt = messages.filter((m) => m.role === "user").at(-1)!;
  expect(prompt.content).toBe(
    "please run the unit tests again\n\nrelevant skills: run-unit-tests (load with the skill tool)",
  );
  expect(String(messages[0]!.content)).not.toContain("relevant skills: ");
  const loaded = (server.requests[1]!.messages as Msg[]).filter((m) => m.role === "tool").at(-1)!;
  expect(String(loaded.content)).toContain("npx vitest run");
  const shown = JSON.parse((await cli(["skills", "show", "run-unit-tests", "--json"])).stdout) as {
    events: { counts: Record<string, number> };
  };
  expect(shown.events.counts).toMatchObject({ loaded: 1, hinted: 1, proposal_accepted: 1, created: 1, listed: 1 });

  // 4. A duplicate create is turned into a patch suggestion naming the skill.
  const dup = await cli([
    "tool",
    "skill_manage",
    JSON.stringify({
      action: "create",
      name: "unit-test-runner",
      content: SKILL.replace("name: run-unit-tests", "name: unit-test-runner"),
    }),
    "--approval",
    "never",
  ]);
  expect(dup.code).toBe(1);
  expect(dup.stdout).toContain("patch `run-unit-tests` instead");
  expect(existsSync(join(home, "skills", "unit-test-runner"))).toBe(false);

  // 5. The curator: a 31-day-unused agent skill and a user's skill of the same age.
  const oldFile = join(home, "skills", "old-habit", "SKILL.md");
  write(oldFile, "---\nname: old-habit\ndescription: Rebuild the cache by hand\norigin: agent\n---\n\nrm -rf .cache\n");
  write(
    join(home, "skills", "users-way", "SKILL.md"),
    "---\nname: users-way\ndescription: The user's deploy\n---\n\nDeploy.\n",
  );
  write(join(home, "skills", "old-habit", "references", "why.md"), "because\r\nit was slow é\n");
  const then = new Date(Date.now() - 31 * DAY);
  utimesSync(oldFile, then, then);
  utimesSync(join(home, "skills", "users-way", "SKILL.md"), then, then);
  const dry = await cli(["skills", "curate", "--dry-run"]);
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain("first curator run: a dry run");
  expect(dry.stdout).toContain("would mark old-habit stale (was active; unused 31 days)");
  expect(dry.stdout).toContain("left alone: users-way (not agent-written)");
  expect(dry.stdout).not.toContain("run-unit-tests");
  // A real pass, with the archive threshold at 31 days (configurable): it archives the skill.
  write(join(home, "config.json"), JSON.stringify({ skills: { archiveAfterDays: 31 } }));
  const bytes = {
    skill: readFileSync(oldFile),
    ref: readFileSync(join(home, "skills", "old-habit", "references", "why.md")),
  };
  const pass = await cli(["skills", "curate", "--json"]);
  expect(pass.code).toBe(0);
  const report = JSON.parse(pass.stdout) as {
    dryRun: boolean;
    transitions: { skill: string; to: string; entry: string }[];
  };
  expect(report.dryRun).toBe(false);
  expect(report.transitions.map((t) => [t.skill, t.to])).toEqual([["old-habit", "archived"]]);
  expect(existsSync(oldFile)).toBe(false);
  expect(existsSync(join(home, "skills", "users-way", "SKILL.md"))).toBe(true);
  // Archived skills stay findable: a prompt that matches names it.
  const back = await cli(["skills", "rollback", report.transitions[0]!.entry]);
  expect(back.stderr).toBe("");
  expect(back.code).toBe(0);
  expect(readFileSync(oldFile).equals(bytes.skill)).toBe(true);
  expect(readFileSync(join(home, "skills", "old-habit", "references", "why.md")).equals(bytes.ref)).toBe(true);

  // 6. A curator run while another holds the lock is refused, naming the holder.
  const holder = spawn("sleep", ["60"], { stdio: "ignore" });
  cleanups.push(() => holder.kill());
  write(
    join(home, "skills", ".curator", "lock"),
    JSON.stringify({
      pid: holder.pid,
      host: (await import("node:os")).hostname(),
      time: Date.now(),
      what: "curator run",
    }),
  );
  const busy = await cli(["skills", "curate"]);
  expect(busy.code).toBe(1);
  expect(busy.stderr).toContain(`another skills curator run is in progress (pid ${holder.pid}`);
  expect(existsSync(oldFile)).toBe(true);
}, 120_000);

it("bad input to the CLI: an unknown proposal, a path out of the skill folder, a clash with the user's skill", async () => {
  const ws = tempDir();
  const home = tempDir("nh-home-");
  const env = testEnv({ NANOHERMES_HOME: home, HOME: tempDir("nh-oshome-"), OPENAI_API_KEY: "sk-test" });
  const cli = (args: string[]) => runCli([...args, "-C", ws], { env, timeoutMs: 30_000 });
  const none = await cli(["skills", "accept", "p-nothere"]);
  expect(none.code).toBe(1);
  expect(none.stderr).toContain('no waiting proposal "p-nothere"');
  write(join(home, "skills", "mine", "SKILL.md"), "---\nname: mine\ndescription: The user's\n---\n\nBody.\n");
  const clash = await cli([
    "tool",
    "skill_manage",
    JSON.stringify({ action: "create", name: "mine", content: "---\nname: mine\ndescription: x\n---\n\nOther.\n" }),
    "--approval",
    "never",
  ]);
  expect(clash.stdout).toContain('a skill named "mine" already exists');
  write(
    join(home, "skills", "learned", "SKILL.md"),
    "---\nname: learned\ndescription: L\norigin: agent\n---\n\nBody.\n",
  );
  const escaping = await cli([
    "tool",
    "skill_manage",
    JSON.stringify({ action: "write_file", name: "learned", file_path: "../../escape.md", file_content: "x" }),
    "--approval",
    "never",
  ]);
  expect(escaping.code).toBe(1);
  expect(escaping.stdout).toContain("leaves the skill folder");
  expect(existsSync(join(home, "escape.md"))).toBe(false);
  const usage = await cli(["skills", "frobnicate"]);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain("usage: nanohermes skills");
  // Under a policy that asks, with nobody to answer, the write is refused and the way to allow it named.
  const refused = await cli([
    "tool",
    "skill_manage",
    JSON.stringify({ action: "create", name: "fresh", content: "---\nname: fresh\ndescription: y\n---\n\nZ.\n" }),
    "--approval",
    "on-request",
  ]);
  expect(refused.code).toBe(1);
  expect(refused.stderr + refused.stdout).toContain("--allow edits");
  expect(existsSync(join(home, "skills", "fresh"))).toBe(false);
});

it("a proposal edited in $EDITOR is accepted with the user's text; an edit that breaks it leaves the proposal as it was", async () => {
  const ws = tempDir();
  const home = tempDir("nh-home-");
  const tools = tempDir("nh-editor-");
  // Editors as scripts: one adds a step, one removes the frontmatter's end.
  const addStep = join(tools, "add-step.sh");
  write(addStep, '#!/bin/sh\nprintf "3. Then tell the user what failed.\\n" >> "$1"\n');
  const breakIt = join(tools, "break.sh");
  write(breakIt, "#!/bin/sh\nsed -i 's/^---$/--/' \"$1\"\n");
  const proposal = {
    id: "p-abc123",
    createdAt: new Date().toISOString(),
    sessionId: "",
    kind: "create",
    name: "run-unit-tests",
    content: SKILL,
    reason: "test",
  };
  write(join(home, "skills", ".proposals", "p-abc123.json"), JSON.stringify(proposal));
  const cli = (args: string[], editor: string) =>
    runCli([...args, "-C", ws], {
      env: testEnv({ NANOHERMES_HOME: home, EDITOR: `sh ${editor}`, VISUAL: undefined }),
      timeoutMs: 30_000,
    });
  const broken = await cli(["skills", "edit", "p-abc123"], breakIt);
  expect(broken.code).toBe(1);
  expect(broken.stderr).toContain("the edited SKILL.md is refused");
  expect(JSON.parse(readFileSync(join(home, "skills", ".proposals", "p-abc123.json"), "utf8"))).toEqual(proposal);
  const edited = await cli(["skills", "edit", "p-abc123"], addStep);
  expect(edited.stderr).toBe("");
  expect(edited.code).toBe(0);
  const accepted = await cli(["skills", "accept", "p-abc123"], addStep);
  expect(accepted.code).toBe(0);
  const text = readFileSync(join(home, "skills", "run-unit-tests", "SKILL.md"), "utf8");
  expect(text).toContain("origin: agent");
  expect(
    text.endsWith("2. Read the first failure before changing anything.\n3. Then tell the user what failed.\n"),
  ).toBe(true);
  expect(existsSync(join(home, "skills", ".proposals", "accepted", "p-abc123.json"))).toBe(true);
});

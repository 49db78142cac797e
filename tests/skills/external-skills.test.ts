// Skills other tools keep (.agents/skills and .claude/skills, in the workspace and the home folder):
// discovered after NanoHermes's own, loaded by the skill tool like any other, listed as external,
// and read-only to the agent: every skill_manage change is refused with a clear message and the
// files stay byte for byte; a copy under another name is turned away; the curator leaves them be.
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { curate } from "../../src/skills/curator.js";
import { skillManageTool } from "../../src/skills/skill-manage.js";
import { skillTool } from "../../src/skills/skill-tool.js";
import { discoverSkills } from "../../src/skills/skills.js";
import { runSkills } from "../../src/oneshot/skills-cli.js";
import { tempDir } from "../helpers/cli.js";
import { testSettings } from "../helpers/settings.js";
import { callTool, testSession } from "../helpers/tools.js";

const DAY = 24 * 60 * 60 * 1000;

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

const md = (name: string, description: string, body = "1. Do the thing.\n2. Check it.", extra = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}\n`;

function setup() {
  const roots = { workspace: tempDir("nh-ws-"), home: tempDir("nh-home-"), userHome: tempDir("nh-user-") };
  const at = {
    wsNh: join(roots.workspace, ".nanohermes", "skills"),
    wsAgents: join(roots.workspace, ".agents", "skills"),
    wsClaude: join(roots.workspace, ".claude", "skills"),
    home: join(roots.home, "skills"),
    userAgents: join(roots.userHome, ".agents", "skills"),
    userClaude: join(roots.userHome, ".claude", "skills"),
  };
  const s = testSession();
  const manage = skillManageTool({ roots });
  const call = (args: Record<string, unknown>) =>
    callTool(manage, args, roots.workspace, undefined, { session: s.session });
  const load = (name: string) =>
    callTool(
      skillTool(() => discoverSkills(roots).skills),
      { name },
      roots.workspace,
      undefined,
      { session: s.session },
    );
  return { roots, at, call, load };
}

describe("external skills", () => {
  it("are found in .agents/skills and .claude/skills of the workspace and the home folder, after NanoHermes's own", () => {
    const t = setup();
    write(join(t.at.wsClaude, "review", "SKILL.md"), md("review", "from workspace .claude"));
    write(join(t.at.wsAgents, "review", "SKILL.md"), md("review", "from workspace .agents"));
    write(join(t.at.wsClaude, "pdf", "SKILL.md"), md("pdf", "from workspace .claude"));
    write(join(t.at.wsNh, "lint", "SKILL.md"), md("lint", "from workspace .nanohermes"));
    write(join(t.at.wsClaude, "lint", "SKILL.md"), md("lint", "from workspace .claude"));
    write(join(t.at.userClaude, "deploy", "SKILL.md"), md("deploy", "from ~/.claude"));
    write(join(t.at.home, "deploy", "SKILL.md"), md("deploy", "from ~/.nanohermes"));
    write(join(t.at.userClaude, "notes", "SKILL.md"), md("notes", "from ~/.claude"));
    write(join(t.at.userAgents, "notes", "SKILL.md"), md("notes", "from ~/.agents"));
    write(join(t.at.userClaude, "only-claude", "SKILL.md"), md("only-claude", "from ~/.claude"));
    const { skills, problems } = discoverSkills(t.roots);
    expect(problems).toEqual([]);
    expect(skills.map((s) => [s.name, s.description, s.source])).toEqual([
      ["lint", "from workspace .nanohermes", "workspace"],
      ["review", "from workspace .agents", "external"],
      ["pdf", "from workspace .claude", "external"],
      ["deploy", "from ~/.nanohermes", "user"],
      ["notes", "from ~/.agents", "external"],
      ["only-claude", "from ~/.claude", "external"],
    ]);
  });

  it("load with the skill tool like any other", async () => {
    const t = setup();
    write(join(t.at.wsClaude, "pdf", "SKILL.md"), md("pdf", "Fill PDF forms", "Use pdftk to fill the form."));
    const r = await t.load("pdf");
    expect(r.status).toBe("ok");
    expect(r.forModel).toContain("Use pdftk to fill the form.");
  });

  it("are read-only to skill_manage: every change is refused, even after loading, and nothing moves", async () => {
    const t = setup();
    const file = join(t.at.wsClaude, "pdf", "SKILL.md");
    // Even one that says origin: agent: where it lives decides.
    const text = md("pdf", "Fill PDF forms", "Use pdftk to fill the form.", "origin: agent\n");
    write(file, text);
    const home = join(t.at.userClaude, "release", "SKILL.md");
    write(home, md("release", "Cut a release", "Tag and push."));
    expect((await t.load("pdf")).status).toBe("ok");
    expect((await t.load("release")).status).toBe("ok");
    const attempts = [
      { action: "patch", name: "pdf", old_string: "pdftk", new_string: "qpdf" },
      { action: "edit", name: "pdf", content: md("pdf", "Fill PDF forms", "Other text.") },
      { action: "write_file", name: "pdf", file_path: "references/x.md", file_content: "x" },
      { action: "remove_file", name: "pdf", file_path: "SKILL.md" },
      { action: "archive", name: "pdf" },
      { action: "patch", name: "release", old_string: "Tag", new_string: "Sign" },
    ];
    for (const args of attempts) {
      const r = await t.call(args);
      expect(r.status, JSON.stringify(args)).toBe("error");
      expect(r.forModel).toMatch(/is an external skill, shared with other tools \(.*\): it is read-only to you/);
    }
    expect(readFileSync(file, "utf8")).toBe(text);
    expect(readFileSync(home, "utf8")).toBe(md("release", "Cut a release", "Tag and push."));
  });

  it("a create of the same name, or of a near-copy, is turned away: use the external one", async () => {
    const t = setup();
    write(
      join(t.at.wsClaude, "release-npm", "SKILL.md"),
      md(
        "release-npm",
        "Publish the package to the npm registry",
        "1. npm version patch\n2. npm publish\n3. push tags",
      ),
    );
    const same = await t.call({ action: "create", name: "release-npm", content: md("release-npm", "x") });
    expect(same.status).toBe("error");
    expect(same.forModel).toContain("read-only to you");
    expect(same.forModel).toContain("choose another name");
    const copy = await t.call({
      action: "create",
      name: "npm-release",
      content: md("npm-release", "Publish a package to the npm registry", "1. npm version patch\n2. npm publish"),
    });
    expect(copy.status).toBe("error");
    expect(copy.forModel).toMatch(
      /^`release-npm` already covers this .* read-only to you: load it with the skill tool/,
    );
  });

  it("the curator leaves them alone, however long unused, and says why", async () => {
    const t = setup();
    const file = join(t.at.userClaude, "old-one", "SKILL.md");
    write(file, md("old-one", "Something from long ago", "Steps.", "origin: agent\n"));
    const now = Date.now();
    utimesSync(file, new Date(now - 400 * DAY), new Date(now - 400 * DAY));
    const opts = { roots: t.roots, staleAfterDays: 30, archiveAfterDays: 90, lastUse: new Map(), now };
    await curate({ ...opts, dryRun: true }); // the first run is a dry run
    const real = await curate({ ...opts, dryRun: false });
    expect(real.dryRun).toBe(false);
    expect(real.transitions).toEqual([]);
    expect(real.skipped).toEqual([{ skill: "old-one", why: "external" }]);
    expect(readFileSync(file, "utf8")).toContain("Something from long ago");
  });

  it("nanohermes skills list shows them with origin external, read-only", async () => {
    const t = setup();
    write(join(t.at.wsClaude, "pdf", "SKILL.md"), md("pdf", "Fill PDF forms"));
    const settings = testSettings({ workspace: t.roots.workspace, home: t.roots.home });
    let out = "";
    const io = { stdout: { write: (s: string) => void (out += s) }, stderr: { write: () => {} } };
    const previous = process.env.HOME;
    process.env.HOME = t.roots.userHome;
    try {
      expect(await runSkills(settings, ["list"], { values: { json: true } } as never, io as never)).toBe(0);
    } finally {
      process.env.HOME = previous;
    }
    const listed = JSON.parse(out) as { skills: { name: string; origin: string; writable: boolean }[] };
    expect(listed.skills).toEqual([expect.objectContaining({ name: "pdf", origin: "external", writable: false })]);
  });
});

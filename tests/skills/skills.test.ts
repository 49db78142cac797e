// Skills: discovery order and precedence, frontmatter variants, the 8 KB head, lazy capped bodies,
// broken files, the prompt section and the skill tool's results.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillTool, supportingFiles } from "../../src/skills/skill-tool.js";
import {
  discoverSkills,
  findSkill,
  loadSkillBody,
  MAX_SKILL_BODY,
  parseFrontmatter,
  SKILL_BODY_CUT_NOTE,
  skillsPromptSection,
  type Skill,
} from "../../src/skills/skills.js";
import { tempDir } from "../helpers/cli.js";
import { callTool } from "../helpers/tools.js";

function write(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** Fresh workspace, settings folder and OS home, and the four roots under them. */
function roots() {
  const opts = { workspace: tempDir("nh-ws-"), home: tempDir("nh-home-"), userHome: tempDir("nh-user-") };
  return {
    opts,
    nh: join(opts.workspace, ".nanohermes", "skills"),
    wsAgents: join(opts.workspace, ".agents", "skills"),
    home: join(opts.home, "skills"),
    userAgents: join(opts.userHome, ".agents", "skills"),
  };
}

const skillMd = (name: string, description: string, body = "Do the thing.") =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;

describe("skill discovery", () => {
  it("finds nothing, without problems, when no root exists", () => {
    const r = roots();
    expect(discoverSkills(r.opts)).toEqual({ skills: [], problems: [] });
  });

  it("keeps the first skill of a name: workspace over user, .nanohermes over .agents", () => {
    const r = roots();
    write(join(r.userAgents, "deploy", "SKILL.md"), skillMd("deploy", "from ~/.agents"));
    write(join(r.home, "deploy", "SKILL.md"), skillMd("deploy", "from ~/.nanohermes"));
    write(join(r.home, "review", "SKILL.md"), skillMd("review", "from ~/.nanohermes"));
    write(join(r.userAgents, "review", "SKILL.md"), skillMd("review", "from ~/.agents"));
    write(join(r.wsAgents, "review", "SKILL.md"), skillMd("review", "from workspace .agents"));
    write(join(r.nh, "lint", "SKILL.md"), skillMd("lint", "from workspace .nanohermes"));
    write(join(r.wsAgents, "lint", "SKILL.md"), skillMd("lint", "from workspace .agents"));
    write(join(r.userAgents, "only-user", "SKILL.md"), skillMd("only-user", "from ~/.agents"));
    const { skills, problems } = discoverSkills(r.opts);
    expect(problems).toEqual([]);
    expect(skills.map((s) => [s.name, s.description, s.source])).toEqual([
      ["lint", "from workspace .nanohermes", "workspace"],
      ["review", "from workspace .agents", "external"],
      ["deploy", "from ~/.nanohermes", "user"],
      ["only-user", "from ~/.agents", "external"],
    ]);
    expect(skills[0]).toMatchObject({ dir: join(r.nh, "lint"), file: join(r.nh, "lint", "SKILL.md") });
  });

  it("a frontmatter name decides clashes, not the folder name", () => {
    const r = roots();
    write(join(r.nh, "a-folder", "SKILL.md"), skillMd("shared", "first"));
    write(join(r.nh, "b-folder", "SKILL.md"), skillMd("shared", "second"));
    expect(discoverSkills(r.opts).skills.map((s) => [s.name, s.description])).toEqual([["shared", "first"]]);
  });

  it("sorts folders by name within a root and groups one category level deep", () => {
    const r = roots();
    for (const name of ["zeta", "Alpha", "mid", "beta"])
      write(join(r.nh, name, "SKILL.md"), skillMd(name, `skill ${name}`));
    write(join(r.nh, "dev", "testing", "SKILL.md"), skillMd("testing", "in a category"));
    write(join(r.nh, "dev", "bench", "SKILL.md"), skillMd("bench", "also in a category"));
    write(join(r.nh, "dev", "notes.md"), "not a skill");
    write(join(r.nh, "dev", "deeper", "nested", "SKILL.md"), skillMd("nested", "two levels down: not found"));
    // A folder with its own SKILL.md is a skill, not a category: its subfolders are its files.
    write(join(r.nh, "mid", "sub", "SKILL.md"), skillMd("sub", "inside a skill: not found"));
    write(join(r.nh, ".hidden", "SKILL.md"), skillMd("hidden", "hidden folders are skipped"));
    write(join(r.nh, "README.md"), "a stray file in the root");
    const { skills, problems } = discoverSkills(r.opts);
    expect(problems).toEqual([]);
    expect(skills.map((s) => s.name)).toEqual(["Alpha", "beta", "bench", "testing", "mid", "zeta"]);
    expect(findSkill(skills, "testing")?.dir).toBe(join(r.nh, "dev", "testing"));
  });

  it("follows symlinked skill folders and survives a symlink loop", () => {
    const r = roots();
    const elsewhere = tempDir("nh-shared-");
    write(join(elsewhere, "shared", "SKILL.md"), skillMd("shared", "linked in"));
    mkdirSync(r.nh, { recursive: true });
    symlinkSync(join(elsewhere, "shared"), join(r.nh, "shared"));
    symlinkSync(r.nh, join(r.nh, "loop"));
    symlinkSync(join(r.nh, "missing"), join(r.nh, "dangling"));
    const { skills, problems } = discoverSkills(r.opts);
    expect(problems).toEqual([]);
    expect(skills.map((s) => [s.name, s.dir])).toEqual([["shared", join(r.nh, "shared")]]);
  });

  it("skips binary, non-UTF-8 and unreadable SKILL.md files and reports them", () => {
    const r = roots();
    write(join(r.nh, "bin", "SKILL.md"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    write(join(r.nh, "latin1", "SKILL.md"), Buffer.from("---\nname: caf\xe9\n---\nbody\n", "latin1"));
    mkdirSync(join(r.nh, "dir-not-file", "SKILL.md"), { recursive: true });
    write(join(r.nh, "good", "SKILL.md"), skillMd("good", "fine"));
    const { skills, problems } = discoverSkills(r.opts);
    expect(skills.map((s) => s.name)).toEqual(["good"]);
    expect(problems).toEqual([
      `${join(r.nh, "bin", "SKILL.md")} looks like PNG image, not text; skipped`,
      `${join(r.nh, "dir-not-file", "SKILL.md")} is a directory, not a file; skipped`,
      `${join(r.nh, "latin1", "SKILL.md")} is not valid UTF-8 text; skipped`,
    ]);
  });

  it("reads only the first 8 KB at discovery; the body loads lazily, capped", async () => {
    const r = roots();
    const huge = `# Huge\n\n${"lorem ipsum dolor sit amet ".repeat(200_000)}`; // ~5.4 MB
    // Invalid UTF-8 at the very end: neither discovery nor loading ever reads that far.
    write(
      join(r.nh, "huge", "SKILL.md"),
      Buffer.concat([
        Buffer.from(`---\nname: huge\ndescription: A very large skill\n---\n${huge}`),
        Buffer.from([0xff, 0xfe]),
      ]),
    );
    // A multi-byte character straddling the 8 KB boundary must not count as invalid UTF-8.
    write(join(r.nh, "wide", "SKILL.md"), `---\nname: wide\ndescription: wide chars\n---\n${"é".repeat(10_000)}\n`);
    const { skills, problems } = discoverSkills(r.opts);
    expect(problems).toEqual([]);
    expect(skills.map((s) => [s.name, s.description])).toEqual([
      ["huge", "A very large skill"],
      ["wide", "wide chars"],
    ]);
    const body = await loadSkillBody(skills[0]!);
    expect(body.startsWith("# Huge\n\nlorem ipsum")).toBe(true);
    expect(body.endsWith(`\n\n${SKILL_BODY_CUT_NOTE}`)).toBe(true);
    expect(SKILL_BODY_CUT_NOTE).toBe("[skill body cut at 20000 characters]");
    expect(body.length).toBeLessThanOrEqual(MAX_SKILL_BODY + SKILL_BODY_CUT_NOTE.length + 2);
    expect(body.length).toBeGreaterThan(MAX_SKILL_BODY - 10);
    const wide = await loadSkillBody(skills[1]!);
    expect(wide).toBe("é".repeat(10_000));
  });

  it("skips a skill whose frontmatter does not close within 8 KB", () => {
    const r = roots();
    write(join(r.nh, "long-fm", "SKILL.md"), `---\nname: long\n${"x: y\n".repeat(3000)}---\nbody\n`);
    const { skills, problems } = discoverSkills(r.opts);
    expect(skills).toEqual([]);
    expect(problems).toEqual([
      `${join(r.nh, "long-fm", "SKILL.md")}: frontmatter does not end (---) within the first 8 KB; skipped`,
    ]);
  });
});

describe("frontmatter", () => {
  function discoverOne(content: string, folder = "folder-name"): Skill {
    const r = roots();
    write(join(r.nh, folder, "SKILL.md"), content);
    const { skills, problems } = discoverSkills(r.opts);
    expect(problems).toEqual([]);
    expect(skills).toHaveLength(1);
    return skills[0]!;
  }

  it.each([
    ["plain", "---\nname: pdf\ndescription: Fill PDF forms\n---\nbody", "pdf", "Fill PDF forms"],
    [
      "double-quoted with escapes",
      '---\nname: "pdf tools"\ndescription: "Say \\"hi\\": a\\tb" # comment\n---\n',
      "pdf tools",
      'Say "hi": a b',
    ],
    [
      "single-quoted",
      "---\nname: 'it''s'\ndescription: 'Use: colons # and hashes'\n---\n",
      "it's",
      "Use: colons # and hashes",
    ],
    [
      "literal block |",
      "---\nname: lit\ndescription: |\n  Line one.\n  Line two.\n\nother: x\n---\n",
      "lit",
      "Line one. Line two.",
    ],
    ["folded block >-", "---\ndescription: >-\n    Folded\n    text\nname: fold\n---\n", "fold", "Folded text"],
    [
      "plain over several lines",
      "---\nname: multi\ndescription: starts here\n  and goes on\n---\n",
      "multi",
      "starts here and goes on",
    ],
    ["a trailing comment", "---\nname: c # the name\ndescription: C# and F# # languages\n---\n", "c", "C# and F#"],
    [
      "CRLF line endings and a BOM",
      "\uFEFF---\r\nname: crlf\r\ndescription: windows\r\n---\r\nbody\r\n",
      "crlf",
      "windows",
    ],
    [
      "other keys ignored",
      "---\nlicense: MIT\nallowed-tools:\n  - read_file\nmetadata:\n  version: 2\nname: keys\ndescription: ok\n---\n",
      "keys",
      "ok",
    ],
    [
      "no frontmatter: folder name and first body line",
      "\n\n## Release checklist\n\nSteps...\n",
      "folder-name",
      "Release checklist",
    ],
    [
      "frontmatter without description: first body line",
      "---\nname: nodesc\n---\n\n# Title here\nmore\n",
      "nodesc",
      "Title here",
    ],
    ["empty name falls back to the folder", '---\nname: ""\ndescription: d\n---\n', "folder-name", "d"],
    [
      "an unclosed --- in a small file is body",
      "---\nJust a rule, then text\n",
      "folder-name",
      "Just a rule, then text",
    ],
    ["odd names are kept as-is", "---\nname:   My Skill/v2!  \ndescription: odd\n---\n", "My Skill/v2!", "odd"],
  ])("%s", (_label, content, name, description) => {
    expect(discoverOne(content)).toMatchObject({ name, description });
  });

  it("parses block scalars with their line structure", () => {
    const fm = parseFrontmatter("a: |\n  one\n    indented\n\n  two\nb: >\n  x\n  y\n\n  z\nc: |2\n    keep\n");
    expect(fm.get("a")).toBe("one\n  indented\n\ntwo");
    expect(fm.get("b")).toBe("x y\nz");
    expect(fm.get("c")).toBe("  keep");
  });

  it("the body loads without the frontmatter", async () => {
    const skill = discoverOne("---\nname: b\ndescription: d\n---\n\n# Steps\n1. one\n");
    expect(await loadSkillBody(skill)).toBe("# Steps\n1. one");
  });

  it("hidden characters are removed from descriptions and bodies", async () => {
    const skill = discoverOne("---\nname: hid\ndescription: vis\u200bible\n---\nsafe\u202etext\u2066\n");
    expect(skill.description).toBe("visible");
    expect(await loadSkillBody(skill)).toBe(
      "safetext\n\n[2 invisible characters (zero-width or bidi controls) were removed from this skill]",
    );
  });
});

describe("skill lookup and prompt section", () => {
  const make = (name: string, description: string): Skill => ({
    name,
    description,
    dir: `/s/${name}`,
    file: `/s/${name}/SKILL.md`,
    source: "user",
  });

  it("finds by exact name first, then ignoring case", () => {
    const skills = [make("Deploy", "a"), make("deploy", "b"), make("Review", "c")];
    expect(findSkill(skills, "deploy")?.description).toBe("b");
    expect(findSkill(skills, "Deploy")?.description).toBe("a");
    expect(findSkill(skills, " review ")?.description).toBe("c");
    expect(findSkill(skills, "DEPLOY")?.description).toBe("a");
    expect(findSkill(skills, "nope")).toBeUndefined();
  });

  it("is empty without skills and lists each skill with a capped description", () => {
    expect(skillsPromptSection([])).toBe("");
    const long = "word ".repeat(100).trim();
    const text = skillsPromptSection([make("pdf", "Fill PDF forms"), make("long", long), make("bare", "")]);
    const lines = text.split("\n");
    expect(lines[0]).toBe("# Skills");
    expect(lines[1]).toMatch(/call the skill tool with its name to load the full instructions/);
    expect(lines.slice(2, 3)).toEqual(["- pdf: Fill PDF forms"]);
    expect(lines[3]!.startsWith("- long: word word")).toBe(true);
    expect(lines[3]!.endsWith("…")).toBe(true);
    expect(lines[3]!.length).toBe("- long: ".length + 300);
    expect(lines[4]).toBe("- bare");
    expect(lines).toHaveLength(5);
  });
});

describe("skill tool", () => {
  function setup() {
    const r = roots();
    const dir = join(r.nh, "pdf");
    write(
      join(dir, "SKILL.md"),
      skillMd("pdf", "Fill PDF forms", "# PDF\nRun scripts/fill.sh, see references/forms.md."),
    );
    write(join(dir, "scripts", "fill.sh"), "#!/bin/sh\n");
    write(join(dir, "references", "forms.md"), "forms\n");
    write(join(dir, "references", "deep", "more.md"), "more\n");
    write(join(dir, ".secret"), "hidden\n");
    write(join(dir, "node_modules", "x", "index.js"), "x\n");
    write(join(r.home, "review", "SKILL.md"), skillMd("review", "Review code"));
    const { skills } = discoverSkills(r.opts);
    return { r, dir, skills, tool: skillTool(skills) };
  }

  it("returns the body and a footer with the folder and its supporting files", async () => {
    const { r, dir, tool } = setup();
    expect(tool).toMatchObject({ name: "skill", kind: "read" });
    expect(tool.summarize({ name: "pdf" })).toBe("pdf");
    const res = await callTool(tool, { name: "PDF" }, r.opts.workspace);
    expect(res.status).toBe("ok");
    const body = "# PDF\nRun scripts/fill.sh, see references/forms.md.";
    expect(res.forModel).toBe(
      [
        body,
        "",
        "---",
        `Skill "pdf" lives in ${dir} (relative paths in its instructions are relative to this folder).`,
        "Supporting files (read them with read_file when the instructions call for them):",
        "- references/deep/more.md",
        "- references/forms.md",
        "- scripts/fill.sh",
      ].join("\n"),
    );
    expect(res.display).toBe(`loaded skill pdf (${body.length} chars)`);
  });

  it("says when a skill has no supporting files", async () => {
    const { r, tool } = setup();
    const res = await callTool(tool, { name: "review" }, r.opts.workspace);
    expect(res.forModel).toMatch(/^Do the thing\.\n\n---\nSkill "review" lives in .*\nIt has no supporting files\.$/);
  });

  it("an unknown name is an error listing the available skills", async () => {
    const { r, tool } = setup();
    const res = await callTool(tool, { name: "docx" }, r.opts.workspace);
    expect(res).toMatchObject({ status: "error", forModel: 'unknown skill "docx"; available skills: pdf, review' });
    const none = await callTool(skillTool([]), { name: "docx" }, r.opts.workspace);
    expect(none.forModel).toBe('unknown skill "docx": no skills are installed');
  });

  it("a skill file that went bad after discovery is an error, not a crash", async () => {
    const { r, dir, tool } = setup();
    write(join(dir, "SKILL.md"), Buffer.from([0, 1, 2, 3]));
    const res = await callTool(tool, { name: "pdf" }, r.opts.workspace);
    expect(res).toMatchObject({
      status: "error",
      forModel: `cannot load skill "pdf": ${join(dir, "SKILL.md")} looks like binary data, not text`,
    });
  });

  it("lists at most 50 supporting files", async () => {
    const dir = tempDir("nh-files-");
    for (let i = 0; i < 60; i++) write(join(dir, "refs", `f${String(i).padStart(2, "0")}.md`), "x");
    const listing = await supportingFiles(dir);
    expect(listing.files).toHaveLength(50);
    expect(listing.files[0]).toBe("refs/f00.md");
    expect(listing.more).toBe(true);
  });

  it("keeps the footer when a capped body would push the result over the registry's limit", async () => {
    const r = roots();
    const dir = join(r.nh, "big");
    write(join(dir, "SKILL.md"), skillMd("big", "big", "é".repeat(30_000)));
    write(join(dir, "scripts", "run.sh"), "x");
    const res = await callTool(skillTool(discoverSkills(r.opts).skills), { name: "big" }, r.opts.workspace);
    expect(res.status).toBe("ok");
    expect(Buffer.byteLength(res.forModel)).toBeLessThanOrEqual(20 * 1024);
    expect(res.forModel).toMatch(/\[skill body cut to fit the 20480-byte result limit\]\n\n---\n/);
    expect(res.forModel).toContain(
      `The instructions were cut: read the rest of ${join(dir, "SKILL.md")} with read_file.`,
    );
    expect(res.forModel.endsWith("- scripts/run.sh")).toBe(true);
  });
});

// glob through the real registry on temp directories: basename and path patterns, dotfiles,
// gitignore, the 500 cap, bad paths; and the shared matcher grep uses.
import { promises as fs } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { findRg } from "../../src/tools/ripgrep.js";
import { compileGlob, globTool } from "../../src/tools/glob.js";
import { callTool } from "../helpers/tools.js";

let ws: string;

beforeEach(async () => {
  ws = await fs.realpath(await fs.mkdtemp(join(os.tmpdir(), "nh-glob-")));
});

afterEach(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

async function tree(files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await fs.mkdir(dirname(join(ws, path)), { recursive: true });
    await fs.writeFile(join(ws, path), content);
  }
}

async function glob(args: Record<string, unknown>): Promise<string> {
  const r = await callTool(globTool, args, ws);
  expect(r.status).toBe("ok");
  return r.forModel;
}

// Both search engines, ripgrep and the built-in one, must give the same results.
describe.each(["ripgrep", "built-in"] as const)("glob (%s)", (engine) => {
  beforeEach(() => {
    if (engine === "built-in") vi.stubEnv("NANOHERMES_NO_RG", "1");
    else expect(findRg(), "ripgrep must be installed to test its path (apt install ripgrep)").not.toBeNull();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("matches a slash-free pattern against file names at any depth, dotfiles included", async () => {
    await tree({
      "README.md": "",
      "docs/guide.md": "",
      ".github/notes.md": "",
      ".hidden.md": "",
      "a.ts": "",
      "docs/md": "",
    });
    expect(await glob({ pattern: "*.md" })).toBe(".github/notes.md\n.hidden.md\nREADME.md\ndocs/guide.md");
  });

  it("matches a pattern with a slash against the path relative to the search root", async () => {
    await tree({ "src/a.ts": "", "src/lib/b.ts": "", "src/lib/c.js": "", "test/src/d.ts": "" });
    expect(await glob({ pattern: "**/*.ts" })).toBe("src/a.ts\nsrc/lib/b.ts\ntest/src/d.ts");
    expect(await glob({ pattern: "src/*.ts" })).toBe("src/a.ts");
    expect(await glob({ pattern: "lib/*.{ts,js}", path: "src" })).toBe("src/lib/b.ts\nsrc/lib/c.js");
  });

  it("skips gitignored files and .git, and lists files only", async () => {
    await tree({
      ".gitignore": "node_modules/\n",
      "node_modules/x/index.js": "",
      ".git/hooks/a.js": "",
      "index.js": "",
      "dir.js/inner.txt": "",
    });
    expect(await glob({ pattern: "*.js" })).toBe("index.js");
  });

  it("lists files over 8 MB too (ripgrep's --max-filesize must not apply to a listing)", async () => {
    await tree({ "big.log": "x".repeat(9 * 1024 * 1024), "small.log": "y" });
    expect(await glob({ pattern: "*.log" })).toBe("big.log\nsmall.log");
  });

  it("shows at most 500 files, sorted, with a note", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`f${String(i).padStart(3, "0")}.txt`] = "";
    await tree(files);
    const lines = (await glob({ pattern: "*.txt" })).split("\n");
    expect(lines).toHaveLength(501);
    expect(lines[0]).toBe("f000.txt");
    expect(lines[499]).toBe("f499.txt");
    expect(lines[500]).toBe("[500 files shown; narrow the pattern or path for the rest]");
  });

  it('says "no files match" when none do', async () => {
    await tree({ "a.ts": "" });
    expect(await glob({ pattern: "*.py" })).toBe("no files match");
  });

  it("lists a symlink that matches without following a loop", async () => {
    await tree({ "d/a.ts": "" });
    await fs.symlink("..", join(ws, "d", "up.ts"));
    // ripgrep lists only files it would search, so a symlink is not listed; neither engine loops.
    expect(await glob({ pattern: "**/*.ts" })).toBe(engine === "built-in" ? "d/a.ts\nd/up.ts" : "d/a.ts");
  });

  it("reports a missing path or a file as the search root as errors", async () => {
    await tree({ "a.ts": "" });
    const missing = await callTool(globTool, { pattern: "*", path: "nope" }, ws);
    expect(missing.status).toBe("error");
    expect(missing.forModel).toBe("no such file or directory: nope");
    const file = await callTool(globTool, { pattern: "*", path: "a.ts" }, ws);
    expect(file.status).toBe("error");
    expect(file.forModel).toMatch(/^a\.ts is a file, not a directory/);
  });

  it("summarizes a call on one line", () => {
    expect(globTool.summarize({ pattern: "*.md", path: "docs" })).toBe("*.md in docs");
  });
});

describe("compileGlob", () => {
  const cases: [pattern: string, path: string, matches: boolean][] = [
    ["*.ts", "a/b/c.ts", true],
    ["*.ts", "c.tsx", false],
    ["./src/*.ts", "src/a.ts", true],
    ["src/*.ts", "x/src/a.ts", false],
    ["{src,lib}/**/*.ts", "lib/x/y.ts", true],
    ["!*.min.js", "a/app.min.js", false],
    ["!*.min.js", "a/app.js", true],
    [".env*", "config/.env.local", true],
  ];
  it.each(cases)("%s against %s is %s", (pattern, path, matches) => {
    expect(compileGlob(pattern)(path)).toBe(matches);
  });
});

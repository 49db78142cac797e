// grep through the real registry on temp directories: output format and order, regex dialect,
// glob filters, skipped files, the match cap, odd bytes, symlink loops and abort.
import { promises as fs } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { findRg } from "../../src/tools/ripgrep.js";
import { compilePattern, grepTool, searchText } from "../../src/tools/grep.js";
import { callTool } from "../helpers/tools.js";

let ws: string;

beforeEach(async () => {
  ws = await fs.realpath(await fs.mkdtemp(join(os.tmpdir(), "nh-grep-")));
});

afterEach(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

async function tree(files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await fs.mkdir(dirname(join(ws, path)), { recursive: true });
    await fs.writeFile(join(ws, path), content);
  }
}

async function grep(args: Record<string, unknown>, signal?: AbortSignal) {
  return callTool(grepTool, args, ws, signal);
}

// Both search engines, ripgrep and the built-in one, must give the same results.
describe.each(["ripgrep", "built-in"] as const)("grep (%s)", (engine) => {
  beforeEach(() => {
    if (engine === "built-in") vi.stubEnv("NANOHERMES_NO_RG", "1");
    else expect(findRg(), "ripgrep must be installed to test its path (apt install ripgrep)").not.toBeNull();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("prints path:line:text relative to the workspace, sorted by path then line", async () => {
    await tree({ "b.ts": "x\nneedle two\nneedle three\n", "a/z.ts": "needle one\n", "c.md": "nothing\n" });
    const r = await grep({ pattern: "needle" });
    expect(r.status).toBe("ok");
    expect(r.forModel).toBe("a/z.ts:1:needle one\nb.ts:2:needle two\nb.ts:3:needle three");
    expect(r.display).toBe("3 matches in 2 files");
  });

  it('says "no matches" when nothing matches', async () => {
    await tree({ "a.txt": "hay\n" });
    const r = await grep({ pattern: "needle" });
    expect(r.status).toBe("ok");
    expect(r.forModel).toBe("no matches");
  });

  it("turns an invalid regex into an error carrying the regex message", async () => {
    await tree({ "a.txt": "(\n" });
    const r = await grep({ pattern: "foo(" });
    expect(r.status).toBe("error");
    expect(r.forModel).toMatch(/^invalid regex: .*Unterminated group/);
  });

  it("ignores case with a leading (?i) or ignore_case", async () => {
    await tree({ "a.txt": "Hello World\nhello world\nHELLO\n" });
    expect((await grep({ pattern: "(?i)hello w" })).forModel).toBe("a.txt:1:Hello World\na.txt:2:hello world");
    expect((await grep({ pattern: "hello", ignore_case: true })).forModel.split("\n")).toHaveLength(3);
    expect((await grep({ pattern: "hello" })).forModel).toBe("a.txt:2:hello world");
  });

  it("accepts ripgrep-style loose escapes and \\p{...} classes", async () => {
    await tree({ "a.txt": "a-b\nçà\n" });
    expect((await grep({ pattern: "a\\-b" })).forModel).toBe("a.txt:1:a-b");
    expect((await grep({ pattern: "^\\p{L}+$" })).forModel).toBe("a.txt:2:çà");
  });

  it("filters by a glob without a slash on the file name, at any depth", async () => {
    await tree({ "x.ts": "hit\n", "src/deep/y.ts": "hit\n", "src/y.js": "hit\n", "src/z.tsx": "hit\n" });
    expect((await grep({ pattern: "hit", glob: "*.ts" })).forModel).toBe("src/deep/y.ts:1:hit\nx.ts:1:hit");
    expect((await grep({ pattern: "hit", glob: "*.{js,tsx}" })).forModel).toBe("src/y.js:1:hit\nsrc/z.tsx:1:hit");
  });

  it("filters by a glob with a slash on the path relative to the search root", async () => {
    await tree({ "src/lib/a.ts": "hit\n", "src/b.ts": "hit\n", "lib/c.ts": "hit\n" });
    expect((await grep({ pattern: "hit", path: "src", glob: "lib/*.ts" })).forModel).toBe("src/lib/a.ts:1:hit");
    expect((await grep({ pattern: "hit", glob: "lib/*.ts" })).forModel).toBe("lib/c.ts:1:hit");
    expect((await grep({ pattern: "hit", glob: "**/lib/*.ts" })).forModel).toBe("lib/c.ts:1:hit\nsrc/lib/a.ts:1:hit");
  });

  it("skips gitignored files and .git", async () => {
    await tree({
      ".gitignore": "dist/\n*.log\n",
      "dist/a.js": "hit\n",
      "x.log": "hit\n",
      ".git/config": "hit\n",
      "src.ts": "hit\n",
    });
    expect((await grep({ pattern: "hit" })).forModel).toBe("src.ts:1:hit");
  });

  it("skips binary files and files over 8 MB, and says how many", async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), Buffer.from("hit\n")]);
    const nul = Buffer.from("hit\0hit\n");
    const big = `hit big\n${"filler line\n".repeat(800_000)}`;
    await tree({ "a.png": png, "b.dat": nul, "c.txt": big, "d.txt": "hit small\n" });
    expect(Buffer.byteLength(big)).toBeGreaterThan(8 * 1024 * 1024);
    const r = await grep({ pattern: "hit" });
    // Both engines count what they skipped.
    expect(r.forModel).toBe("d.txt:1:hit small\n[skipped 2 binary files, 1 file over 8 MB]");
  });

  it("reads a file between 64 KB and 8 MB whole", async () => {
    await tree({ "mid.txt": `${"a\n".repeat(50_000)}tail hit\n` });
    expect((await grep({ pattern: "hit" })).forModel).toBe("mid.txt:50001:tail hit");
  });

  it("shows at most 200 matches, the first in path order, with a note", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`f${String(i).padStart(3, "0")}.txt`] = "match\n";
    await tree(files);
    const r = await grep({ pattern: "match" });
    const lines = r.forModel.split("\n");
    expect(lines).toHaveLength(201);
    expect(lines[0]).toBe("f000.txt:1:match");
    expect(lines[199]).toBe("f199.txt:1:match");
    expect(lines[200]).toBe("[200 matches shown; narrow the pattern or path]");
  });

  it("adds no cap note at exactly 200 matches, and caps within one file", async () => {
    await tree({ "a.txt": "m\n".repeat(200) });
    const exact = (await grep({ pattern: "m" })).forModel.split("\n");
    expect(exact).toHaveLength(200);
    expect(exact.at(-1)).toBe("a.txt:200:m");
    await tree({ "a.txt": "m\n".repeat(5000) });
    const many = (await grep({ pattern: "m" })).forModel.split("\n");
    expect(many).toHaveLength(201);
    expect(many.at(-1)).toMatch(/^\[200 matches shown/);
  });

  it("decodes invalid UTF-8 with replacement characters", async () => {
    await tree({ "latin1.txt": Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6b, 0x0a]) });
    const r = await grep({ pattern: "caf.*ok" });
    expect(r.status).toBe("ok");
    expect(r.forModel).toBe("latin1.txt:1:caf\uFFFD ok");
  });

  it("searches a path that is a file, even an ignored one", async () => {
    await tree({ ".gitignore": "*.log\n", "logs/app.log": "one\nneedle\n", "other.txt": "needle\n" });
    expect((await grep({ pattern: "needle", path: "logs/app.log" })).forModel).toBe("logs/app.log:2:needle");
  });

  it("reports a missing path as an error", async () => {
    const r = await grep({ pattern: "x", path: "nope" });
    expect(r.status).toBe("error");
    expect(r.forModel).toBe("no such file or directory: nope");
  });

  it("does not loop through a symlink to a parent directory", async () => {
    await tree({ "d/a.txt": "needle\n" });
    await fs.symlink("..", join(ws, "d", "up"));
    await fs.symlink("a.txt", join(ws, "d", "alias.txt"));
    expect((await grep({ pattern: "needle" })).forModel).toBe("d/a.txt:1:needle");
  });

  it("cuts long lines to 300 characters around the match", async () => {
    await tree({
      "min.js": `${"a".repeat(1000)}NEEDLE${"b".repeat(1000)}\n`,
      "short.js": `NEEDLE${"c".repeat(400)}\n`,
    });
    const [min, short] = (await grep({ pattern: "NEEDLE" })).forModel.split("\n");
    const minText = min!.slice("min.js:1:".length);
    expect(minText).toContain("NEEDLE");
    expect(minText.startsWith("…") && minText.endsWith("…")).toBe(true);
    expect(minText.length).toBe(302);
    expect(short).toBe(`short.js:1:NEEDLE${"c".repeat(294)}…`);
  });

  it("treats CRLF lines as lines: no \\r in the output and $ anchors before it", async () => {
    await tree({ "w.txt": "first end\r\nsecond\r\n" });
    expect((await grep({ pattern: "end$" })).forModel).toBe("w.txt:1:first end");
  });

  it("stops with the abort signal", async () => {
    await tree({ "a.txt": "x\n" });
    const controller = new AbortController();
    controller.abort();
    await expect(
      grepTool.run({ pattern: "x" }, { workspace: ws, signal: controller.signal, output: () => {} }),
    ).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("summarizes a call on one line", () => {
    expect(grepTool.summarize({ pattern: "foo", path: "src", glob: "*.ts" })).toBe('"foo" in src (*.ts)');
    expect(grepTool.summarize({ pattern: "foo", ignore_case: true })).toBe('"foo" (ignore case)');
  });
});

describe("searchText", () => {
  it("finds a matching line even when a candidate match spans the lines before it", () => {
    expect(searchText("a\nab\n", compilePattern("a[^z]*b"), 10)).toEqual([{ line: 2, text: "ab" }]);
  });

  it("does not count the empty string after a final newline as a line", () => {
    expect(searchText("x\n\ny\n", compilePattern("^$"), 10)).toEqual([{ line: 2, text: "" }]);
    expect(searchText("x", compilePattern("^"), 10)).toEqual([{ line: 1, text: "x" }]);
  });

  it("never reports a match across lines", () => {
    expect(searchText("foo\nbar\n", compilePattern("foo\\sbar"), 10)).toEqual([]);
  });
});

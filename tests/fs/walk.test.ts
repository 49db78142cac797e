// The walker on real temp directories: order, gitignore semantics (nested, negated, anchored,
// info/exclude), .git, symlinks, depth, early stop, abort and unreadable directories.
import { promises as fs } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { walk, type WalkEntry, type WalkOptions } from "../../src/fs/walk.js";

let ws: string;

beforeEach(async () => {
  ws = await fs.realpath(await fs.mkdtemp(join(os.tmpdir(), "nh-walk-")));
});

afterEach(async () => {
  await fs.chmod(join(ws, "locked"), 0o755).catch(() => {});
  await fs.rm(ws, { recursive: true, force: true });
});

async function tree(files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await fs.mkdir(dirname(join(ws, path)), { recursive: true });
    await fs.writeFile(join(ws, path), content);
  }
}

async function collect(root: string, options: WalkOptions = {}): Promise<WalkEntry[]> {
  const out: WalkEntry[] = [];
  for await (const entry of walk(root, options)) out.push(entry);
  return out;
}

async function paths(root: string, options: WalkOptions = {}): Promise<string[]> {
  return (await collect(root, options)).map((e) => (e.type === "dir" ? `${e.path}/` : e.path));
}

describe("walk", () => {
  it("yields depth-first, entries sorted by name, with POSIX relative paths and types", async () => {
    await tree({ "b.txt": "", "a/z.txt": "", "a/b/c.txt": "", "A.txt": "" });
    await fs.symlink("b.txt", join(ws, "link"));
    const entries = await collect(ws);
    expect(entries.map((e) => [e.path, e.type, e.depth])).toEqual([
      ["A.txt", "file", 1],
      ["a", "dir", 1],
      ["a/b", "dir", 2],
      ["a/b/c.txt", "file", 3],
      ["a/z.txt", "file", 2],
      ["b.txt", "file", 1],
      ["link", "symlink", 1],
    ]);
  });

  it("gives the same order whatever the read concurrency", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) for (let j = 0; j < 4; j++) files[`d${i}/s${j}/f.txt`] = "";
    await tree(files);
    const serial = await paths(ws, { concurrency: 1 });
    const parallel = await paths(ws, { concurrency: 32 });
    expect(serial).toHaveLength(30 + 30 * 4 * 2);
    expect(parallel).toEqual(serial);
    expect(serial.slice(0, 4)).toEqual(["d0/", "d0/s0/", "d0/s0/f.txt", "d0/s1/"]);
  });

  it("honours nested .gitignore files, relative to their directory, with negation", async () => {
    await tree({
      ".gitignore": "*.log\nbuild/\n*.LOWER\n",
      "a.log": "",
      "y.tmp": "",
      "x.lower": "",
      "build/out.js": "",
      "sub/.gitignore": "!keep.log\n*.tmp\n/anchored.txt\n",
      "sub/keep.log": "",
      "sub/drop.log": "",
      "sub/y.tmp": "",
      "sub/anchored.txt": "",
      "sub/deeper/anchored.txt": "",
      "sub/deeper/z.tmp": "",
      "sub/build/x.js": "",
    });
    expect(await paths(ws)).toEqual([
      ".gitignore",
      "sub/",
      "sub/.gitignore",
      "sub/deeper/",
      "sub/deeper/anchored.txt",
      "sub/keep.log",
      "x.lower", // matching is case-sensitive, as in git
      "y.tmp", // sub's *.tmp does not reach its parent
    ]);
  });

  it("lets a deeper .gitignore re-include a directory a shallower one excludes", async () => {
    await tree({
      ".gitignore": "logs/\n*.bak\n",
      "logs/root.txt": "",
      "app/.gitignore": "!logs/\n",
      "app/logs/kept.txt": "",
      "app/logs/old.bak": "",
    });
    expect(await paths(ws)).toEqual([".gitignore", "app/", "app/.gitignore", "app/logs/", "app/logs/kept.txt"]);
  });

  it("skips .git and honours .git/info/exclude at the root", async () => {
    await tree({
      ".git/HEAD": "ref: x",
      ".git/info/exclude": "secret.txt\n",
      "secret.txt": "",
      "open.txt": "",
      "sub/.git": "gitdir: x",
    });
    expect(await paths(ws)).toEqual(["open.txt", "sub/"]);
  });

  it("applies the .gitignore files between the ignore root and a deeper walk root", async () => {
    await tree({
      ".gitignore": "*.gen.ts\n",
      "src/.gitignore": "/lib/tmp/\n",
      "src/lib/a.ts": "",
      "src/lib/a.gen.ts": "",
      "src/lib/tmp/x.ts": "",
    });
    expect(await paths(join(ws, "src/lib"), { ignoreRoot: ws })).toEqual(["a.ts"]);
    // Without the ignore root only the walk root's own rules (none) apply.
    expect(await paths(join(ws, "src/lib"))).toEqual(["a.gen.ts", "a.ts", "tmp/", "tmp/x.ts"]);
  });

  it("walks a root that is itself ignored when asked for it by name", async () => {
    await tree({
      ".gitignore": "node_modules/\n*.md\n",
      "node_modules/pkg/index.js": "",
      "node_modules/pkg/README.md": "",
    });
    expect(await paths(join(ws, "node_modules"), { ignoreRoot: ws })).toEqual(["pkg/", "pkg/index.js"]);
  });

  it("marks ignored entries with yieldIgnored and does not enter ignored directories", async () => {
    await tree({
      ".gitignore": "node_modules\n*.log\n",
      "node_modules/x/y.js": "",
      "a.log": "",
      "a.txt": "",
      ".git/HEAD": "",
    });
    const entries = await collect(ws, { yieldIgnored: true });
    expect(entries.map((e) => [e.path, e.ignored])).toEqual([
      [".git", true],
      [".gitignore", false],
      ["a.log", true],
      ["a.txt", false],
      ["node_modules", true],
    ]);
  });

  it("lists a symlink to a parent directory without following it", async () => {
    await tree({ "d/f.txt": "" });
    await fs.symlink("..", join(ws, "d", "up"));
    await fs.symlink(ws, join(ws, "self"));
    const entries = await collect(ws);
    expect(entries.map((e) => [e.path, e.type])).toEqual([
      ["d", "dir"],
      ["d/f.txt", "file"],
      ["d/up", "symlink"],
      ["self", "symlink"],
    ]);
  });

  it("stops at maxDepth", async () => {
    await tree({ "a/b/c/d.txt": "", "top.txt": "" });
    expect(await paths(ws, { maxDepth: 1 })).toEqual(["a/", "top.txt"]);
    expect(await paths(ws, { maxDepth: 2 })).toEqual(["a/", "a/b/", "top.txt"]);
  });

  it("stops when the consumer breaks out", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i++) files[`d${String(i).padStart(2, "0")}/f.txt`] = "";
    await tree(files);
    const seen: string[] = [];
    for await (const entry of walk(ws)) {
      seen.push(entry.path);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(["d00", "d00/f.txt", "d01"]);
  });

  it("throws the abort reason when the signal is aborted, before or during the walk", async () => {
    await tree({ "a/1.txt": "", "b/2.txt": "", "c/3.txt": "" });
    const before = new AbortController();
    before.abort();
    await expect(collect(ws, { signal: before.signal })).rejects.toMatchObject({ name: "AbortError" });

    const during = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      for await (const entry of walk(ws, { signal: during.signal })) {
        seen.push(entry.path);
        if (seen.length === 2) during.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ name: "AbortError" });
    expect(seen).toEqual(["a", "a/1.txt"]);
  });

  it("counts a directory whose path is too long to read as unreadable, and goes on (works as root too)", async () => {
    // Built short and renamed long from the bottom up, since no single call may pass a path over PATH_MAX.
    const long = (i: number) => `${String(i).padStart(2, "0")}${"x".repeat(240)}`;
    const levels = 18;
    const short = Array.from({ length: levels }, (_, i) => `s${i}`);
    await fs.mkdir(join(ws, "deep", ...short), { recursive: true });
    await tree({ "z.txt": "" });
    for (let i = levels - 1; i >= 0; i--) {
      const parent = join(ws, "deep", ...short.slice(0, i));
      await fs.rename(join(parent, short[i]!), join(parent, long(i)));
    }
    try {
      const walker = walk(ws);
      const seen: WalkEntry[] = [];
      for await (const entry of walker) seen.push(entry);
      expect(walker.unreadable).toBe(1);
      expect(seen.at(-1)?.path).toBe("z.txt");
      expect(seen.length).toBeGreaterThan(10);
      expect(seen.length).toBeLessThan(levels + 2);
    } finally {
      // Undo top-down, so every rename again uses a short path.
      for (let i = 0; i < levels; i++) {
        const parent = join(ws, "deep", ...short.slice(0, i));
        await fs.rename(join(parent, long(i)), join(parent, short[i]!));
      }
    }
  });

  it("counts a missing root as unreadable and yields nothing", async () => {
    const walker = walk(join(ws, "missing"));
    const seen: WalkEntry[] = [];
    for await (const entry of walker) seen.push(entry);
    expect(seen).toEqual([]);
    expect(walker.unreadable).toBe(1);
  });
});

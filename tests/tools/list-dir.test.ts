// list_dir through the real registry on temp directories: the tree format, depth, ignored
// directories, symlinks, the entry cap and bad paths.
import { promises as fs } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listDirTool } from "../../src/tools/list-dir.js";
import { callTool } from "../helpers/tools.js";

let ws: string;

beforeEach(async () => {
  ws = await fs.realpath(await fs.mkdtemp(join(os.tmpdir(), "nh-ls-")));
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

async function ls(args: Record<string, unknown>): Promise<string> {
  const r = await callTool(listDirTool, args, ws);
  expect(r.status).toBe("ok");
  return r.forModel;
}

describe("list_dir", () => {
  it("lists one level by default: directories with /, symlinks with their target", async () => {
    await tree({ "src/index.ts": "", "README.md": "" });
    await fs.symlink("README.md", join(ws, "link.md"));
    expect(await ls({})).toBe(["./", "  README.md", "  link.md -> README.md", "  src/"].join("\n"));
  });

  it("indents deeper levels up to depth", async () => {
    await tree({ "src/tools/grep.ts": "", "src/tools/deep/x.ts": "", "src/index.ts": "", "b.txt": "" });
    expect(await ls({ depth: 3 })).toBe(
      ["./", "  b.txt", "  src/", "    index.ts", "    tools/", "      deep/", "      grep.ts"].join("\n"),
    );
    expect(await ls({ path: "src", depth: 2 })).toBe(
      ["src/", "  index.ts", "  tools/", "    deep/", "    grep.ts"].join("\n"),
    );
  });

  it("names ignored directories and .git without entering them, and counts ignored files", async () => {
    await tree({
      ".gitignore": "node_modules/\n*.log\n",
      "node_modules/a/index.js": "",
      ".git/HEAD": "",
      "x.log": "",
      "y.log": "",
      "a.ts": "",
    });
    expect(await ls({ depth: 3 })).toBe(
      [
        "./",
        "  .git/ (ignored)",
        "  .gitignore",
        "  a.ts",
        "  node_modules/ (ignored)",
        "[2 ignored files not shown]",
      ].join("\n"),
    );
  });

  it("lists an ignored directory when asked for it by name", async () => {
    await tree({ ".gitignore": "node_modules/\n", "node_modules/pkg/index.js": "" });
    expect(await ls({ path: "node_modules", depth: 2 })).toBe(["node_modules/", "  pkg/", "    index.js"].join("\n"));
  });

  it("shows a symlink to a parent directory at any depth without looping", async () => {
    await tree({ "a/b/f.txt": "" });
    await fs.symlink("../..", join(ws, "a", "b", "loop"));
    expect(await ls({ depth: 5 })).toBe(["./", "  a/", "    b/", "      f.txt", "      loop -> ../.."].join("\n"));
  });

  it("cuts at 1000 entries with a note", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1100; i++) files[`f${String(i).padStart(4, "0")}`] = "";
    await tree(files);
    const lines = (await ls({})).split("\n");
    expect(lines).toHaveLength(1 + 1000 + 1);
    expect(lines[1000]).toBe("  f0999");
    expect(lines[1001]).toBe("[1000 entries shown; list a subdirectory or use a smaller depth for the rest]");
  });

  it("says (empty) for an empty directory", async () => {
    await fs.mkdir(join(ws, "void"));
    expect(await ls({ path: "void" })).toBe("void/\n(empty)");
  });

  it("reports a missing path and a file path as errors", async () => {
    await tree({ "a.txt": "" });
    const missing = await callTool(listDirTool, { path: "nope" }, ws);
    expect(missing.status).toBe("error");
    expect(missing.forModel).toBe("no such file or directory: nope");
    const file = await callTool(listDirTool, { path: "a.txt" }, ws);
    expect(file.status).toBe("error");
    expect(file.forModel).toBe("a.txt is a file, not a directory; use read_file to read it");
  });

  it("rejects a depth outside 1-5 before running", async () => {
    for (const depth of [0, 6, 1.5]) {
      const r = await callTool(listDirTool, { depth }, ws);
      expect(r.status).toBe("error");
      expect(r.forModel).toMatch(/^invalid arguments for list_dir: "depth"/);
    }
  });

  it("summarizes a call on one line", () => {
    expect(listDirTool.summarize({})).toBe(".");
    expect(listDirTool.summarize({ path: "src", depth: 3 })).toBe("src (depth 3)");
  });
});

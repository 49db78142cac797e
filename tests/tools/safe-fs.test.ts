// The no-follow walk (safe-fs.ts) and the file tools on it: dangling links, links out, `..`
// escapes, links that stay inside, protected paths reached through links, and special files
// (a real FIFO, a /dev node) refused by each tool at once instead of hanging.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyPatchTool } from "../../src/tools/apply-patch.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { descriptorWalk, walk } from "../../src/tools/safe-fs.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { readFileTool } from "../../src/tools/read-file.js";
import { exportTask } from "../../src/session/export.js";
import { newSession } from "../../src/session/store.js";
import { loadImage } from "../../src/agent/images.js";
import { tempDir } from "../helpers/cli.js";
import { callTool } from "../helpers/tools.js";

const patch = (body: string) => ({ patch: `*** Begin Patch\n${body}\n*** End Patch` });

describe("walk", () => {
  it("uses descriptors on Linux", () => {
    expect(descriptorWalk()).toBe(process.platform === "linux");
  });

  it("resolves links itself: chains, relative links with .., absolute links, and names what is missing", () => {
    const ws = tempDir();
    mkdirSync(join(ws, "a", "b"), { recursive: true });
    writeFileSync(join(ws, "a", "b", "f.txt"), "x");
    symlinkSync("a/b", join(ws, "ab"));
    symlinkSync("../a/b/f.txt", join(ws, "a", "up"));
    symlinkSync(join(ws, "a", "up"), join(ws, "abs"));
    symlinkSync("b/../../a/b", join(ws, "a", "dotdot"));
    const real = (p: string, followFinal = true) => {
      const w = walk(join(ws, p), { followFinal });
      try {
        return [w.real, w.parentExists];
      } finally {
        w.close();
      }
    };
    expect(real("ab/f.txt")).toEqual([join(ws, "a/b/f.txt"), true]);
    expect(real("a/up")).toEqual([join(ws, "a/b/f.txt"), true]);
    expect(real("abs")).toEqual([join(ws, "a/b/f.txt"), true]);
    expect(real("abs", false)).toEqual([join(ws, "abs"), true]);
    expect(real("a/dotdot/f.txt")).toEqual([join(ws, "a/b/f.txt"), true]);
    expect(real("ab/new/deeper/g.txt")).toEqual([join(ws, "a/b/new/deeper/g.txt"), false]);
    expect(real("a/b/f.txt/under")).toEqual([join(ws, "a/b/f.txt/under"), false]);
  });

  it("refuses link loops and a climb back out of a missing directory", () => {
    const ws = tempDir();
    symlinkSync("loop2", join(ws, "loop1"));
    symlinkSync("loop1", join(ws, "loop2"));
    expect(() => walk(join(ws, "loop1", "x"), { followFinal: true })).toThrow(/too many levels of symbolic links/);
    symlinkSync("nope/../../../etc/passwd", join(ws, "sneaky"));
    expect(() => walk(join(ws, "sneaky"), { followFinal: true })).toThrow(/does not exist|not a directory/);
  });
});

describe("file tools: links and escapes", () => {
  it("create the target of a dangling link inside the workspace, and refuse one that points outside", async () => {
    const ws = tempDir();
    const outside = tempDir();
    symlinkSync("sub/made.txt", join(ws, "dangling-in"));
    symlinkSync(join(outside, "made.txt"), join(ws, "dangling-out"));
    const made = await callTool(writeFileTool, { path: "dangling-in", content: "hello\n" }, ws);
    expect(made.status, made.forModel).toBe("ok");
    expect(readFileSync(join(ws, "sub", "made.txt"), "utf8")).toBe("hello\n");
    expect(readlinkSync(join(ws, "dangling-in"))).toBe("sub/made.txt");
    for (const tool of [writeFileTool, editFileTool]) {
      const args =
        tool === writeFileTool
          ? { path: "dangling-out", content: "x" }
          : { path: "dangling-out", old_string: "", new_string: "x" };
      const r = await callTool(tool, args, ws);
      expect(r.forModel).toMatch(/outside the workspace/);
    }
    expect((await callTool(applyPatchTool, patch("*** Add File: dangling-out\n+x"), ws)).forModel).toMatch(
      /outside the workspace/,
    );
    expect(readdirSync(outside)).toEqual([]);
  });

  it("refuse links to a file and a directory outside, for every tool and every patch operation", async () => {
    const ws = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, "f.txt"), "keep\n");
    symlinkSync(join(outside, "f.txt"), join(ws, "file-link"));
    symlinkSync(outside, join(ws, "dir-link"));
    symlinkSync("../../../../../../../../..", join(ws, "root-link"));
    const calls: [typeof writeFileTool, unknown][] = [
      [writeFileTool, { path: "file-link", content: "x" }],
      [writeFileTool, { path: "dir-link/f.txt", content: "x" }],
      [writeFileTool, { path: "dir-link/new/n.txt", content: "x" }],
      [writeFileTool, { path: `root-link${outside}/f.txt`, content: "x" }],
      [editFileTool, { path: "file-link", old_string: "keep", new_string: "x" }],
      [editFileTool, { path: "dir-link/f.txt", old_string: "keep", new_string: "x" }],
      [applyPatchTool, patch("*** Update File: dir-link/f.txt\n@@\n-keep\n+x")],
      [applyPatchTool, patch("*** Delete File: dir-link/f.txt")],
      [applyPatchTool, patch("*** Add File: dir-link/g.txt\n+x")],
      [applyPatchTool, patch("*** Update File: dir-link/f.txt\n*** Move to: moved.txt\n@@\n-keep\n+keep")],
    ];
    for (const [tool, args] of calls) {
      const r = await callTool(tool, args, ws);
      expect(r.status, JSON.stringify(args)).toBe("error");
      expect(r.forModel, JSON.stringify(args)).toMatch(/outside the workspace/);
    }
    expect(readdirSync(outside)).toEqual(["f.txt"]);
    expect(readFileSync(join(outside, "f.txt"), "utf8")).toBe("keep\n");
  });

  it("refuse .. escapes, also through a link's target", async () => {
    const ws = tempDir();
    const outside = tempDir();
    mkdirSync(join(ws, "sub"));
    symlinkSync("../..", join(ws, "sub", "up2"));
    for (const path of ["../escape.txt", "sub/../../escape.txt", "sub/up2/escape.txt"]) {
      const r = await callTool(writeFileTool, { path, content: "x" }, ws);
      expect(r.forModel, path).toMatch(/outside the workspace/);
    }
    expect(existsSync(join(ws, "..", "escape.txt"))).toBe(false);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("keep working through links that stay inside the workspace, editing the target and keeping the link", async () => {
    const ws = tempDir();
    mkdirSync(join(ws, "real"));
    writeFileSync(join(ws, "real", "a.txt"), "one\ntwo\n");
    symlinkSync("real", join(ws, "dir-alias"));
    symlinkSync("real/a.txt", join(ws, "file-alias"));
    expect(
      (await callTool(editFileTool, { path: "file-alias", old_string: "one", new_string: "ONE" }, ws)).status,
    ).toBe("ok");
    expect((await callTool(applyPatchTool, patch("*** Update File: dir-alias/a.txt\n@@\n-two\n+TWO"), ws)).status).toBe(
      "ok",
    );
    expect((await callTool(writeFileTool, { path: "dir-alias/b.txt", content: "b\n" }, ws)).status).toBe("ok");
    expect(readFileSync(join(ws, "real", "a.txt"), "utf8")).toBe("ONE\nTWO\n");
    expect(readFileSync(join(ws, "real", "b.txt"), "utf8")).toBe("b\n");
    expect(lstatSync(join(ws, "file-alias")).isSymbolicLink()).toBe(true);
    // Deleting or moving a link itself is still refused: it would remove the target.
    expect((await callTool(applyPatchTool, patch("*** Delete File: file-alias"), ws)).forModel).toMatch(
      /symbolic link/,
    );
  });

  it("refuse protected paths reached through links, checked on the canonical path", async () => {
    const ws = tempDir();
    mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
    writeFileSync(join(ws, ".git", "config"), "[core]\n");
    mkdirSync(join(ws, ".nanohermes"));
    symlinkSync(".git/hooks", join(ws, "hooks"));
    symlinkSync(".git", join(ws, "g"));
    symlinkSync(".git/config", join(ws, "cfg"));
    symlinkSync("sub/../.nanohermes", join(ws, "nh"));
    mkdirSync(join(ws, "sub"));
    const calls: [typeof writeFileTool, unknown][] = [
      [writeFileTool, { path: "hooks/pre-commit", content: "#!/bin/sh\n" }],
      [writeFileTool, { path: "g/hooks/post-checkout", content: "#!/bin/sh\n" }],
      [writeFileTool, { path: "g/config", content: "[core]\n\tfsmonitor = evil\n" }],
      [editFileTool, { path: "cfg", old_string: "[core]", new_string: "[core]\n\tfsmonitor = evil" }],
      [writeFileTool, { path: "nh/config.json", content: "{}" }],
      [applyPatchTool, patch("*** Add File: hooks/post-merge\n+#!/bin/sh")],
      [applyPatchTool, patch("*** Update File: cfg\n@@\n-[core]\n+[core]\n+\thooksPath = x")],
    ];
    for (const [tool, args] of calls) {
      const r = await callTool(tool, args, ws);
      expect(r.forModel, JSON.stringify(args)).toMatch(/is protected/);
    }
    expect(readdirSync(join(ws, ".git", "hooks"))).toEqual([]);
    expect(readFileSync(join(ws, ".git", "config"), "utf8")).toBe("[core]\n");
    expect(readdirSync(join(ws, ".nanohermes"))).toEqual([]);
  });
});

describe("file tools: special files", () => {
  it("refuse a FIFO at once, for each tool, naming the file type", async () => {
    const ws = tempDir();
    execFileSync("mkfifo", [join(ws, "pipe")]);
    const calls: [typeof writeFileTool, unknown][] = [
      [writeFileTool, { path: "pipe", content: "x" }],
      [editFileTool, { path: "pipe", old_string: "a", new_string: "b" }],
      [editFileTool, { path: "pipe", old_string: "", new_string: "b" }],
      [applyPatchTool, patch("*** Update File: pipe\n@@\n-a\n+b")],
      [applyPatchTool, patch("*** Delete File: pipe")],
    ];
    for (const [tool, args] of calls) {
      const r = await callTool(tool, args, ws);
      expect(r.status, JSON.stringify(args)).toBe("error");
      expect(r.forModel, JSON.stringify(args)).toMatch(/pipe is a FIFO \(named pipe\), not a regular file/);
    }
    expect(lstatSync(join(ws, "pipe")).isFIFO()).toBe(true);
  });

  it("read_file checks the file it opened, without blocking: a FIFO is refused by type, never read", async () => {
    const ws = tempDir();
    execFileSync("mkfifo", [join(ws, "pipe")]);
    symlinkSync("pipe", join(ws, "link-to-pipe"));
    for (const path of ["pipe", "link-to-pipe"]) {
      const r = await callTool(readFileTool, { path }, ws);
      expect(r.status, path).toBe("error");
      expect(r.forModel, path).toMatch(/is a FIFO \(named pipe\), not a regular file/);
    }
    const dev = await callTool(readFileTool, { path: "/dev/zero" }, ws);
    expect(dev.forModel).toBe(
      "/dev/zero is a character device, not a regular file; read_file reads regular files only",
    );
  });

  it("refuse a /dev node, for each tool, naming the file type", async () => {
    const ws = tempDir();
    const boundary = { readOnly: false, extraRoots: ["/dev"], protect: true };
    const calls: [typeof writeFileTool, unknown][] = [
      [writeFileTool, { path: "/dev/null", content: "x" }],
      [editFileTool, { path: "/dev/zero", old_string: "a", new_string: "b" }],
      [applyPatchTool, patch("*** Update File: /dev/null\n@@\n-a\n+b")],
    ];
    for (const [tool, args] of calls) {
      const r = await callTool(tool, args, ws, undefined, { boundary });
      expect(r.status, JSON.stringify(args)).toBe("error");
      expect(r.forModel, JSON.stringify(args)).toMatch(/\/dev\/(null|zero) is a character device, not a regular file/);
    }
    expect(lstatSync("/dev/null").isCharacterDevice()).toBe(true);
  });
});

describe("images", () => {
  it("refuse a FIFO at once instead of waiting on it", async () => {
    const ws = tempDir();
    execFileSync("mkfifo", [join(ws, "shot.png")]);
    expect(await loadImage("shot.png", ws)).toEqual({
      ok: false,
      error: "shot.png is a FIFO (named pipe), not a regular file; refusing to read or write it",
    });
  });
});

describe("other writers into the workspace", () => {
  it("/export replaces a link planted at its file name instead of writing through it", async () => {
    const ws = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, ".bashrc"), "keep\n");
    symlinkSync(join(outside, ".bashrc"), join(ws, "out.md"));
    const file = await exportTask(newSession(ws, "m"), "T", "markdown", "out.md", ws);
    expect(file).toBe(join(ws, "out.md"));
    expect(readFileSync(join(outside, ".bashrc"), "utf8")).toBe("keep\n");
    expect(lstatSync(join(ws, "out.md")).isFile()).toBe(true);
    expect(readFileSync(join(ws, "out.md"), "utf8")).toMatch(/^# T/);
  });
});

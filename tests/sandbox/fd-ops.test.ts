// The after-command check writes and removes with the user's rights: a symlink anywhere on the
// way (planted by a sandboxed process) must never lead it outside the writable root.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readRegular, RedirectedPath, RootedFs, rootedFsAvailable } from "../../src/sandbox/fd-ops.js";

let base = "";
let root = "";
let outside = "";
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "nh-fdops-")));
  root = join(base, "root");
  outside = join(base, "outside");
  mkdirSync(join(root, "real/deep"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "keep"), "keep");
  symlinkSync(outside, join(root, "link"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("RootedFs", () => {
  it("is available here (Linux with /proc)", () => {
    expect(rootedFsAvailable()).toBe(true);
  });

  it("writes, replaces, makes folders and links beneath real folders", () => {
    const fs = new RootedFs([root]);
    fs.writeFile(join(root, "real/deep/a"), "one", 0o600);
    fs.replaceFile(join(root, "real/deep/a"), "two", 0o640);
    expect(readFileSync(join(root, "real/deep/a"), "utf8")).toBe("two");
    expect(lstatSync(join(root, "real/deep/a")).mode & 0o777).toBe(0o640);
    fs.mkdir(join(root, "real/new"), 0o700);
    fs.chmodDir(join(root, "real/new"), 0o755);
    expect(lstatSync(join(root, "real/new")).mode & 0o777).toBe(0o755);
    fs.symlink("../x", join(root, "real/l"));
    expect(readlinkSync(join(root, "real/l"))).toBe("../x");
    fs.remove(join(root, "real"));
    expect(existsSync(join(root, "real"))).toBe(false);
  });

  it("refuses to go through a symlinked folder, so nothing outside is written or removed", () => {
    const fs = new RootedFs([root]);
    expect(() => fs.writeFile(join(root, "link/planted"), "x")).toThrow(RedirectedPath);
    expect(() => fs.remove(join(root, "link/keep"))).toThrow(RedirectedPath);
    expect(() => fs.mkdir(join(root, "link/dir"), 0o755)).toThrow(RedirectedPath);
    expect(() => fs.chmodDir(join(root, "link"), 0o777)).toThrow(RedirectedPath);
    expect(existsSync(join(outside, "planted"))).toBe(false);
    expect(existsSync(join(outside, "dir"))).toBe(false);
    expect(readFileSync(join(outside, "keep"), "utf8")).toBe("keep");
    expect(lstatSync(outside).mode & 0o777).not.toBe(0o777);
  });

  it("removes a symlink itself, never its target, also inside a folder it removes", () => {
    const fs = new RootedFs([root]);
    symlinkSync(outside, join(root, "real/deep/inner-link"));
    fs.remove(join(root, "link"));
    fs.remove(join(root, "real"));
    expect(existsSync(join(root, "link"))).toBe(false);
    expect(readFileSync(join(outside, "keep"), "utf8")).toBe("keep");
  });

  it("does not write through a symlink planted at the file's own name", () => {
    const fs = new RootedFs([root]);
    symlinkSync(join(outside, "keep"), join(root, "real/target"));
    expect(() => fs.writeFile(join(root, "real/target"), "evil")).toThrow();
    fs.replaceFile(join(root, "real/target"), "mine");
    expect(readFileSync(join(outside, "keep"), "utf8")).toBe("keep");
    expect(readFileSync(join(root, "real/target"), "utf8")).toBe("mine");
  });

  it("starts from the outermost root, so a nested root swapped for a link is caught", () => {
    const inner = join(root, "real");
    const fs = new RootedFs([inner, root]);
    rmSync(inner, { recursive: true });
    symlinkSync(outside, inner);
    expect(() => fs.writeFile(join(inner, "planted"), "x")).toThrow(RedirectedPath);
    expect(existsSync(join(outside, "planted"))).toBe(false);
  });
});

describe("readRegular", () => {
  it("reads files and refuses links, folders and oversized files", () => {
    writeFileSync(join(root, "f"), "data");
    expect(readRegular(join(root, "f"), 10)?.toString()).toBe("data");
    expect(readRegular(join(root, "f"), 2)).toBeNull();
    expect(readRegular(join(root, "link"), 10)).toBeNull();
    expect(readRegular(join(root, "real"), 10)).toBeNull();
    // A FIFO with no writer would block a plain read forever.
    execFileSync("mkfifo", [join(root, "fifo")]);
    expect(readRegular(join(root, "fifo"), 10)).toBeNull();
  });
});

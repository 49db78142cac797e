// tempDir's folders are removed when their test file ends (tests/temp-cleanup.ts runs
// removeTempDirs after the file's own hooks); here it is called directly.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { removeTempDirs, tempDir } from "./cli.js";

describe("tempDir and removeTempDirs", () => {
  let first = "";

  it("makes a fresh folder each time, kept for the rest of the file", () => {
    first = tempDir("nh-tempdir-");
    const second = tempDir("nh-tempdir-");
    expect(first).not.toBe(second);
    writeFileSync(join(first, "kept.txt"), "x");
  });

  it("still has the earlier test's folder (removal is per file, not per test)", () => {
    expect(existsSync(join(first, "kept.txt"))).toBe(true);
  });

  it("removes every folder made so far, even one a test made read-only", () => {
    const locked = tempDir("nh-tempdir-");
    mkdirSync(join(locked, "ro", "deep"), { recursive: true });
    writeFileSync(join(locked, "ro", "deep", "f"), "x");
    writeFileSync(join(locked, "ro", "secret"), "x");
    chmodSync(join(locked, "ro", "secret"), 0o000);
    chmodSync(join(locked, "ro", "deep"), 0o500);
    chmodSync(join(locked, "ro"), 0o500);
    removeTempDirs();
    expect(existsSync(first)).toBe(false);
    expect(existsSync(locked)).toBe(false);
    // Nothing is left to remove twice.
    expect(() => removeTempDirs()).not.toThrow();
  });
});

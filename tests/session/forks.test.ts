// The record of where a refused session went: found again for the same refused file, not for one
// that changed since (its fork would hold old content), nor when the fork's file is gone.
import { appendFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordedFork, recordFork } from "../../src/session/forks.js";
import { tempDir } from "../helpers/cli.js";

function setup() {
  const dir = tempDir();
  const sessionDir = join(dir, "sessions");
  mkdirSync(sessionDir);
  const refused = join(dir, "newer.json");
  writeFileSync(refused, '{"version": 99}');
  const fork = join(sessionDir, "f1.json");
  writeFileSync(fork, "{}");
  return { sessionDir, refused, fork };
}

describe("fork records", () => {
  it("finds the fork recorded for the same refused file, and a later record replaces it", async () => {
    const { sessionDir, refused, fork } = setup();
    expect(await recordedFork(sessionDir, refused)).toBeNull();
    await recordFork(sessionDir, refused, fork);
    expect(await recordedFork(sessionDir, refused)).toBe(fork);
    const other = join(sessionDir, "f2.json");
    writeFileSync(other, "{}");
    await recordFork(sessionDir, refused, other);
    expect(await recordedFork(sessionDir, refused)).toBe(other);
  });

  it("a refused file that changed since, or a fork that is gone, has none", async () => {
    const { sessionDir, refused, fork } = setup();
    await recordFork(sessionDir, refused, fork);
    appendFileSync(refused, " ");
    utimesSync(refused, new Date(), new Date(Date.now() + 5_000));
    expect(await recordedFork(sessionDir, refused)).toBeNull();
    await recordFork(sessionDir, refused, fork);
    rmSync(fork);
    expect(await recordedFork(sessionDir, refused)).toBeNull();
  });
});

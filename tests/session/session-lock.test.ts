// The session lock on real files and processes: shared within a process, refused to a second
// live process with a message naming it, taken over from a dead one, and never confused with a
// plain file in its place.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  lockSession,
  SessionBusyError,
  sessionLockPath,
  SessionUnwritableError,
} from "../../src/session/session-lock.js";
import { tempDir } from "../helpers/cli.js";

describe("lockSession", () => {
  it("makes a symlink naming this process, shares it within the process, and removes it on the last release", async () => {
    const file = join(tempDir(), "sessions", "s.json");
    const first = await lockSession(file);
    const lock = sessionLockPath(file);
    expect(lstatSync(lock).isSymbolicLink()).toBe(true);
    expect(readlinkSync(lock)).toMatch(new RegExp(`^${process.pid}@${hostname()}@`));
    const second = await lockSession(file);
    // A release called twice counts once: the second holder still has it.
    await first();
    await first();
    expect(lstatSync(lock).isSymbolicLink()).toBe(true);
    await second();
    expect(() => lstatSync(lock)).toThrow();
  });

  it("refuses a session held by another live process after the wait, naming its pid", async () => {
    const file = join(tempDir(), "s.json");
    const other = spawn("sleep", ["30"]);
    try {
      symlinkSync(`${other.pid}@${hostname()}@abcdefghij`, sessionLockPath(file));
      const err = await lockSession(file, 200).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SessionBusyError);
      expect((err as Error).message).toBe(
        `session ${file} is in use by another NanoHermes run (pid ${other.pid}); try again when it has finished (or remove ${sessionLockPath(file)} if that run is gone)`,
      );
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("takes over the lock of a process that died (kill -9 leaves it behind)", async () => {
    const file = join(tempDir(), "s.json");
    const dead = spawnSync("true").pid!;
    symlinkSync(`${dead}@${hostname()}@abcdefghij`, sessionLockPath(file));
    const release = await lockSession(file, 200);
    expect(readlinkSync(sessionLockPath(file))).toMatch(new RegExp(`^${process.pid}@`));
    await release();
  });

  it("leaves a plain file where the lock goes alone and says so", async () => {
    const file = join(tempDir(), "s.json");
    writeFileSync(sessionLockPath(file), "mine");
    await expect(lockSession(file, 100)).rejects.toThrow(/is not a lock/);
    expect(existsSync(sessionLockPath(file))).toBe(true);
  });

  it("fails as unwritable, with the file system's message, when the folder cannot hold a lock", async () => {
    const notDir = join(tempDir(), "file");
    writeFileSync(notDir, "x");
    const err = await lockSession(join(notDir, "s.json")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionUnwritableError);
    expect((err as Error).message).toMatch(/ENOTDIR|EEXIST/);
  });
});

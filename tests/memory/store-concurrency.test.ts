// Concurrent writers on one memory file: instances in this process and real child processes
// saving at once lose nothing; stale locks are taken over, live ones waited for.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { withFileLock } from "../../src/memory/file-lock.js";
import { MemoryStore } from "../../src/memory/store.js";
import { tempDir } from "../helpers/cli.js";

const PER_WRITER = 25;

/** The store bundled into one plain .mjs, so a child `node` can run it without a TS loader. */
function bundleStore(dir: string): string {
  const outfile = join(dir, "store.mjs");
  buildSync({
    entryPoints: [join(import.meta.dirname, "../../src/memory/store.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "warning",
  });
  return outfile;
}

/** A child process that saves `count` entries tagged `tag`, two at a time, through the bundled store. */
function childWriter(bundle: string, file: string, tag: string, count: number): Promise<void> {
  const script = `
    const { MemoryStore } = await import(${JSON.stringify(bundle)});
    const store = new MemoryStore(${JSON.stringify(file)});
    const jobs = [];
    for (let i = 0; i < ${count}; i++) jobs.push(store.save("fact", "${tag} note number " + i));
    await Promise.all(jobs);
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${tag} exited ${code}: ${err}`))));
  });
}

function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((f) => f !== "memory.json");
}

describe("MemoryStore with concurrent writers", () => {
  it("loses nothing when two instances in one process save at once", async () => {
    const dir = tempDir();
    const file = join(dir, "memory.json");
    const a = new MemoryStore(file);
    const b = new MemoryStore(file);
    await Promise.all(
      Array.from({ length: PER_WRITER }, (_, i) => [
        a.save("fact", `alpha ${i}`),
        b.save("lesson", `beta ${i}`),
      ]).flat(),
    );
    const texts = (await new MemoryStore(file).list()).map((e) => e.text);
    expect(texts).toHaveLength(2 * PER_WRITER);
    expect(new Set(texts).size).toBe(2 * PER_WRITER);
    expect(leftovers(dir)).toEqual([]);
  });

  it("loses nothing when two child processes and this one save at once", async () => {
    const dir = tempDir();
    const file = join(dir, "memory.json");
    const bundle = bundleStore(tempDir());
    const local = new MemoryStore(file);
    await Promise.all([
      childWriter(bundle, file, "first-child", PER_WRITER),
      childWriter(bundle, file, "second-child", PER_WRITER),
      Promise.all(Array.from({ length: PER_WRITER }, (_, i) => local.save("fact", `parent note number ${i}`))),
    ]);
    const texts = (await new MemoryStore(file).list()).map((e) => e.text);
    expect(texts).toHaveLength(3 * PER_WRITER);
    for (const tag of ["first-child", "second-child", "parent"]) {
      for (let i = 0; i < PER_WRITER; i++) expect(texts).toContain(`${tag} note number ${i}`);
    }
    expect(leftovers(dir)).toEqual([]);
  });

  it("takes over a lock whose holder is dead", async () => {
    const dir = tempDir();
    const file = join(dir, "memory.json");
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: dead, host: hostname(), time: Date.now(), token: "x" }));
    // A lock it could not take over would end in "is held by" after the lock's timeout.
    await new MemoryStore(file).save("fact", "after a crash");
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(leftovers(dir)).toEqual([]);
  });

  it("takes over a lock older than the stale time even if its holder lives", async () => {
    const dir = tempDir();
    const file = join(dir, "memory.json");
    writeFileSync(
      `${file}.lock`,
      JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now() - 11_000, token: "x" }),
    );
    await new MemoryStore(file).save("fact", "after a hang");
    expect((await new MemoryStore(file).list()).map((e) => e.text)).toEqual(["after a hang"]);
  });

  it("trusts a dead-looking pid from another host only once it is old", async () => {
    const dir = tempDir();
    const file = join(dir, "memory.json");
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(
      `${file}.lock`,
      JSON.stringify({ pid: dead, host: `not-${hostname()}`, time: Date.now(), token: "x" }),
    );
    const store = new MemoryStore(file, { lock: { timeoutMs: 300 } });
    await expect(store.save("fact", "blocked")).rejects.toThrow(/is held by/);
  });

  it("waits for a live lock, then saves", async () => {
    const dir = tempDir();
    const file = join(dir, "memory.json");
    const lock = `${file}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now(), token: "someone" }));
    let done = false;
    const saving = new MemoryStore(file).save("fact", "patient").then((r) => ((done = true), r));
    // A deliberate window: a save that ignored the live lock would be done in it.
    await new Promise((r) => setTimeout(r, 300));
    expect(done).toBe(false);
    const { rmSync } = await import("node:fs");
    rmSync(lock);
    expect((await saving).entry.text).toBe("patient");
  });

  it("gives up on a live lock after the timeout, without touching the file", async () => {
    const dir = tempDir();
    const file = join(dir, "memory.json");
    await new MemoryStore(file).save("fact", "existing");
    writeFileSync(
      `${file}.lock`,
      JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now(), token: "someone" }),
    );
    const store = new MemoryStore(file, { lock: { timeoutMs: 200 } });
    await expect(store.save("fact", "late")).rejects.toThrow(/is held by/);
    expect((await store.list()).map((e) => e.text)).toEqual(["existing"]);
    expect(existsSync(`${file}.lock`)).toBe(true);
  });

  it("releases only its own lock", async () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    const order: string[] = [];
    await withFileLock(lock, async () => {
      order.push("in");
      // Someone judged us stale and took over: our release must leave their lock alone.
      writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now(), token: "theirs" }));
    });
    expect(order).toEqual(["in"]);
    expect(existsSync(lock)).toBe(true);
    await expect(withFileLock(lock, async () => "never", { timeoutMs: 100 })).rejects.toThrow(/is held by/);
  });

  it("runs critical sections one at a time and releases on failure", async () => {
    const lock = join(tempDir(), "y.lock");
    let inside = 0;
    let most = 0;
    const section = async () => {
      inside++;
      most = Math.max(most, inside);
      await new Promise((r) => setTimeout(r, 5));
      inside--;
    };
    await Promise.all(Array.from({ length: 10 }, () => withFileLock(lock, section)));
    expect(most).toBe(1);
    await expect(withFileLock(lock, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(existsSync(lock)).toBe(false);
  });
});

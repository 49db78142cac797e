// The checkpoint walk is incremental: after the first walk, only directories the kernel reported
// changed are listed and stat'ed again; what changed (a write, a new file, a deletion, a new
// folder, a change by another process) is still seen.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { walkRoots, type Incremental } from "../../src/session/checkpoint-snapshot.js";
import { DirWatch } from "../../src/session/dir-watch.js";
import { tempDir } from "../helpers/cli.js";

let inc: Incremental | undefined;
afterEach(() => {
  inc?.watch.close();
  inc = undefined;
});

function tree(dirs: number, files: number): string {
  const root = tempDir();
  for (let d = 0; d < dirs; d++) {
    mkdirSync(join(root, `d${d}`));
    for (let f = 0; f < files; f++) writeFileSync(join(root, `d${d}`, `f${f}.txt`), `${d}/${f}`);
  }
  return root;
}

describe("incremental checkpoint walk", () => {
  it("reads only the directories that changed, and sees every change", async () => {
    const root = tree(50, 20);
    inc = { prev: null, watch: new DirWatch() };
    const first = await walkRoots([root], 100_000, new Set(), inc);
    expect(first.read).toBe(51);
    expect(first.files.size).toBe(1_000);

    const same = await walkRoots([root], 100_000, new Set(), inc);
    expect(same.read).toBe(0);
    expect([...same.files.keys()]).toEqual([...first.files.keys()]);

    writeFileSync(join(root, "d7", "f3.txt"), "changed, and longer than before");
    writeFileSync(join(root, "d3", "new.txt"), "new");
    rmSync(join(root, "d9", "f0.txt"));
    mkdirSync(join(root, "d1", "sub"));
    writeFileSync(join(root, "d1", "sub", "deep.txt"), "deep");
    // Another process, as a command would.
    spawnSync("sh", ["-c", `printf more >> '${join(root, "d20", "f5.txt")}'`]);
    const next = await walkRoots([root], 100_000, new Set(), inc);
    expect(next.read).toBe(6);
    expect(next.files.get(join(root, "d7", "f3.txt"))?.size).toBe(31);
    expect(next.files.has(join(root, "d3", "new.txt"))).toBe(true);
    expect(next.files.has(join(root, "d9", "f0.txt"))).toBe(false);
    expect(next.files.has(join(root, "d1", "sub", "deep.txt"))).toBe(true);
    expect(next.files.get(join(root, "d20", "f5.txt"))?.size).toBe(
      first.files.get(join(root, "d20", "f5.txt"))!.size + 4,
    );
    // A deleted folder is no longer watched, and its files are gone.
    rmSync(join(root, "d30"), { recursive: true });
    const after = await walkRoots([root], 100_000, new Set(), inc);
    expect([...after.files.keys()].some((p) => p.startsWith(join(root, "d30")))).toBe(false);
  });

  it("walks in full without a watch, so the results match a fresh walk", async () => {
    const root = tree(5, 5);
    const a = await walkRoots([root], 100_000);
    const b = await walkRoots([root], 100_000);
    expect(a.read).toBe(6);
    expect(b.read).toBe(6);
  });
});

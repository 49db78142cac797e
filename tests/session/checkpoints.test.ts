import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Checkpoints, type CheckpointOptions } from "../../src/session/checkpoints.js";

let base: string;
let root: string;
let store: string;

beforeEach(() => {
  // realpath: tmpdir() may itself sit behind a symlink (macOS /var -> /private/var).
  base = realpathSync(mkdtempSync(join(tmpdir(), "nh-ckpt-")));
  root = join(base, "ws");
  store = join(base, "store", "s1");
  mkdirSync(root);
});

afterEach(() => {
  chmodSync(base, 0o700);
  rmSync(base, { recursive: true, force: true });
});

const ws = (...parts: string[]) => join(root, ...parts);
const put = (rel: string, data: string | Buffer) => {
  mkdirSync(join(ws(rel), ".."), { recursive: true });
  writeFileSync(ws(rel), data);
};
const read = (rel: string) => readFileSync(ws(rel), "utf8");
const blobs = () =>
  existsSync(join(store, "blobs")) ? readdirSync(join(store, "blobs")).filter((n) => !n.startsWith(".")) : [];
const sha = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const make = (extra: Partial<CheckpointOptions> = {}) => new Checkpoints({ dir: store, roots: [root], ...extra });

/** Runs a shell command in the workspace like run_command would, so the changes come from another process. */
function sh(script: string): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn("sh", ["-c", script], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolveRun() : reject(new Error(`sh exited ${code}: ${err}`))));
  });
}

/** beforeCommand, the command, afterCommand: the engine's sequence around run_command. */
async function command(cp: Checkpoints, turn: number, script: string) {
  await cp.beforeCommand(turn);
  // afterCommand even when the command fails, as the engine must.
  const failed = await sh(script).then(
    () => null,
    (error: unknown) => error,
  );
  const changes = await cp.afterCommand(turn, "run_command");
  if (failed) throw failed;
  return changes;
}

describe("file tools (beforeWrite)", () => {
  it("records content and absence; rewind restores the content, removes created files and their new folders", async () => {
    put("a.txt", "one\n");
    const cp = make();
    await cp.beforeWrite(1, [ws("a.txt"), "new/deep/b.txt"], "write_file");
    writeFileSync(ws("a.txt"), "two\n");
    mkdirSync(ws("new/deep"), { recursive: true });
    writeFileSync(ws("new/deep/b.txt"), "b\n");
    // A second write in the same turn does not replace the pre-turn record.
    await cp.beforeWrite(1, [ws("a.txt")], "edit_file");
    writeFileSync(ws("a.txt"), "three\n");

    expect(await cp.turns()).toEqual([
      {
        turn: 1,
        changes: [
          { path: ws("a.txt"), before: "kept", after: "present", turn: 1, by: "write_file" },
          { path: ws("new/deep/b.txt"), before: "absent", after: "present", turn: 1, by: "write_file" },
        ],
      },
    ]);
    expect((await cp.contentBefore(1, ws("a.txt")))?.toString()).toBe("one\n");
    expect(await cp.contentBefore(1, "new/deep/b.txt")).toBeNull();

    const result = await cp.rewind(1);
    expect(result).toEqual({ restored: [ws("a.txt")], removed: [ws("new/deep/b.txt")], skipped: [] });
    expect(read("a.txt")).toBe("one\n");
    expect(existsSync(ws("new"))).toBe(false);
  });

  it("creates the checkpoint folder with mode 700 and the manifest with mode 600", async () => {
    put("a.txt", "x");
    await make().beforeWrite(1, [ws("a.txt")], "write_file");
    expect(statSync(store).mode & 0o777).toBe(0o700);
    expect(statSync(join(store, "blobs")).mode & 0o777).toBe(0o700);
    expect(statSync(join(store, "manifest.json")).mode & 0o777).toBe(0o600);
  });

  it("restores binary content byte for byte, and the file's mode", async () => {
    const bytes = Buffer.concat([Buffer.from([0, 255, 13, 10, 0]), randomBytes(70_000)]);
    put("bin.dat", bytes);
    chmodSync(ws("bin.dat"), 0o751);
    const cp = make();
    await cp.beforeWrite(1, [ws("bin.dat")], "write_file");
    rmSync(ws("bin.dat"));
    expect(await cp.rewind(1)).toMatchObject({ restored: [ws("bin.dat")] });
    expect(readFileSync(ws("bin.dat")).equals(bytes)).toBe(true);
    expect(statSync(ws("bin.dat")).mode & 0o777).toBe(0o751);
  });

  it("never rejects when the checkpoint folder cannot be created: an edit is told why, a command goes on", async () => {
    put("a.txt", "x");
    writeFileSync(join(base, "blocker"), "a file where the folder should go");
    const cp = new Checkpoints({ dir: join(base, "blocker", "s1"), roots: [root] });
    await expect(cp.beforeWrite(1, [ws("a.txt")], "write_file")).resolves.toMatch(
      /^its content could not be kept in .*blocker\/s1 \((not a directory \(ENOTDIR\)|already exists \(EEXIST\))\)$/,
    );
    await expect(cp.beforeCommand(1)).resolves.toBeUndefined();
    await expect(cp.afterCommand(1, "run_command")).resolves.toEqual([]);
  });
});

describe("commands (beforeCommand / afterCommand)", () => {
  it("detects files created, edited and deleted, in a new subdirectory too, and rewinds them", async () => {
    put("keep.txt", "keep\n");
    put("edit.txt", "before\n");
    put("gone.txt", "gone\n");
    put("old/inner.txt", "inner\n");
    const cp = make();
    const changes = await command(
      cp,
      1,
      "echo after > edit.txt; rm gone.txt; mkdir -p sub/dir && echo new > sub/dir/new.txt; rm -r old; echo top > top.txt",
    );
    const byPath = Object.fromEntries(changes.map((c) => [c.path, [c.before, c.after, c.by]]));
    expect(byPath).toEqual({
      [ws("edit.txt")]: ["kept", "present", "run_command"],
      [ws("gone.txt")]: ["kept", "absent", "run_command"],
      [ws("old/inner.txt")]: ["kept", "absent", "run_command"],
      [ws("sub/dir/new.txt")]: ["absent", "present", "run_command"],
      [ws("top.txt")]: ["absent", "present", "run_command"],
    });

    const result = await cp.rewind(1);
    expect(result.skipped).toEqual([]);
    expect(result.removed).toEqual([ws("sub/dir/new.txt"), ws("top.txt")]);
    expect(result.restored).toEqual([ws("edit.txt"), ws("gone.txt"), ws("old/inner.txt")]);
    expect(read("edit.txt")).toBe("before\n");
    expect(read("gone.txt")).toBe("gone\n");
    expect(read("old/inner.txt")).toBe("inner\n");
    expect(read("keep.txt")).toBe("keep\n");
    expect(existsSync(ws("sub"))).toBe(false);
    expect(existsSync(ws("top.txt"))).toBe(false);
  });

  it("sees a same-size rewrite right after the snapshot (timestamps in one tick), and ignores a touch", async () => {
    put("same.txt", "aaaa");
    put("touched.txt", "t");
    const cp = make();
    const changes = await command(cp, 1, "printf bbbb > same.txt; touch -d '2001-01-01' touched.txt");
    expect(changes.map((c) => c.path)).toEqual([ws("same.txt")]);
    await cp.rewind(1);
    expect(read("same.txt")).toBe("aaaa");
  });

  it("restores binary content a command overwrote, byte for byte", async () => {
    const bytes = randomBytes(4096);
    put("blob.bin", bytes);
    const cp = make();
    await command(cp, 1, "head -c 4096 /dev/zero > blob.bin");
    await cp.rewind(1);
    expect(readFileSync(ws("blob.bin")).equals(bytes)).toBe(true);
  });

  it("records a file once per turn, with its state before the turn, and shares one snapshot between overlapping commands", async () => {
    put("f.txt", "v0");
    const cp = make();
    await cp.beforeWrite(1, [ws("f.txt")], "edit_file");
    writeFileSync(ws("f.txt"), "v1");
    await command(cp, 1, "printf v2 > f.txt");
    await cp.beforeCommand(2);
    await cp.beforeCommand(2);
    await sh("printf a > a.txt");
    expect((await cp.afterCommand(2, "run_command")).map((c) => c.path)).toEqual([ws("a.txt")]);
    await sh("printf b > b.txt");
    await cp.afterCommand(2, "run_command");
    const turns = await cp.turns();
    expect(turns[0]?.changes).toEqual([
      { path: ws("f.txt"), before: "kept", after: "present", turn: 1, by: "edit_file" },
    ]);
    expect(turns[1]?.changes.map((c) => c.path).sort()).toEqual([ws("a.txt"), ws("b.txt")]);
    expect((await cp.contentBefore(1, ws("f.txt")))?.toString()).toBe("v0");
  });
});

describe("rewinding across turns", () => {
  it("the same file changed in turns 2 and 3: rewind(3) gives the turn-3 pre-state, rewind(2) the turn-2 one", async () => {
    put("f.txt", "v1");
    const cp = make();
    await command(cp, 2, "printf v2 > f.txt");
    await cp.beforeWrite(3, [ws("f.txt")], "edit_file");
    writeFileSync(ws("f.txt"), "v3");

    const turns = await cp.turns();
    expect(turns.map((t) => [t.turn, t.changes.map((c) => [c.before, c.after, c.by])])).toEqual([
      [2, [["kept", "present", "run_command"]]],
      [3, [["kept", "present", "edit_file"]]],
    ]);
    expect((await cp.contentBefore(3, ws("f.txt")))?.toString()).toBe("v2");
    expect((await cp.contentBefore(2, ws("f.txt")))?.toString()).toBe("v1");
    expect(await cp.contentBefore(4, ws("f.txt"))).toBeUndefined();

    await cp.rewind(3);
    expect(read("f.txt")).toBe("v2");
    await cp.rewind(2);
    expect(read("f.txt")).toBe("v1");
  });

  it("revertFile restores one file and leaves the others", async () => {
    put("a.txt", "a0");
    put("b.txt", "b0");
    const cp = make();
    await command(cp, 1, "printf a1 > a.txt; printf b1 > b.txt; printf c1 > c.txt");
    expect(await cp.revertFile(1, ws("a.txt"))).toBe("restored");
    expect(await cp.revertFile(1, "c.txt")).toBe("removed");
    expect(read("a.txt")).toBe("a0");
    expect(read("b.txt")).toBe("b1");
    expect(existsSync(ws("c.txt"))).toBe(false);
    expect(await cp.revertFile(2, ws("b.txt"))).toEqual({ skipped: "no checkpoint of this file from turn 2 on" });
  });

  it("forget drops later turns (numbers are reused) and the content only they kept", async () => {
    put("f.txt", "v1");
    const cp = make();
    await cp.beforeWrite(1, [ws("f.txt")], "edit_file");
    writeFileSync(ws("f.txt"), "v2");
    await cp.beforeWrite(2, [ws("f.txt")], "edit_file");
    writeFileSync(ws("f.txt"), "v3");
    expect(blobs().sort()).toEqual([sha("v1"), sha("v2")].sort());
    await cp.forget(2);
    expect((await cp.turns()).map((t) => t.turn)).toEqual([1]);
    expect(blobs()).toEqual([sha("v1")]);
    await cp.beforeWrite(2, [ws("f.txt")], "write_file");
    expect((await cp.contentBefore(2, ws("f.txt")))?.toString()).toBe("v3");
  });

  it("a second Checkpoints on the same folder picks up the manifest (resume)", async () => {
    put("f.txt", "v1");
    const first = make();
    await command(first, 1, "printf v2 > f.txt; echo n > n.txt");
    const second = make();
    expect(await second.turns()).toEqual(await first.turns());
    expect(await second.rewind(1)).toEqual({ restored: [ws("f.txt")], removed: [ws("n.txt")], skipped: [] });
    expect(read("f.txt")).toBe("v1");
  });

  it("sets a corrupt manifest aside instead of failing", async () => {
    mkdirSync(store, { recursive: true });
    writeFileSync(join(store, "manifest.json"), "{not json");
    const cp = make();
    expect(await cp.turns()).toEqual([]);
    expect(readdirSync(store).some((n) => n.startsWith("manifest.json.corrupt-"))).toBe(true);
  });
});

describe("snapshot upkeep", () => {
  it("prepare takes the first snapshot ahead; prune drops what only the snapshot kept, and commands still work after", async () => {
    for (let i = 0; i < 5; i++) put(`f${i}.txt`, `v${i}`);
    const cp = make();
    await cp.prepare();
    expect(blobs()).toHaveLength(5);
    await command(cp, 1, "printf changed > f0.txt");
    expect(await cp.prune()).toBe(4);
    expect(blobs()).toEqual([sha("v0")]);
    const changes = await command(cp, 2, "printf again > f1.txt");
    expect(changes.map((c) => [c.path, c.before])).toEqual([[ws("f1.txt"), "kept"]]);
    await cp.rewind(1);
    expect([read("f0.txt"), read("f1.txt")]).toEqual(["v0", "v1"]);
  });

  it("never walks its own folder when it lies inside a root", async () => {
    put("a.txt", "a");
    const cp = new Checkpoints({ dir: ws(".nanohermes", "checkpoints", "s1"), roots: [root] });
    await cp.beforeWrite(1, [ws("a.txt")], "write_file");
    const changes = await command(cp, 2, "printf b > a.txt");
    expect(changes.map((c) => c.path)).toEqual([ws("a.txt")]);
  });
});

describe("bounds and what is never touched", () => {
  it("reports a file too large to keep, and leaves it alone on rewind", async () => {
    put("big.txt", "x".repeat(1000));
    put("small.txt", "s");
    const cp = make({ maxFileBytes: 100 });
    const changes = await command(cp, 1, "echo more >> big.txt; echo t > small.txt");
    expect(changes.map((c) => [c.path, c.before])).toEqual([
      [ws("big.txt"), "too-large"],
      [ws("small.txt"), "kept"],
    ]);
    expect(await cp.contentBefore(1, ws("big.txt"))).toBeUndefined();
    const result = await cp.rewind(1);
    expect(result.restored).toEqual([ws("small.txt")]);
    expect(result.skipped).toEqual([{ path: ws("big.txt"), why: "larger than 100 bytes; content not kept" }]);
    expect(read("big.txt")).toBe(`${"x".repeat(1000)}more\n`);
    expect(await cp.revertFile(1, ws("big.txt"))).toEqual({ skipped: "larger than 100 bytes; content not kept" });
  });

  it("past maxTotalBytes, content is not read (tracked by stat only)", async () => {
    for (let i = 0; i < 5; i++) put(`f${i}.txt`, `${i}`.repeat(40));
    const cp = make({ maxTotalBytes: 100 });
    await cp.beforeCommand(1);
    expect(blobs()).toHaveLength(2);
    await sh("for i in 0 1 2 3 4; do echo changed > f$i.txt; done");
    const changes = await cp.afterCommand(1, "run_command");
    expect(changes.map((c) => c.before)).toEqual(["kept", "kept", "too-large", "too-large", "too-large"]);
  });

  it("does not walk .git or node_modules, and rewind leaves them alone", async () => {
    put(".git/HEAD", "ref: refs/heads/main\n");
    put("node_modules/pkg/index.js", "unique content of a dependency");
    put("sub/node_modules/x.js", "nested dependency");
    put("src.txt", "src");
    const cp = make();
    const changes = await command(
      cp,
      1,
      "echo x > .git/HEAD; echo y > node_modules/pkg/index.js; echo new > node_modules/new.js; rm sub/node_modules/x.js; echo s > src.txt",
    );
    expect(changes.map((c) => c.path)).toEqual([ws("src.txt")]);
    expect(blobs()).not.toContain(sha("unique content of a dependency"));
    expect(blobs()).not.toContain(sha("ref: refs/heads/main\n"));
    await cp.rewind(1);
    expect(read(".git/HEAD")).toBe("x\n");
    expect(read("node_modules/pkg/index.js")).toBe("y\n");
    expect(existsSync(ws("node_modules/new.js"))).toBe(true);
    expect(read("src.txt")).toBe("src");
  });

  it("neither follows nor rewrites a symlink that points outside the root", async () => {
    const outside = join(base, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "target.txt"), "outside\n");
    writeFileSync(join(outside, "secret.txt"), "not to be read");
    symlinkSync(join(outside, "target.txt"), ws("link.txt"));
    symlinkSync(outside, ws("linkdir"));
    const cp = make();
    const changes = await command(cp, 1, "echo changed >> link.txt; echo via-dir > linkdir/new.txt");
    expect(changes).toEqual([]);
    expect(blobs()).not.toContain(sha("not to be read"));
    // A file tool writing through the links is outside the roots too: not recorded.
    await cp.beforeWrite(1, [ws("link.txt"), ws("linkdir/secret.txt")], "write_file");
    expect(await cp.turns()).toEqual([]);
    expect(await cp.rewind(1)).toEqual({ restored: [], removed: [], skipped: [] });
    expect(lstatSync(ws("link.txt")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(ws("link.txt"))).toBe(join(outside, "target.txt"));
    expect(readFileSync(join(outside, "target.txt"), "utf8")).toBe("outside\nchanged\n");
    expect(readFileSync(join(outside, "new.txt"), "utf8")).toBe("via-dir\n");
  });

  it("tracks files by their real path when the root is given through a symlink", async () => {
    put("a.txt", "a0");
    symlinkSync(root, join(base, "ws-link"));
    const cp = new Checkpoints({ dir: store, roots: [join(base, "ws-link")] });
    await cp.beforeWrite(1, [join(base, "ws-link", "a.txt"), "b.txt"], "write_file");
    writeFileSync(ws("a.txt"), "a1");
    writeFileSync(ws("b.txt"), "b1");
    expect(await cp.rewind(1)).toEqual({ restored: [ws("a.txt")], removed: [ws("b.txt")], skipped: [] });
    expect(read("a.txt")).toBe("a0");
  });

  it("does not write through a parent directory a symlink has replaced since", async () => {
    put("d/f.txt", "d0");
    const outside = join(base, "outside");
    mkdirSync(outside);
    const cp = make();
    await command(cp, 1, `printf d1 > d/f.txt; rm -r d; ln -s ${outside} d`);
    const result = await cp.rewind(1);
    expect(result.skipped).toEqual([{ path: ws("d/f.txt"), why: "a parent directory is now a symlink; not touched" }]);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("respects maxFiles: reads at most that many files, and a shifted bound is not taken for deletions", async () => {
    for (let i = 10; i < 40; i++) put(`f${i}.txt`, `content ${i}`);
    const cp = make({ maxFiles: 10 });
    await cp.beforeCommand(1);
    expect(blobs()).toHaveLength(10);
    // 000.txt sorts first, so the second walk stops one file earlier (at f18).
    await sh("echo new > 000.txt; echo edited > f12.txt; echo out-of-bound > f30.txt");
    const changes = await cp.afterCommand(1, "run_command");
    expect(changes.map((c) => [c.path, c.before])).toEqual([
      [ws("f12.txt"), "kept"],
      [ws("000.txt"), "absent"],
    ]);
  });

  it("stores identical content once", async () => {
    for (let i = 0; i < 20; i++) put(`copy${i}.txt`, "the same bytes\n");
    put("other.txt", "different\n");
    const cp = make();
    await cp.beforeCommand(1);
    await cp.afterCommand(1, "run_command");
    await cp.beforeWrite(1, [ws("copy3.txt")], "write_file");
    expect(blobs().sort()).toEqual([sha("the same bytes\n"), sha("different\n")].sort());
  });
});

describe("restore failures land in skipped", () => {
  it("a target whose parent is now a file, and one that is now a directory (root cannot bypass these)", async () => {
    put("p/f.txt", "p0");
    put("d.txt", "d0");
    put("ok.txt", "o0");
    const cp = make();
    await command(cp, 1, "printf o1 > ok.txt");
    await cp.beforeWrite(1, [ws("p/f.txt"), ws("d.txt")], "apply_patch");
    rmSync(ws("p"), { recursive: true });
    writeFileSync(ws("p"), "a file now");
    rmSync(ws("d.txt"));
    mkdirSync(ws("d.txt/inside"), { recursive: true });
    const result = await cp.rewind(1);
    // All or nothing (issue 26.7): ok.txt could be put back, but the rewind is called off.
    expect(result.restored).toEqual([]);
    expect(result.skipped.map((s) => s.path)).toEqual([ws("d.txt"), ws("ok.txt"), ws("p/f.txt")]);
    expect(result.skipped.find((s) => s.path === ws("d.txt"))?.why).toBe("is a directory now; not overwritten");
    expect(result.skipped.find((s) => s.path === ws("p/f.txt"))?.why).toBe(`${ws("p")} is a file now; not touched`);
    expect(result.skipped.find((s) => s.path === ws("ok.txt"))?.why).toMatch(/^not touched: the rewind was called off/);
    expect(read("ok.txt")).toBe("o1");
  });

  it("a file whose parent became a link calls the whole rewind off: nothing else is removed or restored (issue 26.7)", async () => {
    put("d/f.txt", "d0");
    put("keep.txt", "k0");
    const outside = join(base, "outside-all");
    mkdirSync(outside);
    const cp = make();
    await command(
      cp,
      1,
      `printf k1 > keep.txt; printf new > made.txt; printf d1 > d/f.txt; rm -r d; ln -s ${outside} d`,
    );
    const result = await cp.rewind(1);
    expect(result.restored).toEqual([]);
    expect(result.removed).toEqual([]);
    expect(result.skipped).toEqual([
      { path: ws("d/f.txt"), why: "a parent directory is now a symlink; not touched" },
      {
        path: ws("keep.txt"),
        why: `not touched: the rewind was called off because ${ws("d/f.txt")} cannot be put back`,
      },
      {
        path: ws("made.txt"),
        why: `not touched: the rewind was called off because ${ws("d/f.txt")} cannot be put back`,
      },
    ]);
    expect(read("made.txt")).toBe("new");
    expect(read("keep.txt")).toBe("k1");
    expect(readdirSync(outside)).toEqual([]);
    // Once the link is gone, the same rewind puts everything back.
    rmSync(ws("d"));
    expect(await cp.rewind(1)).toEqual({
      restored: [ws("d/f.txt"), ws("keep.txt")],
      removed: [ws("made.txt")],
      skipped: [],
    });
    expect(read("d/f.txt")).toBe("d0");
  });
});

// The file tools against a real race (issue 14 item 1): a sandboxed process (the real helper, real
// Landlock) swaps a workspace directory with a symlink to a folder outside, as fast as it can, with
// renameat2(RENAME_EXCHANGE), while write_file, edit_file and apply_patch (add, update, delete,
// move) run in a loop, and while checkpoint rewinds restore and remove files. Afterwards the
// outside folder is byte-identical and holds no temp file.
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helperPath } from "../../src/sandbox/landlock.js";
import { Checkpoints } from "../../src/session/checkpoints.js";
import { applyPatchTool } from "../../src/tools/apply-patch.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { callTool } from "../helpers/tools.js";

const repo = resolve(import.meta.dirname, "../..");
const ROUNDS = 250;

const SWAPPER = `#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
/* Swaps argv[1] and argv[2] until argv[3] exists; prints how many swaps it made. */
int main(int argc, char **argv) {
  long n = 0;
  if (argc != 4) return 2;
  while (access(argv[3], F_OK) != 0) {
    for (int i = 0; i < 1000; i++, n++) {
      if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) != 0) {
        perror("renameat2");
        return 1;
      }
    }
  }
  printf("%ld\\n", n);
  return 0;
}
`;

let base = "";

beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-native.mjs"], { cwd: repo, stdio: "pipe" });
  // Not under the temp directory, which workspace-write makes writable: "outside" must be out of
  // the sandbox's reach, so only the agent's own tools could change it.
  const tmp = realpathSync(tmpdir());
  const candidates = [
    join(repo, ".sandbox-test"),
    "/var/tmp/nanohermes-sandbox-test",
    join(homedir(), ".nanohermes-sandbox-test"),
  ];
  const root = candidates.find((c) => !c.startsWith(`${tmp}/`) && c !== tmp)!;
  mkdirSync(root, { recursive: true });
  base = realpathSync(mkdtempSync(join(root, "race-")));
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Every file below `dir`, name -> content. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      out[join(entry.parentPath, entry.name).slice(dir.length + 1)] = readFileSync(
        join(entry.parentPath, entry.name),
        "latin1",
      );
  }
  return out;
}

/** The files the loop touches, so that any write, edit or delete redirected outside would show. */
function populate(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "w.txt"), "write me\n");
  writeFileSync(join(dir, "e.txt"), "state: A\n");
  writeFileSync(join(dir, "u.txt"), "one\nstate: A\nthree\n");
  for (let i = 0; i <= ROUNDS; i++) {
    writeFileSync(join(dir, `p-${i}.txt`), `p ${i}\n`);
    writeFileSync(join(dir, `m-${i}.txt`), `m ${i}\n`);
  }
}

describe("file tools under a directory-swap race", () => {
  it("never write, edit, delete or leave a temp file outside the workspace", async () => {
    const helper = helperPath();
    expect(helper, "the sandbox helper must be built").not.toBeNull();
    const ws = join(base, "ws");
    const outside = join(base, "outside");
    populate(outside);
    mkdirSync(ws);
    // d starts as a real directory; the loop's own files start as the loop expects them.
    mkdirSync(join(ws, "d"));
    writeFileSync(join(ws, "d", "e.txt"), "state: A\n");
    writeFileSync(join(ws, "d", "u.txt"), "one\nstate: A\nthree\n");
    writeFileSync(join(ws, "d", "m-0.txt"), "moved\n");
    symlinkSync(outside, join(ws, "swap"));
    const before = tree(outside);
    const baseBefore = readdirSync(base).sort();

    const swapper = startSwapper(helper!, ws);
    let ok = 0;
    // A swap mid-walk is refused in words (issue 26.7), never an "internal error ... EINVAL readlink".
    const internal: string[] = [];
    const tally = (r: { status: string; forModel: string }) => {
      if (r.status === "ok") ok++;
      else if (/internal|EINVAL|readlink/.test(r.forModel)) internal.push(r.forModel);
    };
    const patch = (body: string) =>
      callTool(applyPatchTool, { patch: `*** Begin Patch\n${body}\n*** End Patch` }, ws).then(tally);
    try {
      for (let i = 1; i <= ROUNDS; i++) {
        tally(await callTool(writeFileTool, { path: "d/w.txt", content: `round ${i}\n` }, ws));
        tally(await callTool(writeFileTool, { path: `d/new/n-${i}.txt`, content: `new ${i}\n` }, ws));
        const [from, to] = i % 2 === 1 ? ["A", "B"] : ["B", "A"];
        tally(
          await callTool(
            editFileTool,
            { path: "d/e.txt", old_string: `state: ${from}`, new_string: `state: ${to}` },
            ws,
          ),
        );
        await patch(`*** Add File: d/p-${i}.txt\n+added ${i}`);
        await patch(`*** Update File: d/u.txt\n@@\n one\n-state: ${from}\n+state: ${to}\n three`);
        await patch(`*** Delete File: d/p-${i - 1}.txt`);
        await patch(`*** Update File: d/m-${i - 1}.txt\n*** Move to: d/m-${i}.txt\n@@\n-moved\n+moved`);
      }
    } finally {
      swapper.stop();
    }
    // The race was real: many swaps happened while the tools ran, and the tools did work.
    expect(await swapper.swaps()).toBeGreaterThan(1000);
    expect(ok).toBeGreaterThan(0);
    expect(internal).toEqual([]);
    expect(tree(outside)).toEqual(before);
    expect(readdirSync(outside).filter((n) => n.includes(".tmp-"))).toEqual([]);
    expect(readdirSync(base).sort()).toEqual([...new Set([...baseBefore, "stop", "swapper", "swapper.c"])].sort());
  });

  it("never make a checkpoint rewind restore or remove outside the workspace", async () => {
    const helper = helperPath();
    expect(helper, "the sandbox helper must be built").not.toBeNull();
    const ws = join(base, "ws-rewind");
    const outside = join(base, "outside-rewind");
    populate(outside);
    mkdirSync(join(ws, "d"), { recursive: true });
    for (const name of ["w.txt", "e.txt", "u.txt"]) writeFileSync(join(ws, "d", name), "in the workspace\n");
    symlinkSync(outside, join(ws, "swap"));
    const before = tree(outside);
    const cp = new Checkpoints({ dir: join(base, "checkpoints"), roots: [ws] });
    const swapper = startSwapper(helper!, ws, "stop-rewind");
    let restored = 0;
    try {
      // At least 60 turns, and on until the swapper has had two seconds to race them (on a loaded
      // machine it may barely run during the first 60).
      const started = performance.now();
      for (let turn = 1; turn <= 60 || (performance.now() - started < 2_000 && turn <= 600); turn++) {
        const paths = ["w.txt", "e.txt", "u.txt", `p-${turn}.txt`].map((n) => join(ws, "d", n));
        await cp.beforeWrite(turn, paths, "write_file");
        for (const path of paths) await callTool(writeFileTool, { path, content: `turn ${turn}\n` }, ws);
        const result = await cp.rewind(turn);
        restored += result.restored.length + result.removed.length;
      }
    } finally {
      swapper.stop();
    }
    expect(await swapper.swaps()).toBeGreaterThan(1000);
    expect(restored).toBeGreaterThan(0);
    expect(tree(outside)).toEqual(before);
  });
});

/** The swapper, compiled once, run under the real helper in workspace-write; swaps ws/d and ws/swap. */
function startSwapper(helper: string, ws: string, stopName = "stop"): { stop(): void; swaps(): Promise<number> } {
  const binary = join(base, "swapper");
  if (!existsSync(binary)) {
    const src = join(base, "swapper.c");
    writeFileSync(src, SWAPPER);
    execFileSync("cc", ["-O2", "-o", binary, src]);
  }
  const stop = join(base, stopName);
  const child = spawn(
    helper,
    [
      "--mode",
      "workspace-write",
      "--workspace",
      ws,
      "--network",
      "off",
      "--",
      binary,
      join(ws, "d"),
      join(ws, "swap"),
      stop,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  return {
    stop: () => writeFileSync(stop, ""),
    swaps: async () => {
      expect(await exited, err).toBe(0);
      return Number(out.trim());
    },
  };
}

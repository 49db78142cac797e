// Power-loss durability of a save, seen in the system calls of the built program (strace): the
// temp file is fsynced before the rename, and the folder is fsynced after it.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, collect, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

describe("atomicWriteFile durability", () => {
  it("fsyncs the session's temp file before the rename and its folder after it", async () => {
    const ws = tempDir();
    const dir = join(ws, "sessions");
    const session = join(dir, "s.json");
    const trace = join(ws, "trace.txt");
    const { env } = await e2eEnv([textReply("saved")]);
    const child = spawn(
      "strace",
      [
        "-f",
        "-qq",
        "-e",
        "trace=openat,fsync,fdatasync,rename,renameat,renameat2",
        "-o",
        trace,
        process.execPath,
        CLI,
        "-p",
        "hi",
        "-C",
        ws,
        "--session",
        session,
      ],
      { env: env as NodeJS.ProcessEnv },
    );
    const r = await collect(child, 60_000);
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(trace, "utf8")
      .split("\n")
      .map((l) => l.replace(/^\d+\s+/, ""));
    const renames = lines.flatMap((l, i) =>
      /^rename(?:at2?)?\(.*"([^"]*\.s\.json\.tmp-[^"]+)".*"[^"]*\/s\.json".*= 0$/.exec(l)
        ? [{ i, tmp: /"([^"]*\.s\.json\.tmp-[^"]+)"/.exec(l)![1]! }]
        : [],
    );
    expect(renames.length).toBeGreaterThanOrEqual(1);
    for (const { i, tmp } of renames) {
      const openAt = lines.findLastIndex((l, j) => j < i && l.includes(`"${tmp}"`) && l.startsWith("openat("));
      const fd = /= (\d+)$/.exec(lines[openAt]!)![1]!;
      const synced = lines.slice(openAt + 1, i).some((l) => new RegExp(`^f(?:data)?sync\\(${fd}\\) += 0`).test(l));
      expect(synced, `fsync of ${tmp} before its rename`).toBe(true);
      // The folder is opened by name, or (through the no-follow walk) as `/proc/self/fd/N/.` of its pinned descriptor.
      const dirOpen = lines.findIndex(
        (l, j) =>
          j > i &&
          l.startsWith("openat(") &&
          (l.includes(`"${dir}"`) || /"\/proc\/self\/fd\/\d+\/\."/.test(l)) &&
          /O_RDONLY/.test(l),
      );
      expect(dirOpen, "the folder is opened after the rename").toBeGreaterThan(i);
      const dirFd = /= (\d+)$/.exec(lines[dirOpen]!)![1]!;
      expect(
        lines.slice(dirOpen + 1).some((l) => new RegExp(`^fsync\\(${dirFd}\\) += 0`).test(l)),
        "fsync of the folder",
      ).toBe(true);
    }
  });
});

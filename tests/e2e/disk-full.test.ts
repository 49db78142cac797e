// A full disk: a write that fails with ENOSPC reports it in one line and loses nothing. A real
// 64 KB tmpfs is mounted in a private mount namespace (unshare -m) for the run.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, collect, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";

describe("disk full", () => {
  it("a failed session save and a failed write_file are reported, and the old files survive", async () => {
    // Beside the mount point, in a folder of this test's own: the script and the markers.
    const outDir = tempDir("nh-full-");
    const mnt = join(outDir, "mnt");
    mkdirSync(mnt);
    const old = {
      version: 1,
      id: "s",
      createdAt: "t",
      updatedAt: "t",
      workspace: mnt,
      model: "m",
      messages: [{ role: "user", content: "old turn" }],
    };
    const big = "z".repeat(30_000);
    // The disk fills while the first request is out (the run found room when it started): the
    // model asks the script to fill it and answers once it has.
    const filled = join(outDir, "filled");
    const { env } = await e2eEnv([
      async () => {
        writeFileSync(join(outDir, "fill"), "");
        while (!existsSync(filled)) await new Promise((r) => setTimeout(r, 20));
        return toolReply([{ name: "write_file", args: { path: "keep.txt", content: big } }]);
      },
      textReply(`done ${"y".repeat(20_000)}`),
    ]);
    const script = [
      `mount -t tmpfs -o size=64k tmpfs ${mnt}`,
      `printf '%s' '${JSON.stringify(old)}' > ${mnt}/s.json`,
      `printf 'precious' > ${mnt}/keep.txt`,
      `${process.execPath} ${CLI} -p go -C ${mnt} --session ${mnt}/s.json --stream-json > ${mnt}/../out.ndjson 2> ${mnt}/../err.txt &`,
      `while [ ! -e ${outDir}/fill ]; do sleep 0.02; done`,
      // Fill what is left, so the next writes fail.
      `dd if=/dev/zero of=${mnt}/filler bs=1k count=100 2>/dev/null`,
      `touch ${filled}`,
      `wait $!; echo "exit=$?"`,
      `echo "--session--"; cat ${mnt}/s.json; echo; echo "--keep--"; cat ${mnt}/keep.txt; echo; echo "--ls--"; ls -a ${mnt}`,
    ].join("\n");
    writeFileSync(join(outDir, "script.sh"), script);
    // Asynchronous: the mock model lives in this process and must keep answering.
    const r = await collect(
      spawn("unshare", ["-m", "sh", join(outDir, "script.sh")], {
        env: env as NodeJS.ProcessEnv,
      }),
    );
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout;
    // The turn ran, but its record could not be kept: the run fails and says so.
    expect(out).toContain("exit=1");
    expect(readFileSync(join(outDir, "err.txt"), "utf8")).toMatch(
      /^nanohermes: could not save the session to .*s\.json: ENOSPC/m,
    );
    // The prompt was saved while there was room; nothing after it was, and the file is whole.
    const session = JSON.parse(out.split("--session--\n")[1]!.split("\n--keep--")[0]!) as typeof old;
    expect(session.messages.map((m) => m.content).filter((c) => c !== undefined && !c.startsWith("You are"))).toEqual([
      "old turn",
      "go",
    ]);
    expect(out.split("--keep--\n")[1]!.split("\n--ls--")[0]).toBe("precious");
    const listing = out.split("--ls--\n")[1]!;
    expect(listing).not.toMatch(/\.tmp-/);
    const events = readFileSync(join(outDir, "out.ndjson"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; status?: string; forModel?: string; level?: string; text?: string });
    const write = events.find((e) => e.type === "tool.completed")!;
    expect(write.status).toBe("error");
    expect(write.forModel).toMatch(/^cannot write keep.txt: ENOSPC/);
    const notice = events.find((e) => e.type === "notice" && e.level === "error")!;
    expect(notice.text).toMatch(/^could not save the session to .*s\.json: ENOSPC/);
    // Reported once per failure streak, not once per step.
    expect(
      events.filter((e) => e.type === "notice" && e.level === "error" && e.text?.includes("could not save")),
    ).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({
      type: "turn.completed",
      reason: "completed",
      saveError: expect.stringMatching(/ENOSPC/),
    });
  });
  it("a disk already full is found before the model is called: exit 1, no request, the session as it was", async () => {
    const outDir = tempDir("nh-full-");
    const mnt = join(outDir, "mnt");
    mkdirSync(mnt);
    const old = { version: 1, id: "s", createdAt: "t", updatedAt: "t", workspace: mnt, model: "m", messages: [] };
    const { mock, env } = await e2eEnv([textReply("never sent")]);
    const script = [
      `mount -t tmpfs -o size=64k tmpfs ${mnt}`,
      `printf '%s' '${JSON.stringify(old)}' > ${mnt}/s.json`,
      `dd if=/dev/zero of=${mnt}/filler bs=1k count=100 2>/dev/null`,
      `${process.execPath} ${CLI} -p go -C ${mnt} --session ${mnt}/s.json 2> ${outDir}/err.txt; echo "exit=$?"`,
      `echo "--session--"; cat ${mnt}/s.json; echo; echo "--ls--"; ls -a ${mnt}`,
    ].join("\n");
    writeFileSync(join(outDir, "script.sh"), script);
    const r = await collect(
      spawn("unshare", ["-m", "sh", join(outDir, "script.sh")], {
        env: env as NodeJS.ProcessEnv,
      }),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("exit=1");
    expect(readFileSync(join(outDir, "err.txt"), "utf8")).toMatch(
      /^nanohermes: cannot save the session: .*: no space left on the device \(ENOSPC\)$/m,
    );
    expect(mock.requests).toHaveLength(0);
    expect(JSON.parse(r.stdout.split("--session--\n")[1]!.split("\n--ls--")[0]!)).toEqual(old);
    expect(r.stdout.split("--ls--\n")[1]).not.toMatch(/\.tmp-/);
  });
  it("an edit whose before-image cannot be kept (the checkpoint store is full) is refused, and says why", async () => {
    const outDir = tempDir("nh-full-");
    const home = join(outDir, "home");
    const ws = join(outDir, "ws");
    mkdirSync(home);
    mkdirSync(ws);
    writeFileSync(join(ws, "a.txt"), "precious");
    const { envWith } = await e2eEnv([
      toolReply([{ name: "write_file", args: { path: "a.txt", content: "changed" } }]),
      textReply("done"),
    ]);
    const script = [
      // Only the home folder (where checkpoints live) is full; the workspace and the session are not.
      `mount -t tmpfs -o size=64k tmpfs ${home}`,
      `dd if=/dev/zero of=${home}/filler bs=1k count=100 2>/dev/null`,
      `${process.execPath} ${CLI} -p go -C ${ws} --session ${ws}/s.json --stream-json > ${outDir}/out.ndjson 2> ${outDir}/err.txt; echo "exit=$?"`,
    ].join("\n");
    writeFileSync(join(outDir, "script.sh"), script);
    const r = await collect(
      spawn("unshare", ["-m", "sh", join(outDir, "script.sh")], {
        env: envWith({ NANOHERMES_HOME: home }) as NodeJS.ProcessEnv,
      }),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("precious");
    const events = readFileSync(join(outDir, "out.ndjson"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; status?: string; forModel?: string });
    const write = events.find((e) => e.type === "tool.completed")!;
    expect(write.status).toBe("error");
    expect(write.forModel).toMatch(
      /^write_file was not run: the file checkpoint before it failed, so \/rewind could not undo it: its content could not be kept in .* \(no space left on the device \(ENOSPC\)\)\. Nothing was changed/,
    );
    expect(readFileSync(join(outDir, "err.txt"), "utf8")).toMatch(
      /^warn: write_file was not run: the file checkpoint before it failed, so \/rewind could not undo it: .*ENOSPC/m,
    );
  });
});

// A full disk: a write that fails with ENOSPC reports it in one line and loses nothing. A real
// 64 KB tmpfs is mounted in a private mount namespace (unshare -m) for the run.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, collect, tempDir, testEnv } from "../helpers/cli.js";
import { startMockServer, textReply, toolReply, type MockServer } from "../helpers/mock-openai.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("disk full", () => {
  it("a failed session save and a failed write_file are reported, and the old files survive", async () => {
    const mnt = tempDir("nh-full-");
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
    server = await startMockServer([
      toolReply([{ name: "write_file", args: { path: "keep.txt", content: big } }]),
      textReply(`done ${"y".repeat(20_000)}`),
    ]);
    const script = [
      `mount -t tmpfs -o size=64k tmpfs ${mnt}`,
      `printf '%s' '${JSON.stringify(old)}' > ${mnt}/s.json`,
      `printf 'precious' > ${mnt}/keep.txt`,
      // Fill what is left, so the next writes fail.
      `dd if=/dev/zero of=${mnt}/filler bs=1k count=100 2>/dev/null`,
      `${process.execPath} ${CLI} -p go -C ${mnt} --session ${mnt}/s.json --stream-json > ${mnt}/../out.ndjson 2> ${mnt}/../err.txt; echo "exit=$?"`,
      `echo "--session--"; cat ${mnt}/s.json; echo; echo "--keep--"; cat ${mnt}/keep.txt; echo; echo "--ls--"; ls -a ${mnt}`,
    ].join("\n");
    const outDir = join(mnt, "..");
    writeFileSync(join(outDir, "script.sh"), script);
    // Asynchronous: the mock model lives in this process and must keep answering.
    const r = await collect(
      spawn("unshare", ["-m", "sh", join(outDir, "script.sh")], {
        env: testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.url }) as NodeJS.ProcessEnv,
      }),
    );
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout;
    // The turn ran, but its record could not be kept: the run fails and says so.
    expect(out).toContain("exit=1");
    expect(readFileSync(join(outDir, "err.txt"), "utf8")).toMatch(
      /^nanohermes: could not save the session to .*s\.json: ENOSPC/m,
    );
    const session = out.split("--session--\n")[1]!.split("\n--keep--")[0]!;
    expect(JSON.parse(session)).toEqual(old);
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
});

// The built program with inputs that used to be taken whole: piped stdin over the cap is refused
// with a message, and an endless model answer ends at the answer cap with an error instead of
// growing until the process dies.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { CLI, collect, runCli, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

/** `head -c BYTES /dev/zero | tr '\0' CHAR | nanohermes ARGS`: a real pipe on stdin, as from a shell. */
function piped(bytes: number, char: string, args: string[], env: Record<string, string | undefined>) {
  const quoted = args.map((a) => `'${a}'`).join(" ");
  const child = spawn(
    "sh",
    ["-c", `head -c ${bytes} /dev/zero | tr '\\0' '${char}' | '${process.execPath}' '${CLI}' ${quoted}`],
    { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] },
  );
  return collect(child, 30_000);
}

describe("bounded inputs (built program)", () => {
  it("refuses piped stdin over 1 MB with a message, before any model request", async () => {
    const { mock, envWith } = await e2eEnv([textReply("never")], { model: "m" });
    for (const args of [
      ["-p", "summarise", "-C", tempDir()],
      ["-C", tempDir()],
    ]) {
      const r = await piped(3 * 1024 * 1024, "z", args, envWith());
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        "nanohermes: stdin is larger than 1 MB; save it to a file and name the file in the prompt (the agent reads files in parts)\n",
      );
    }
    expect(mock.requests).toHaveLength(0);
  });

  it("still takes piped stdin under the cap, as the prompt or next to it", async () => {
    const { mock, envWith } = await e2eEnv([textReply("ok one"), textReply("ok two")], { model: "m" });
    const a = await runCli(["-C", tempDir()], { env: envWith(), input: "question from stdin" });
    expect(a.stdout).toBe("ok one\n");
    const b = await piped(900 * 1024, "k", ["-p", "look", "-C", tempDir()], envWith());
    expect(b.code).toBe(0);
    const sent = JSON.stringify(mock.requests[1]!.messages);
    expect(sent).toContain(`<stdin>\\n${"k".repeat(1000)}`);
  });

  it("ends an endless answer at the answer cap with an error (exit 1), not a crash", async () => {
    const { run } = await e2eEnv([textReply("go ", { endless: "content", chunkSize: 16_384 })], {
      model: "m",
    });
    const r = await run(["-p", "hi", "-C", tempDir(), "--json"], { timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { reason: string; error: string };
    expect(out).toMatchObject({
      reason: "error",
      error: "the model's reply was cut: the answer passed the cap of 1,000,000 characters and the reply was cut there",
    });
    expect(r.stderr).not.toContain("RangeError");
  });
});

// `doctor` on a real pseudo-terminal answered by xterm.js: raw mode, replies, and a clean exit.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Terminal } from "@xterm/headless";
import { build } from "esbuild";
import { spawn } from "node-pty";
import { afterAll, beforeAll, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../../..");
let dir: string;
let script: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "nh-doctor-pty-"));
  await build({
    entryPoints: [join(root, "src/ui/terminal/doctor.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: join(dir, "doctor.mjs"),
    logLevel: "silent",
  });
  script = join(dir, "run.mjs");
  writeFileSync(
    script,
    `import { runDoctor } from "./doctor.mjs";\nprocess.stdout.write(await runDoctor({ env: process.env, stdin: process.stdin, stdout: process.stdout, timeoutMs: 2000 }));\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("probes through a real TTY, shows no reply bytes on screen and exits by itself", async () => {
  const term = new Terminal({ cols: 160, rows: 40, allowProposedApi: true });
  const env = { PATH: process.env.PATH ?? "", TERM: "xterm-256color", LANG: "C.UTF-8", HOME: dir };
  const pty = spawn(process.execPath, [script], { name: "xterm-256color", cols: 160, rows: 40, cwd: dir, env });
  // The terminal's answers go back to the program, as a real emulator's would.
  term.onData((d) => pty.write(d));
  pty.onData((d) => term.write(d));
  const exitCode = await new Promise<number>((res, rej) => {
    const timer = setTimeout(() => (pty.kill(), rej(new Error("doctor did not exit"))), 10_000);
    pty.onExit(({ exitCode }) => (clearTimeout(timer), res(exitCode)));
  });
  await new Promise<void>((r) => term.write("", r));
  const buf = term.buffer.active;
  const screen = Array.from({ length: buf.length }, (_, i) => buf.getLine(i)?.translateToString(true) ?? "").join("\n");
  term.dispose();
  expect(exitCode).toBe(0);
  expect(screen).toMatch(/synchronized output\s+yes/);
  expect(screen).toMatch(/bracketed paste\s+yes/);
  expect(screen).toMatch(/colour depth\s+256 colours/);
  expect(screen).toContain("Probe: the terminal answered.");
  // In cooked mode the replies would have been echoed as text like "^[[?1;2c".
  expect(screen).not.toMatch(/\^\[|\$y|\?1;2c/);
});

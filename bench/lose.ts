// Issue 16's figures for the built program against the mock model: the time from SIGTERM to exit
// of a one-shot turn running a command (the command killed, the session saved), and how many
// task-index entries 6 one-shot runs started at once keep.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer, textReply, toolReply } from "../tests/helpers/mock-openai.js";

export interface LoseFigures {
  sigtermToExitMs: { runs: number; p50: number; max: number; exitCodes: number[] };
  parallelIndex: { started: number; kept: number };
}

const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

function run(cli: string, args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const child = spawn(process.execPath, [cli, ...args], { env, cwd, stdio: ["ignore", "ignore", "ignore"] });
  const exited = new Promise<number>((res) => child.on("close", (code) => res(code ?? -1)));
  return { child, exited };
}

export async function benchLose(cli: string, baseEnv: NodeJS.ProcessEnv): Promise<LoseFigures> {
  const mock = await startMockServer((req) => {
    const last = (req.messages as { role: string }[]).at(-1)!;
    return last.role === "user"
      ? toolReply([{ name: "run_command", args: { command: "touch started; sleep 300" } }])
      : textReply("ok");
  });
  const times: number[] = [];
  const codes: number[] = [];
  for (let i = 0; i < 10; i++) {
    const ws = mkdtempSync(join(tmpdir(), "nh-bench-sig-"));
    const env = {
      ...baseEnv,
      NANOHERMES_HOME: mkdtempSync(join(tmpdir(), "nh-bench-home-")),
      OPENAI_BASE_URL: mock.url,
    };
    const { child, exited } = run(cli, ["-p", "build it", "-C", ws], env, ws);
    while (!existsSync(join(ws, "started"))) await sleep(10);
    await sleep(100);
    const t0 = performance.now();
    child.kill("SIGTERM");
    codes.push(await exited);
    times.push(performance.now() - t0);
  }
  await mock.close();
  times.sort((a, b) => a - b);

  const parallel = await startMockServer(() => textReply("ok"));
  const env = {
    ...baseEnv,
    NANOHERMES_HOME: mkdtempSync(join(tmpdir(), "nh-bench-home-")),
    OPENAI_BASE_URL: parallel.url,
  };
  const ws = mkdtempSync(join(tmpdir(), "nh-bench-par-"));
  await Promise.all(Array.from({ length: 6 }, (_, i) => run(cli, ["-p", `task ${i}`, "-C", ws], env, ws).exited));
  await parallel.close();
  const kept = (JSON.parse(readFileSync(join(env.NANOHERMES_HOME, "tasks.json"), "utf8")) as unknown[]).length;
  return {
    sigtermToExitMs: {
      runs: times.length,
      p50: +times[Math.floor(times.length / 2)]!.toFixed(1),
      max: +times.at(-1)!.toFixed(1),
      exitCodes: [...new Set(codes)],
    },
    parallelIndex: { started: 6, kept },
  };
}

// Time from spawning `node dist/cli.js acp` to its answer to `initialize`, median of N runs
// (issue 29's start-up figure for editors): `node scripts/acp-initialize-time.mjs [N]`.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const cli = resolve(import.meta.dirname, "../dist/cli.js");
const runs = Number(process.argv[2] ?? 10);

function once() {
  return new Promise((done, fail) => {
    const env = { ...process.env, NANOHERMES_HOME: mkdtempSync(join(tmpdir(), "nh-acp-")), OPENAI_API_KEY: "sk-x" };
    const started = performance.now();
    const child = spawn(process.execPath, [cli, "acp"], { env, stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (!out.includes("\n")) return;
      const ms = performance.now() - started;
      child.stdin.end();
      child.once("exit", () => done(ms));
    });
    child.once("error", fail);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } })}\n`,
    );
  });
}

/** For scale on a busy machine: `--help` to its exit, the cheapest run that reads the flags. */
function help() {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, "--help"], { stdio: "ignore" });
    child.once("exit", () => done(performance.now() - started));
    child.once("error", fail);
  });
}

async function median(what, run) {
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await run());
  times.sort((a, b) => a - b);
  const mid = times[Math.floor(times.length / 2)];
  console.log(
    `${what}: median ${mid.toFixed(0)} ms of ${runs} (min ${times[0].toFixed(0)}, max ${times.at(-1).toFixed(0)})`,
  );
}

await median("acp initialize answered", once);
await median("--help exited", help);

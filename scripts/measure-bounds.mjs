// Measures memory under the faults of issue 16.8 against the built program (npm run build first):
//   node scripts/measure-bounds.mjs stream     peak RSS of `-p` against an endless model stream
//   node scripts/measure-bounds.mjs followers  daemon RSS with 50 slow followers of one busy turn
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { connect } from "node:net";

const CLI = resolve(import.meta.dirname, "../dist/cli.js");

/** Peak resident memory (VmHWM, MB) of a live process. */
function peakMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** An endless stream of content (or of text deltas for a chatty turn), as fast as the client reads. */
function endlessModel() {
  return createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const line = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "x".repeat(16_384) }, finish_reason: null }] })}\n\n`;
      let sent = 0;
      const pump = () => {
        while (!res.destroyed && res.write(line)) endlessModel.sent = sent += line.length;
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
      res.on("close", () => (endlessModel.sent = sent));
    });
  });
}

function homeEnv(url, extra = {}) {
  const home = mkdtempSync(join(tmpdir(), "nh-measure-"));
  return { ...process.env, NANOHERMES_HOME: home, NANOHERMES_NO_MEMORY: "1", OPENAI_API_KEY: "sk-x", OPENAI_BASE_URL: url, NANOHERMES_MODEL: "m", ...extra };
}

async function listen(server) {
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${server.address().port}/v1`;
}

async function measureStream() {
  const server = endlessModel();
  const url = await listen(server);
  const child = spawn(process.execPath, [CLI, "-p", "hi", "--json", "-C", tmpdir()], { env: homeEnv(url), stdio: ["ignore", "pipe", "pipe"] });
  let peak = 0;
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  const timer = setInterval(() => (peak = Math.max(peak, peakMb(child.pid))), 20);
  const started = Date.now();
  const code = await new Promise((r) => child.on("close", r));
  clearInterval(timer);
  server.close();
  server.closeAllConnections();
  const result = out ? JSON.parse(out) : {};
  console.log(`endless stream: exit ${code} after ${Date.now() - started} ms, peak RSS ${peak} MB, server wrote ${Math.round((endlessModel.sent ?? 0) / 1024)} KB; ${result.error ?? result.reason}`);
}

/** A turn that streams text for a while; the daemon relays it to every follower. */
function chattyModel(chunks) {
  return createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const line = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "y".repeat(8_192) }, finish_reason: null }] })}\n\n`;
      let i = 0;
      const pump = () => {
        while (i < chunks && !res.destroyed) {
          i++;
          if (!res.write(line)) return res.once("drain", pump);
        }
        res.end(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`);
      };
      pump();
    });
  });
}

async function measureFollowers(count = 50) {
  const model = chattyModel(20_000);
  const url = await listen(model);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const daemon = spawn(process.execPath, [CLI, "--daemon", "--daemon-port", String(port), "-C", tmpdir()], { env: homeEnv(url), stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  daemon.stderr.on("data", (d) => (log += d));
  daemon.stdout.on("data", (d) => (log += d));
  for (let i = 0; i < 100 && !/listening|8787|http:\/\//.test(log); i++) await new Promise((r) => setTimeout(r, 100));
  const base = `http://127.0.0.1:${port}`;
  // Start a turn, then attach `count` followers that never read (a tiny receive window).
  const started = await fetch(`${base}/v1/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({}) }).then((r) => r.json()).catch(() => ({}));
  const id = started.id ?? started.session ?? "s1";
  fetch(`${base}/v1/sessions/${id}/turns`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt: "talk" }) }).catch(() => {});
  const sockets = [];
  for (let i = 0; i < count; i++) {
    const s = connect({ host: "127.0.0.1", port });
    s.write(`GET /v1/sessions/${id}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`);
    s.pause();
    s.on("error", () => {});
    sockets.push(s);
  }
  let peak = 0;
  const t0 = Date.now();
  while (Date.now() - t0 < 30_000) {
    peak = Math.max(peak, rssMb(daemon.pid));
    await new Promise((r) => setTimeout(r, 100));
  }
  const closed = sockets.filter((s) => s.destroyed || s.readableEnded).length;
  console.log(`daemon with ${count} slow followers: peak RSS ${peak} MB over 30 s; followers dropped by the daemon: ${closed}`);
  for (const s of sockets) s.destroy();
  daemon.kill("SIGTERM");
  model.close();
  model.closeAllConnections();
}

const what = process.argv[2];
if (what === "stream") await measureStream();
else if (what === "followers") await measureFollowers(Number(process.argv[3] ?? 50));
else console.log("usage: node scripts/measure-bounds.mjs stream|followers [N]");

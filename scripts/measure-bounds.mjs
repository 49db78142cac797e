// Measures memory under the faults of issue 16.8 against the built program (npm run build first):
//   node scripts/measure-bounds.mjs stream     peak RSS of `-p` against an endless model stream
//   node scripts/measure-bounds.mjs followers  daemon RSS with 50 slow followers of one busy turn
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { connect } from "node:net";

// NH_CLI=/path/to/cli.js measures another build (e.g. one from before these bounds).
const CLI = process.env.NH_CLI ?? resolve(import.meta.dirname, "../dist/cli.js");

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
        while (!res.destroyed) {
          endlessModel.sent = sent += line.length;
          if (!res.write(line)) break;
        }
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
      res.on("close", () => (endlessModel.sent = sent));
    });
  });
}

function homeEnv(url, extra = {}) {
  const home = mkdtempSync(join(tmpdir(), "nh-measure-"));
  return {
    ...process.env,
    NANOHERMES_HOME: home,
    NANOHERMES_NO_MEMORY: "1",
    OPENAI_API_KEY: "sk-x",
    OPENAI_BASE_URL: url,
    NANOHERMES_MODEL: "m",
    ...extra,
  };
}

async function listen(server) {
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${server.address().port}/v1`;
}

async function measureStream() {
  const server = endlessModel();
  const url = await listen(server);
  const child = spawn(process.execPath, [CLI, "-p", "hi", "--json", "-C", tmpdir()], {
    env: homeEnv(url),
    stdio: ["ignore", "pipe", "pipe"],
  });
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
  console.log(
    `endless stream: exit ${code} after ${Date.now() - started} ms, peak RSS ${peak} MB, server wrote ${Math.round((endlessModel.sent ?? 0) / 1024)} KB; ${result.error ?? result.reason}`,
  );
}

/**
 * A busy turn: `steps` model steps, each streaming 110 deltas of 8 KB (under the 1 MB answer cap) and
 * calling a tool that does not exist, then a short final answer.
 */
function chattyModel(steps) {
  let served = 0;
  return createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const step = served++;
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta, finish = null) =>
        `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      if (step >= steps) return res.end(chunk({ content: "done" }) + chunk({}, "stop") + "data: [DONE]\n\n");
      const line = chunk({ content: "y".repeat(8_192) });
      let i = 0;
      const pump = () => {
        while (i < 110 && !res.destroyed) {
          i++;
          if (!res.write(line)) return res.once("drain", pump);
        }
        res.end(
          chunk({
            tool_calls: [
              { index: 0, id: `c${step}`, type: "function", function: { name: "no_such_tool", arguments: "{}" } },
            ],
          }) +
            chunk({}, "tool_calls") +
            "data: [DONE]\n\n",
        );
      };
      pump();
    });
  });
}

async function measureFollowers(count = 50) {
  // 80 steps of 110 deltas of 8 KB: a turn that writes ~75 MB of events, far faster than the followers read.
  const model = chattyModel(80);
  const url = await listen(model);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const daemon = spawn(
    process.execPath,
    [CLI, "--daemon", "--daemon-port", String(port), "--daemon-socket", "off", "-C", tmpdir()],
    { env: homeEnv(url), stdio: ["ignore", "pipe", "pipe"] },
  );
  daemon.stdout.resume();
  daemon.stderr.resume();
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${base}/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // Followers that never read (raw sockets, paused), attached before the turn starts.
  const sockets = [];
  for (let i = 0; i < count; i++) {
    const s = connect({ host: "127.0.0.1", port });
    s.on("error", () => {});
    s.write("GET /v1/sessions/busy/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n");
    s.pause();
    sockets.push(s);
  }
  await new Promise((r) => setTimeout(r, 500));
  const idle = rssMb(daemon.pid);
  const t0 = Date.now();
  let done = false;
  const turn = fetch(`${base}/`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-session-id": "busy" },
    body: JSON.stringify({ prompt: "talk" }),
  })
    .then((r) => r.json())
    .catch((e) => ({ error: String(e) }))
    .finally(() => (done = true));
  let peak = 0;
  while (!done && Date.now() - t0 < 120_000) {
    peak = Math.max(peak, rssMb(daemon.pid));
    await new Promise((r) => setTimeout(r, 50));
  }
  peak = Math.max(peak, peakMb(daemon.pid) && rssMb(daemon.pid), peak);
  const answer = await turn;
  // A paused socket never sees its end: read what each one holds, and count those the daemon closed.
  let dropped = 0;
  for (const s of sockets) {
    s.on("end", () => dropped++);
    s.resume();
  }
  await new Promise((r) => setTimeout(r, 3000));
  console.log(
    `daemon with ${count} slow followers: RSS ${idle} MB before the turn, peak ${peak} MB during it (VmHWM ${peakMb(daemon.pid)} MB); turn ${answer.reason ?? answer.error} in ${Date.now() - t0} ms; ${dropped} followers dropped`,
  );
  for (const s of sockets) s.destroy();
  daemon.kill("SIGTERM");
  model.close();
  model.closeAllConnections();
}

const what = process.argv[2];
if (what === "stream") await measureStream();
else if (what === "followers") await measureFollowers(Number(process.argv[3] ?? 50));
else console.log("usage: node scripts/measure-bounds.mjs stream|followers [N]");

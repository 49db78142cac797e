// Runs the real daemon (dist/cli.js --daemon) as a child process and talks to it over real HTTP,
// on TCP or on its Unix socket.
import type { ChildProcess } from "node:child_process";
import { request, type IncomingHttpHeaders, type RequestOptions as RequestOptionsOf } from "node:http";
import { join } from "node:path";
import { afterEach } from "vitest";
import { SseParser, type SseMessage } from "../../src/remote/sse.js";
import { startCli, tempDir, testEnv } from "./cli.js";

export interface RunningDaemonProcess {
  child: ChildProcess;
  url: string;
  port: number;
  socket: string;
  home: string;
  sessionDir: string;
  workspace: string;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface DaemonStart {
  modelUrl: string;
  args?: string[];
  env?: Record<string, string | undefined>;
  home?: string;
  /** null: no --session-dir (the daemon's default folder). */
  sessionDir?: string | null;
  workspace?: string;
  socket?: string;
}

export async function startDaemonProcess(opts: DaemonStart): Promise<RunningDaemonProcess> {
  const home = opts.home ?? tempDir("nh-home-");
  const workspace = opts.workspace ?? tempDir("nh-ws-");
  const sessionDir =
    opts.sessionDir === null
      ? join(home, "daemon-sessions")
      : (opts.sessionDir ?? join(tempDir("nh-sessions-"), "sessions"));
  const socket = opts.socket ?? join(home, "daemon.sock");
  const env = testEnv({ NANOHERMES_HOME: home, OPENAI_API_KEY: "sk-test", ...opts.env });
  const child = startCli(
    // A test that passes --session (the seed's form) chooses the folder that way.
    [
      "--daemon",
      "--daemon-port",
      "0",
      "--base-url",
      opts.modelUrl,
      "-C",
      workspace,
      ...(opts.args?.includes("--session") || opts.sessionDir === null ? [] : ["--session-dir", sessionDir]),
      "--daemon-socket",
      socket,
      "--sandbox",
      "off",
      ...(opts.args ?? []),
    ],
    { env, cwd: workspace },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdout?.resume();
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the daemon did not start:\n${stderr}`)), 20_000);
    const check = () => {
      const match = /nanohermes daemon (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stderr?.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the daemon exited with ${code}:\n${stderr}`));
    });
  });
  return {
    child,
    url,
    port: Number(new URL(url).port),
    socket,
    home,
    sessionDir,
    workspace,
    stderr: () => stderr,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * JSON as the daemon sent it. Deliberately loose: assertions read whatever field they check, and
 * the tests that care about shapes validate events with BusEventSchema.
 */
// biome-ignore lint/suspicious/noExplicitAny: deliberately loose, as said above
export type WireJson = any;

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: WireJson;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  socketPath?: string;
  /** Send the body in chunks without Content-Length. */
  chunked?: boolean;
}

/** Where and how to send: TCP to `target`'s host and port, or the Unix socket. */
function requestOptions(
  target: string,
  path: string,
  opts: RequestOptions,
  headers: Record<string, string>,
): RequestOptionsOf {
  const base = new URL(target);
  const length =
    opts.body !== undefined && !opts.chunked ? { "Content-Length": String(Buffer.byteLength(opts.body)) } : {};
  return {
    ...(opts.socketPath ? { socketPath: opts.socketPath } : { host: base.hostname, port: base.port }),
    path,
    method: opts.method ?? (opts.body !== undefined ? "POST" : "GET"),
    headers: { ...headers, ...length, ...opts.headers },
  };
}

/** One HTTP request; `target` is the daemon's URL (or any URL on it) and `path` the request path. */
export function http(target: string, path: string, opts: RequestOptions = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(requestOptions(target, path, opts, {}), (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => {
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    if (opts.body !== undefined) {
      if (opts.chunked) {
        const body = Buffer.from(opts.body);
        for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
      } else req.write(opts.body);
    }
    req.end();
  });
}

export interface EventStream {
  messages: SseMessage[];
  events: WireJson[];
  status: number;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Resolves once an event matches. */
  waitFor(pred: (event: WireJson) => boolean, timeoutMs?: number): Promise<WireJson>;
  close(): void;
}

/** Opens an SSE request (GET /events or POST /turns) and collects its messages. */
export function openEvents(target: string, path: string, opts: RequestOptions = {}): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = request(requestOptions(target, path, opts, { Accept: "text/event-stream" }), (res) => {
      const parser = new SseParser();
      const waiters: { pred: (e: WireJson) => boolean; done: (e: WireJson) => void }[] = [];
      let endedResolve: () => void = () => {};
      const stream: EventStream = {
        messages: [],
        events: [],
        status: res.statusCode ?? 0,
        ended: new Promise((r) => (endedResolve = r)),
        waitFor: (pred, timeoutMs = 15_000) => {
          const found = stream.events.find(pred);
          if (found) return Promise.resolve(found);
          return new Promise((done, fail) => {
            const timer = setTimeout(
              () =>
                fail(
                  new Error(`no matching event in ${timeoutMs} ms; got ${stream.events.map((e) => e.type).join(", ")}`),
                ),
              timeoutMs,
            );
            waiters.push({ pred, done: (e) => (clearTimeout(timer), done(e)) });
          });
        },
        close: () => req.destroy(),
      };
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        for (const message of parser.feed(chunk)) {
          stream.messages.push(message);
          // The daemon's catch-up mark and the stream's version line (observer.started) are not bus events.
          if (message.event === "ready" || message.event === "observer.started") continue;
          let event: WireJson = null;
          try {
            event = JSON.parse(message.data);
          } catch {
            continue;
          }
          stream.events.push(event);
          for (const w of [...waiters])
            if (w.pred(event)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.done(event);
            }
        }
      });
      res.on("end", () => endedResolve());
      res.on("close", () => endedResolve());
      resolve(stream);
    });
    req.on("error", reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/**
 * Registers an afterEach that kills (SIGKILL) every daemon the returned function started in the
 * test; before the mock models they talk to close (those close when the test ends, mockModel).
 */
export function daemonsStoppedAfterEach(): (opts: DaemonStart) => Promise<RunningDaemonProcess> {
  const started: RunningDaemonProcess[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((d) => d.stop("SIGKILL")));
  });
  return async (opts) => {
    const d = await startDaemonProcess(opts);
    started.push(d);
    return d;
  };
}

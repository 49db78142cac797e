// The daemon's HTTP service: the seed's two endpoints (POST /, GET /health) and the /v1 API that
// streams turns as server-sent events, cancels them and serves attached front ends. It listens on
// TCP (bearer token when set) and on a Unix socket whose mode 600 is its credential.
import { promises as fs } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { dirname } from "node:path";
import { log } from "../config/log.js";
import { BusCommandSchema, type BusCommand } from "../protocol/commands.js";
import { SESSION_COMMANDS } from "../remote/wire.js";
import { VERSION } from "../version.js";
import { observerStarted } from "../protocol/observer.js";
import { bearerMatches, HttpError, promptOf, readJson, readRaw, sendError, sendJson, MAX_BODY_BYTES } from "./http.js";
import { MAX_IMAGE_BYTES } from "../protocol/images.js";
import { SESSION_ID, type DaemonSessions, type LoggedEvent } from "./sessions.js";
import { cronRoute, type CronService } from "./cron-routes.js";
import type { TeamDaemon } from "./team-daemon.js";
import { sseComment, sseMessage } from "../remote/sse.js";
import {
  backpressuredWriter,
  encodeEvent,
  MAX_CONNECTIONS,
  STREAM_LIMITS,
  StreamGate,
  type StreamLimits,
} from "./stream-limits.js";

export interface DaemonServerOptions {
  sessions: DaemonSessions;
  /** A daemon in a team: turns, events, cancels and the session list go through the shared store. */
  team?: TeamDaemon;
  /** The scheduled jobs (/v1/cron/...); absent, those paths are 404. */
  cron?: CronService;
  port: number;
  host: string;
  /** Required on TCP when set (not on the Unix socket). */
  token: string | null;
  socketPath: string | null;
  maxBodyBytes?: number;
  /** One line per turn and per refused request, for the service's journal. */
  report?: (line: string) => void;
  /** How often event streams send a keep-alive comment. */
  pingMs?: number;
  /** Default STREAM_LIMITS. */
  streamLimits?: Partial<StreamLimits>;
  /** Shared by the TCP and Unix listeners (made by startDaemonServer). */
  gate?: StreamGate;
  /** Connections each listener holds at once (default MAX_CONNECTIONS); more are closed as they arrive. */
  maxConnections?: number;
}

export interface DaemonServer {
  url: string;
  port: number;
  socketPath: string | null;
  /** Takes no new connections (the socket file goes); requests in flight still get their answer. */
  stopAccepting(): void;
  /** Closes every connection (event streams too) and the listeners. */
  close(): Promise<void>;
}

function sessionFromPath(raw: string): string {
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, "invalid session id: bad percent-encoding");
  }
  if (!SESSION_ID.test(id)) throw new HttpError(400, "invalid session id: use 1 to 64 of A-Z a-z 0-9 _ -");
  return id;
}

function sessionFromHeader(req: IncomingMessage): string {
  const header = req.headers["x-session-id"];
  if (header === undefined) return "default";
  const id = Array.isArray(header) ? header[0]! : header;
  if (!SESSION_ID.test(id)) throw new HttpError(400, "invalid X-Session-Id: use 1 to 64 of A-Z a-z 0-9 _ -");
  return id;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/**
 * Without a token, loopback is the only protection, and a web page in the user's browser can
 * reach loopback too: a cross-site POST (text/plain needs no preflight) or a DNS-rebound page. So
 * a tokenless daemon refuses requests that carry an Origin (browsers send one) and any Host but a
 * loopback name.
 */
function refuseBrowsers(req: IncomingMessage): void {
  if (req.headers.origin !== undefined)
    throw new HttpError(403, "requests from web pages are refused (this daemon has no token)");
  const host = req.headers.host ?? "";
  if (!LOOPBACK_HOST.test(host))
    throw new HttpError(403, `Host "${host}" is not a loopback name; a daemon without a token serves localhost only`);
}

function only(req: IncomingMessage, ...methods: string[]): void {
  if (!methods.includes(req.method ?? ""))
    throw new HttpError(405, `use ${methods.join(" or ")} here`, { Allow: methods.join(", ") });
}

/** Opens an SSE response; `close` ends it. Keep-alive comments go out every `pingMs`. */
function openStream(
  req: IncomingMessage,
  res: ServerResponse,
  session: string,
  pingMs: number,
  backlogBytes: number,
  /** The stream starts with a catch-up (ended by `ready`), not counted against the backlog. */
  catchUp = false,
): {
  send(event: LoggedEvent): void;
  ready(snapshot: boolean): void;
  comment(text: string): void;
  close(): void;
  closed: Promise<void>;
} {
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache, no-transform",
    Connection: "keep-alive",
    "X-Accel-Buffering": "no",
  });
  res.flushHeaders();
  const ping = setInterval(() => res.write(sseComment("ping")), pingMs);
  let done = false;
  const closed = new Promise<void>((resolve) => {
    const finish = () => {
      done = true;
      clearInterval(ping);
      resolve();
    };
    req.on("close", finish);
    res.on("close", finish);
  });
  // A client that reads slower than the turn writes is dropped past the backlog (it reconnects with Last-Event-ID).
  const queue = backpressuredWriter(res, backlogBytes);
  if (!catchUp) queue.live();
  const write = (text: string) => {
    if (!done) queue.write(text);
  };
  // The observer contract's version first, with no id: a client's Last-Event-ID is the last bus event's.
  write(sseMessage({ event: "observer.started", data: JSON.stringify(observerStarted(session, VERSION)) }));
  return {
    send: (logged) => write(encodeEvent(logged)),
    // Not a bus event: the mark between the catch-up and the live events.
    ready: (snapshot) => {
      write(sseMessage({ event: "ready", data: JSON.stringify({ snapshot }) }));
      queue.live();
    },
    comment: (text) => write(sseComment(text)),
    close: () => {
      clearInterval(ping);
      if (!done) res.end();
    },
    closed,
  };
}

/** A turn request's W3C `traceparent` header: the turn's trace continues the caller's (issue 32, item 3). */
function continueTrace(sessions: DaemonSessions, id: string, req: IncomingMessage): void {
  const header = req.headers.traceparent;
  const value = Array.isArray(header) ? header[0] : header;
  if (value) sessions.continueTrace(id, value);
}

export function routeHandler(opts: DaemonServerOptions, viaSocket: boolean) {
  const { sessions } = opts;
  /** Who runs turns and serves their events: the shared store in a team, else this daemon. */
  const turns = opts.team ?? sessions;
  const cap = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const pingMs = opts.pingMs ?? 15_000;
  const report = opts.report ?? (() => {});
  const limits = { ...STREAM_LIMITS, ...opts.streamLimits };
  const gate = opts.gate ?? new StreamGate(limits);

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://daemon").pathname;
    if (path === "/health") {
      only(req, "GET", "HEAD");
      return sendJson(res, 200, {
        status: "ok",
        sessions: sessions.count,
        running: sessions.running,
        version: VERSION,
        ...(opts.team ? await opts.team.health() : { store: "embedded" }),
      });
    }
    if (!viaSocket && opts.token === null) refuseBrowsers(req);
    if (!viaSocket && opts.token !== null && !bearerMatches(req.headers.authorization, opts.token)) {
      report(
        `refused ${req.method} ${path} from ${req.socket.remoteAddress}: ${req.headers.authorization ? "wrong" : "no"} token`,
      );
      throw new HttpError(
        401,
        req.headers.authorization ? "wrong token" : "this daemon needs Authorization: Bearer TOKEN",
        { "WWW-Authenticate": 'Bearer realm="nanohermes"' },
      );
    }
    if (path === "/") {
      only(req, "POST");
      const id = sessionFromHeader(req);
      const prompt = promptOf(await readJson(req, cap));
      continueTrace(sessions, id, req);
      const started = Date.now();
      const outcome = await turns.runTurn(id, prompt);
      report(
        `session ${id}: turn ${outcome.reason} in ${((Date.now() - started) / 1000).toFixed(1)} s, ${outcome.steps} steps`,
      );
      for (const warning of outcome.warnings ?? []) report(`session ${id}: warning: ${warning}`);
      // A turn that completed but could not be kept is no success (as `-p --json` says it).
      const saveFailed = outcome.saveError !== undefined && outcome.reason === "completed";
      const body = {
        response: outcome.response,
        session: id,
        reason: saveFailed ? "save_failed" : outcome.reason,
        ...(outcome.error ? { error: outcome.error } : {}),
        ...(outcome.saveError ? { saveError: outcome.saveError } : {}),
        ...(outcome.warnings ? { warnings: outcome.warnings } : {}),
        usage: outcome.usage,
      };
      return sendJson(res, outcome.reason === "error" ? 502 : saveFailed ? 500 : 200, body);
    }
    if (path.startsWith("/v1/cron/") && opts.cron) return cronRoute(opts.cron, req, res, path, cap);
    if (path === "/v1/sessions") {
      only(req, "GET");
      return sendJson(res, 200, { sessions: await turns.list() });
    }
    const match = /^\/v1\/sessions\/([^/]+)(?:\/(turns|events|cancel|commands|images|file))?$/.exec(path);
    if (!match) throw new HttpError(404, `no such endpoint: ${path}`);
    const id = sessionFromPath(match[1]!);
    switch (match[2]) {
      case undefined: {
        only(req, "GET", "DELETE");
        if (sessions.isScheduled(id))
          throw new HttpError(
            409,
            `session "${id}" is a scheduled run still going; it is served once it ends (nanohermes cron runs shows its state)`,
          );
        if (req.method === "GET") {
          const detail = await sessions.detail(id);
          if (!detail) throw new HttpError(404, `no session "${id}"`);
          return sendJson(res, 200, detail);
        }
        if (!(await sessions.remove(id))) throw new HttpError(404, `no session "${id}"`);
        res.writeHead(204).end();
        return;
      }
      case "turns": {
        only(req, "POST");
        const prompt = promptOf(await readJson(req, cap));
        const release = gate.enter(id, false);
        continueTrace(sessions, id, req);
        res.on("close", release);
        const stream = openStream(req, res, id, pingMs, limits.backlogBytes);
        if (sessions.manager.isRunning(id)) stream.comment("queued");
        const started = Date.now();
        const outcome = await turns.runTurn(id, prompt, stream.send);
        report(
          `session ${id}: streamed turn ${outcome.reason} in ${((Date.now() - started) / 1000).toFixed(1)} s, ${outcome.steps} steps`,
        );
        for (const warning of outcome.warnings ?? []) report(`session ${id}: warning: ${warning}`);
        stream.close();
        return;
      }
      case "events": {
        only(req, "GET");
        const release = gate.enter(id, true);
        res.on("close", release);
        const stream = openStream(req, res, id, pingMs, limits.backlogBytes, true);
        const lastId = req.headers["last-event-id"];
        const off = await turns.subscribe(id, Array.isArray(lastId) ? lastId[0] : lastId, stream.send, (snapshot) =>
          stream.ready(snapshot),
        );
        await stream.closed;
        off();
        return;
      }
      case "cancel": {
        only(req, "POST");
        const body = await readJson(req, cap);
        if (body.force !== undefined && typeof body.force !== "boolean")
          throw new HttpError(400, '"force" must be true or false');
        const cancelled = opts.team
          ? await opts.team.cancel(id, body.force === true)
          : sessions.cancel(id, body.force === true);
        if (cancelled) report(`session ${id}: cancel requested${body.force ? " (force)" : ""}`);
        return sendJson(res, 200, { cancelled, session: id });
      }
      case "file": {
        only(req, "GET");
        const query = new URL(req.url ?? "/", "http://daemon").searchParams;
        const file = query.get("path");
        if (!file) throw new HttpError(400, "name the file: ?path=PATH (and &turn=N for its content before turn N)");
        const turnText = query.get("turn");
        if (turnText !== null && !/^[1-9]\d{0,8}$/.test(turnText))
          throw new HttpError(400, "turn must be a positive number");
        const answer = await sessions.file(id, file, turnText === null ? null : Number(turnText));
        if (typeof answer === "string") throw new HttpError(400, answer);
        return sendJson(res, 200, answer);
      }
      case "images": {
        only(req, "POST");
        const data = await readRaw(req, MAX_IMAGE_BYTES);
        if (data.length === 0) throw new HttpError(400, "the body is empty: send the image's bytes");
        let name = "image";
        try {
          name = decodeURIComponent(String(req.headers["x-file-name"] ?? "image"));
        } catch {
          // a bad name is only a name
        }
        const stored = await sessions.storeUpload(name, data);
        return sendJson(res, 201, { path: stored });
      }
      case "commands": {
        only(req, "POST");
        const body = await readJson(req, cap);
        const parsed = BusCommandSchema.safeParse({ ...body, taskId: id });
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new HttpError(
            400,
            `not a valid command: ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`,
          );
        }
        const command = parsed.data as BusCommand;
        if (!SESSION_COMMANDS.has(command.type))
          throw new HttpError(400, `"${command.type}" cannot be sent to a daemon session`);
        const teamAnswer = await opts.team?.command(id, command);
        const refused = teamAnswer === undefined ? sessions.command(id, command) : teamAnswer;
        if (refused) throw new HttpError(409, refused);
        return sendJson(res, 202, { accepted: true });
      }
    }
  }

  return (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) {
        sendError(res, error);
        // The rest of an oversize body is not read: close instead of draining it.
        if (error.status === 413) res.on("finish", () => req.destroy());
        return;
      }
      log("error", "daemon request failed", error);
      if (!res.headersSent) sendError(res, new HttpError(500, `internal error: ${(error as Error).message}`));
      else res.end();
    });
  };
}

/** Removes a socket file left by a daemon that died; refuses when one still answers on it. */
async function claimSocket(path: string): Promise<void> {
  const alive = await new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
  if (alive) throw new Error(`another daemon is listening on ${path}`);
  await fs.unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}

function listen(server: Server, target: { port: number; host: string } | { path: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(target, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function configure(server: Server, maxConnections: number): Server {
  // Turn streams live long; only receiving a request is timed.
  server.headersTimeout = 15_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  server.maxConnections = maxConnections;
  return server;
}

export async function startDaemonServer(options: DaemonServerOptions): Promise<DaemonServer> {
  // One count of open streams for both listeners.
  const opts = { ...options, gate: options.gate ?? new StreamGate({ ...STREAM_LIMITS, ...options.streamLimits }) };
  const maxConnections = opts.maxConnections ?? MAX_CONNECTIONS;
  const tcp = configure(createServer(routeHandler(opts, false)), maxConnections);
  await listen(tcp, { port: opts.port, host: opts.host });
  const address = tcp.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  let unix: Server | null = null;
  if (opts.socketPath) {
    const path = opts.socketPath;
    // sockaddr_un holds 107 bytes of path on Linux; longer fails with an obscure EINVAL.
    if (Buffer.byteLength(path) > 107)
      throw new Error(
        `the socket path ${path} is longer than 107 bytes; choose a shorter one with --daemon-socket PATH (or off)`,
      );
    await fs.mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await claimSocket(path);
    unix = configure(createServer(routeHandler(opts, true)), maxConnections);
    // Created with mode 600 from the start: no moment where another user could connect.
    const umask = process.umask(0o177);
    try {
      await listen(unix, { path });
    } finally {
      process.umask(umask);
    }
    await fs.chmod(path, 0o600);
  }
  const host = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  const servers = unix ? [tcp, unix] : [tcp];
  let closed: Promise<void> | null = null;
  const stopAccepting = () =>
    (closed ??= Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
      .then(() => (opts.socketPath ? fs.unlink(opts.socketPath).catch(() => {}) : undefined))
      .then(() => {}));
  return {
    url: `http://${host}:${port}`,
    port,
    socketPath: opts.socketPath,
    stopAccepting: () => {
      void stopAccepting();
      // Idle keep-alive connections would hold the close open; busy ones finish their answer.
      for (const server of servers) server.closeIdleConnections();
    },
    close: async () => {
      const done = stopAccepting();
      // Answers written just now get out before the connections go.
      await new Promise((resolve) => setImmediate(resolve));
      for (const server of servers) server.closeAllConnections();
      await done;
    },
  };
}

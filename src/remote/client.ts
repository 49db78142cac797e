// A client of the daemon's /v1 API, over its Unix socket or over HTTP(S): requests, and event
// streams that reconnect by themselves (with Last-Event-ID, so nothing is missed or repeated).
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isAbsolute, resolve } from "node:path";
import type { BusCommand } from "../protocol/commands.js";
import { BusEventSchema, type BusEvent } from "../protocol/events.js";
import { log } from "../config/log.js";
import type { FileAt, SessionDetail, SessionInfo } from "./wire.js";
import { SseParser } from "./sse.js";

export type DaemonAddress = { kind: "unix"; socketPath: string } | { kind: "http"; base: URL };

/**
 * `unix:/path`, an absolute socket path, `http(s)://host:port[/prefix]`, or `host:port`
 * (plain HTTP). Throws a readable error for anything else.
 */
export function parseAddress(raw: string, cwd: string): DaemonAddress {
  if (raw.startsWith("unix:")) return { kind: "unix", socketPath: resolve(cwd, raw.slice(5)) };
  if (isAbsolute(raw) || raw.startsWith("./") || raw.startsWith("~/"))
    return { kind: "unix", socketPath: resolve(cwd, raw.replace(/^~(?=\/)/, process.env.HOME ?? "~")) };
  const withScheme = /^[a-z]+:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new Error(`"${raw}" is not a daemon address (use http://HOST:PORT, https://HOST, or unix:/path/to/socket)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`"${raw}": only http, https and unix: addresses are supported`);
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return { kind: "http", base: url };
}

export const describeAddress = (address: DaemonAddress): string =>
  address.kind === "unix"
    ? `unix:${address.socketPath}`
    : address.base.origin + address.base.pathname.replace(/\/$/, "");

export class DaemonError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export interface StreamHandlers {
  onEvent(event: BusEvent): void;
  /** Connected (again), or lost with the reason; the stream keeps retrying until closed. */
  onState?(state: { connected: true } | { connected: false; error: string; retryInMs: number }): void;
  /**
   * An event the bus schema refuses (a daemon of another version, a proxy mangling the stream): it
   * is not passed on, since the UI's reducers trust event shapes; `reason` names the field. Also logged.
   */
  onInvalid?(reason: string): void;
}

const REQUEST_TIMEOUT_MS = 15_000;

export class DaemonClient {
  constructor(
    readonly address: DaemonAddress,
    private readonly token: string | null,
  ) {}

  private options(
    method: string,
    path: string,
    headers: Record<string, string>,
  ): { send: typeof httpRequest; options: RequestOptions } {
    const auth = this.token ? { Authorization: `Bearer ${this.token}` } : {};
    if (this.address.kind === "unix")
      return {
        send: httpRequest,
        options: { socketPath: this.address.socketPath, path, method, headers: { ...auth, ...headers } },
      };
    const url = new URL(path.replace(/^\//, ""), this.address.base);
    return {
      send: url.protocol === "https:" ? (httpsRequest as unknown as typeof httpRequest) : httpRequest,
      options: {
        host: url.hostname,
        port: url.port || (url.protocol === "https:" ? 443 : 80),
        path: url.pathname + url.search,
        method,
        headers: { ...auth, ...headers },
      },
    };
  }

  /** One JSON request; a DaemonError with the daemon's own message on a non-2xx answer. */
  request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    return this.send<T>(method, path, text === undefined ? undefined : Buffer.from(text), {
      "Content-Type": "application/json",
    });
  }

  /** Sends `body` as it is; the answer is JSON (a DaemonError with the daemon's message otherwise). */
  private send<T>(method: string, path: string, body: Buffer | undefined, headers: Record<string, string>): Promise<T> {
    const { send, options } = this.options(
      method,
      path,
      body === undefined ? {} : { ...headers, "Content-Length": String(body.length) },
    );
    return new Promise<T>((resolvePromise, reject) => {
      const req = send(options, (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (data += d));
        res.on("end", () => {
          let json: unknown = null;
          try {
            json = data ? JSON.parse(data) : null;
          } catch {
            // not JSON: reported below
          }
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolvePromise(json as T);
          else reject(new DaemonError((json as { error?: string } | null)?.error ?? `HTTP ${status}`, status));
        });
      });
      req.setTimeout(REQUEST_TIMEOUT_MS, () =>
        req.destroy(new Error(`no answer from ${describeAddress(this.address)} in ${REQUEST_TIMEOUT_MS / 1000} s`)),
      );
      req.on("error", (error: NodeJS.ErrnoException) =>
        reject(new DaemonError(connectionMessage(this.address, error), null)),
      );
      req.end(body);
    });
  }

  health(): Promise<{ status: string; sessions: number; running: number; version: string }> {
    return this.request("GET", "/health");
  }

  async sessions(): Promise<SessionInfo[]> {
    return (await this.request<{ sessions: SessionInfo[] }>("GET", "/v1/sessions")).sessions;
  }

  /** Uploads an image for the session's next prompt; returns the daemon's path for `images`. */
  async upload(session: string, name: string, data: Buffer): Promise<string> {
    const answer = await this.send<{ path: string }>(
      "POST",
      `/v1/sessions/${encodeURIComponent(session)}/images`,
      data,
      { "Content-Type": "application/octet-stream", "X-File-Name": encodeURIComponent(name) },
    );
    return answer.path;
  }

  /** A file of the session's workspace now, and before `turn` when given. */
  file(session: string, path: string, turn: number | null): Promise<FileAt> {
    const query = `path=${encodeURIComponent(path)}${turn === null ? "" : `&turn=${turn}`}`;
    return this.request("GET", `/v1/sessions/${encodeURIComponent(session)}/file?${query}`);
  }

  detail(session: string): Promise<SessionDetail> {
    return this.request("GET", `/v1/sessions/${encodeURIComponent(session)}`);
  }

  command(session: string, command: BusCommand): Promise<unknown> {
    const { taskId: _ignored, ...rest } = command;
    return this.request("POST", `/v1/sessions/${encodeURIComponent(session)}/commands`, rest);
  }

  async cancel(session: string, force: boolean): Promise<boolean> {
    return (
      await this.request<{ cancelled: boolean }>("POST", `/v1/sessions/${encodeURIComponent(session)}/cancel`, {
        force,
      })
    ).cancelled;
  }

  remove(session: string): Promise<unknown> {
    return this.request("DELETE", `/v1/sessions/${encodeURIComponent(session)}`);
  }

  /**
   * Follows the session's events until `close()`. A dropped connection is retried (0.5 s, doubling
   * to 10 s) with the last event id, so the daemon sends only what was missed.
   */
  follow(session: string, handlers: StreamHandlers): { close(): void } {
    let lastId: string | undefined;
    let closed = false;
    let current: { destroy(): void } | null = null;
    let timer: NodeJS.Timeout | null = null;
    let delay = 500;
    const retry = (error: string) => {
      current = null;
      if (closed) return;
      handlers.onState?.({ connected: false, error, retryInMs: delay });
      timer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10_000);
    };
    const connect = () => {
      if (closed) return;
      const { send, options } = this.options("GET", `/v1/sessions/${encodeURIComponent(session)}/events`, {
        Accept: "text/event-stream",
        ...(lastId ? { "Last-Event-ID": lastId } : {}),
      });
      // A connection fails once, however many of error/close fire.
      let failed = false;
      const fail = (error: string) => {
        if (failed) return;
        failed = true;
        retry(error);
      };
      const req = send(options, (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          let data = "";
          res.on("data", (d: Buffer) => (data += d.toString()));
          res.on("end", () => {
            let message = `HTTP ${res.statusCode}`;
            try {
              message = (JSON.parse(data) as { error?: string }).error ?? message;
            } catch {
              // keep the status
            }
            // A wrong token or a bad id will not fix itself: stop retrying.
            if (res.statusCode === 401 || res.statusCode === 400 || res.statusCode === 404) {
              failed = closed = true;
              handlers.onState?.({ connected: false, error: message, retryInMs: -1 });
            } else fail(message);
          });
          return;
        }
        delay = 500;
        const parser = new SseParser();
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          let messages: ReturnType<SseParser["feed"]>;
          try {
            messages = parser.feed(chunk);
          } catch (error) {
            // The daemon would send the same line again: stop following, and say why.
            failed = closed = true;
            res.destroy();
            handlers.onState?.({ connected: false, error: (error as Error).message, retryInMs: -1 });
            return;
          }
          for (const message of messages) {
            // After the snapshot (or the missed events): connected from here on.
            if (message.event === "ready") {
              handlers.onState?.({ connected: true });
              continue;
            }
            // The stream's schema line (observer.started) is about the stream, not the session.
            if (message.event === "observer.started") continue;
            if (message.id !== undefined) lastId = message.id;
            const event = parseEvent(message.data);
            if (typeof event === "string") {
              log("warn", `daemon event dropped: ${event}`);
              handlers.onInvalid?.(event);
              continue;
            }
            handlers.onEvent(event);
          }
        });
        res.on("close", () => fail("the daemon closed the connection"));
      });
      req.on("error", (error: NodeJS.ErrnoException) => fail(connectionMessage(this.address, error)));
      current = req;
      req.end();
    };
    connect();
    return {
      close: () => {
        closed = true;
        if (timer) clearTimeout(timer);
        current?.destroy();
      },
    };
  }
}

/** One SSE message's data as a bus event, validated with the bus schema; the reason when it is not one. */
export function parseEvent(data: string): BusEvent | string {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return `not JSON: ${data.slice(0, 80)}`;
  }
  const parsed = BusEventSchema.safeParse(json);
  if (parsed.success) return parsed.data as BusEvent;
  const type = (json as { type?: unknown } | null)?.type;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join(".") : "the event";
  return `${typeof type === "string" ? type : "an event without a type"}: ${where}: ${issue?.message ?? "invalid"}`;
}

function connectionMessage(address: DaemonAddress, error: NodeJS.ErrnoException): string {
  const where = describeAddress(address);
  if (error.code === "ENOENT" || error.code === "ECONNREFUSED")
    return `no daemon at ${where} (start one with nanohermes --daemon)`;
  if (error.code === "EACCES") return `${where}: permission denied (the socket belongs to another user)`;
  return `${where}: ${error.message}`;
}

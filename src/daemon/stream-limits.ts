// Bounds on the daemon's event streams: how many are open (per session and in all), and how much a
// slow reader may have queued before it is dropped (it reconnects with Last-Event-ID and catches up
// from the session's log). Memory then follows these numbers, not the number of events of a turn.
import type { ServerResponse } from "node:http";
import { HttpError } from "./http.js";
import { sseMessage } from "../remote/sse.js";
import type { LoggedEvent } from "./sessions.js";

export interface StreamLimits {
  /** Bytes of live events a stream may have queued before it is dropped (shared strings: a pointer each per follower). */
  backlogBytes: number;
  /** Event streams (/events) of one session at once. */
  followersPerSession: number;
  /** Event and turn streams at once, all sessions. */
  streams: number;
}

export const STREAM_LIMITS: StreamLimits = { backlogBytes: 8 * 1024 * 1024, followersPerSession: 32, streams: 512 };

/** Connections each listener holds at once; more are closed by Node as they arrive. */
export const MAX_CONNECTIONS = 2048;

// Every follower of a session gets the same logged event: it is encoded once and the text shared,
// so a queued event costs each slow follower a pointer, not a copy.
const encoded = new WeakMap<LoggedEvent, string>();

export function encodeEvent(logged: LoggedEvent): string {
  let text = encoded.get(logged);
  if (text === undefined) {
    text = sseMessage({ id: logged.id, event: logged.event.type, data: JSON.stringify(logged.event) });
    encoded.set(logged, text);
  }
  return text;
}

/** Counts open streams; `enter` refuses one over a limit with an HTTP error and returns its release. */
export class StreamGate {
  private total = 0;
  private readonly perSession = new Map<string, number>();

  constructor(private readonly limits: StreamLimits) {}

  enter(session: string, follower: boolean): () => void {
    if (this.total >= this.limits.streams)
      throw new HttpError(503, `the daemon already serves ${this.limits.streams} event streams; try again later`, {
        "Retry-After": "5",
      });
    const mine = this.perSession.get(session) ?? 0;
    if (follower && mine >= this.limits.followersPerSession)
      throw new HttpError(429, `session "${session}" already has ${this.limits.followersPerSession} followers`, {
        "Retry-After": "5",
      });
    this.total++;
    if (follower) this.perSession.set(session, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      if (!follower) return;
      const left = (this.perSession.get(session) ?? 1) - 1;
      if (left > 0) this.perSession.set(session, left);
      else this.perSession.delete(session);
    };
  }
}

/** Bytes written at one drain: the queue is sent in pieces, never joined into one big copy. */
const FLUSH_BYTES = 64 * 1024;

export interface StreamWriter {
  write(text: string): void;
  /** From now on queued bytes count against the backlog (the catch-up before it is bounded by the session's log). */
  live(): void;
}

/**
 * Contract: writes `text` to `res` at once while the socket keeps up; while it does not, texts are
 * queued (shared strings, so a pointer each) and sent in pieces of about FLUSH_BYTES at each drain.
 * A stream whose live queue passes `backlogBytes` is destroyed: the follower is dropped (it
 * reconnects with Last-Event-ID), never the daemon's memory.
 */
export function backpressuredWriter(res: ServerResponse, backlogBytes: number): StreamWriter {
  let blocked = false;
  let pending: string[] = [];
  let head = 0;
  let pendingBytes = 0;
  // Queued before live(): the catch-up, not counted against the backlog.
  let exemptBytes = 0;
  let counting = false;
  const flush = () => {
    while (!blocked && head < pending.length) {
      let bytes = 0;
      const start = head;
      while (head < pending.length && (bytes === 0 || bytes + pending[head]!.length <= FLUSH_BYTES))
        bytes += pending[head++]!.length;
      const text = pending.slice(start, head).join("");
      pendingBytes -= bytes;
      exemptBytes = Math.max(0, exemptBytes - bytes);
      blocked = !res.write(text);
    }
    if (head === pending.length) {
      pending = [];
      head = 0;
    }
  };
  res.on("drain", () => {
    blocked = false;
    flush();
  });
  return {
    live: () => {
      counting = true;
    },
    write: (text) => {
      if (res.destroyed) return;
      if (!blocked) {
        blocked = !res.write(text);
        return;
      }
      pending.push(text);
      pendingBytes += text.length;
      if (!counting) exemptBytes += text.length;
      if (pendingBytes - exemptBytes > backlogBytes) {
        pending = [];
        res.destroy();
      }
    },
  };
}

// What the daemon (src/daemon) and its clients (this folder) agree on: session ids, the socket and
// token a client looks for, the commands a session accepts, and the shapes of the listings. Kept
// apart from both ends so the server never imports client code and the client no server code.
import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { registerSecret } from "../config/log.js";
import type { BusCommand } from "../protocol/commands.js";
import type { TaskStatus } from "../protocol/events.js";
import type { HistoryItem } from "../protocol/history.js";
import type { ChatMessage } from "../protocol/messages.js";

/** What a session id may look like: it names a file, so nothing that could leave the folder. */
export const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

export { defaultSocketPath } from "../config/paths.js";

/** Commands a front end may send to a daemon session (`turn.interrupt` has its own endpoint too). */
export const SESSION_COMMANDS: ReadonlySet<BusCommand["type"]> = new Set<BusCommand["type"]>([
  "user.submit",
  "shell.run",
  "approval.reply",
  "turn.interrupt",
  "queue.update",
  "job.stop",
  "session.undo",
  "session.clear",
  "session.compact",
  "session.rewind",
  "file.revert",
  "task.update",
  "config.update",
  "subagent.stop",
]);

/** Where `--daemon-token-file FILE` points (`~/` expanded). */
export function tokenFilePath(file: string, env: NodeJS.ProcessEnv, cwd: string): string {
  return resolve(cwd, file.replace(/^~(?=\/)/, env.HOME ?? "~"));
}

/**
 * The daemon token: `file`'s first line (`~/` allowed), else NANOHERMES_DAEMON_TOKEN, else null.
 * Throws a readable error for a file that cannot be read or is empty. `warn` hears about a file
 * other users can read.
 */
export async function readToken(
  file: string | null,
  env: NodeJS.ProcessEnv,
  cwd: string,
  warn: (text: string) => void = () => {},
): Promise<string | null> {
  if (file === null) {
    const fromEnv = env.NANOHERMES_DAEMON_TOKEN?.trim();
    return fromEnv ? fromEnv : null;
  }
  const path = tokenFilePath(file, env, cwd);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(
      `cannot read the token file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const token = (text.split(/\r?\n/, 1)[0] ?? "").trim();
  if (token === "") throw new Error(`the token file ${path} is empty`);
  if (((await stat(path)).mode & 0o077) !== 0) warn(`warning: ${path} can be read by other users; chmod 600 it`);
  registerSecret(token);
  return token;
}

export interface SessionInfo {
  id: string;
  title: string;
  status: TaskStatus;
  updatedAt: string;
  running: boolean;
}

/** A session with its whole history (GET /v1/sessions/{id}). */
export interface SessionDetail extends SessionInfo {
  model: string;
  workspace: string;
  createdAt: string;
  /** The conversation without the system prompt. */
  messages: ChatMessage[];
  /** The typed history the transcript is rebuilt from (as session.loaded carries it). */
  transcript: HistoryItem[];
}

/** A session's file now and before a turn (GET /v1/sessions/{id}/file). */
export interface FileAt {
  path: string;
  /** The file now; null when it is absent, too large or not text. */
  now: string | null;
  /** Before the turn (when one was asked for): null absent then, omitted when not kept. */
  before?: string | null;
}

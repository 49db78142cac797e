// What the session picker and the memory dialog read and change, as the controller sees it: plain
// data and promises. run.ts adapts the engine's session index, memory store and checkpoints to these.
import type { CheckpointTurn } from "./turns.js";

/** One past session: a row of the /resume picker. */
export interface SessionRow {
  /** The session file, absolute: the key that matches a task's `sessionFile`. */
  file: string;
  sessionId: string;
  title: string;
  workspace: string;
  /** ISO time. */
  updatedAt: string;
  /** For a search hit: about 160 characters around the match, the matched words in [ ]. */
  snippet?: string;
  /** The task the index lists this session under: a task opened on it keeps that id (one entry per session). */
  taskId?: string;
}

/**
 * Contract: promises may reject (an unreadable index, a missing native module); the picker shows
 * the message. `all`: every workspace, not only this one.
 */
export interface SessionSource {
  /** Sessions of the task index, newest first. */
  list(all: boolean): Promise<SessionRow[]>;
  /** Full-text search across sessions, best first. */
  search(query: string, all: boolean): Promise<SessionRow[]>;
  /** The first line of the session's last prompt (null when it has none or cannot be read). */
  lastPrompt(file: string): Promise<string | null>;
}

/** One long-term memory entry as the dialog shows it. */
export interface MemoryRow {
  id: string;
  kind: string;
  text: string;
  /** ISO times. */
  createdAt: string;
  updatedAt: string;
  workspace?: string;
}

/** Contract: mutations reject with a message fit for the user (e.g. a text over the length limit). */
export interface MemorySource {
  /** False with --no-memory: the dialog says so and changes nothing. */
  enabled: boolean;
  /** The kinds, in the order `k` cycles them; new entries get the last one. */
  kinds: readonly string[];
  /** Every entry, newest (last changed) first. */
  list(): Promise<MemoryRow[]>;
  /** BM25 search, best first. */
  search(query: string): Promise<MemoryRow[]>;
  update(id: string, change: { kind?: string; text?: string }): Promise<MemoryRow | null>;
  remove(id: string): Promise<boolean>;
  save(kind: string, text: string): Promise<MemoryRow>;
}

/**
 * The engine's file checkpoints of a session (per-turn diffs in the Turns tab). Contract: never
 * rejects; what cannot be read is `undefined` (content) or an empty list (turns).
 */
export interface CheckpointSource {
  /** A file's content before user turn `turn`: null when it did not exist, undefined when not kept (too large) or unknown. */
  contentBefore(sessionId: string, turn: number, path: string): Promise<string | null | undefined>;
  /** The turns that changed files, oldest first, as checkpoints.updated lists them (prompts empty: the store does not keep them). */
  turns(sessionId: string): Promise<CheckpointTurn[]>;
}

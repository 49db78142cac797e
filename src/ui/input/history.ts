// The composer's input history: walking it with up/down while keeping the unsent draft, searching
// it, and the history file (~/.nanohermes/history.jsonl, one JSON string per line).
import { appendFile, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createEditor, editorText, isFirstLine, isLastLine, moveDown, moveUp, type EditorState } from "./editor.js";

/** Entries kept in memory and in the file. */
export const HISTORY_CAP = 1000;

export const historyPath = (home: string): string => join(home, "history.jsonl");

/** Drops blank entries and consecutive duplicates, keeps the newest `cap`. */
function normalise(entries: readonly string[], cap: number): string[] {
  const out: string[] = [];
  for (const e of entries) if (e.trim() !== "" && out.at(-1) !== e) out.push(e);
  return out.slice(Math.max(0, out.length - cap));
}

/**
 * Contract: `prev(draft)` starts a walk (saving `draft`) or steps to an older entry; `next()`
 * steps newer and, past the newest, returns the saved draft and ends the walk. Both return
 * undefined when there is nowhere to go, so the caller leaves the composer as it is.
 */
export class History {
  private items: string[];
  private index: number | null = null;
  private draft = "";

  constructor(
    entries: readonly string[] = [],
    private readonly cap = HISTORY_CAP,
  ) {
    this.items = normalise(entries, cap);
  }

  /** Oldest first. */
  get entries(): readonly string[] {
    return this.items;
  }

  /** True between a `prev` and the `next` that returns the draft (or a `reset`/`add`). */
  get walking(): boolean {
    return this.index !== null;
  }

  /** Records a sent entry and ends any walk. False when skipped (blank or same as the last). */
  add(entry: string): boolean {
    this.reset();
    if (entry.trim() === "" || this.items.at(-1) === entry) return false;
    this.items.push(entry);
    if (this.items.length > this.cap) this.items.splice(0, this.items.length - this.cap);
    return true;
  }

  prev(draft: string): string | undefined {
    if (this.items.length === 0) return undefined;
    if (this.index === null) {
      this.draft = draft;
      this.index = this.items.length - 1;
    } else if (this.index === 0) {
      return undefined;
    } else {
      this.index -= 1;
    }
    return this.items[this.index];
  }

  next(): string | undefined {
    if (this.index === null) return undefined;
    if (this.index >= this.items.length - 1) {
      const draft = this.draft;
      this.reset();
      return draft;
    }
    this.index += 1;
    return this.items[this.index];
  }

  reset(): void {
    this.index = null;
    this.draft = "";
  }

  /** Entries containing `query` (case-insensitive), newest first, each once. */
  search(query: string): string[] {
    const q = query.toLowerCase();
    const seen = new Set<string>();
    const out: string[] = [];
    for (let i = this.items.length - 1; i >= 0; i--) {
      const e = this.items[i] ?? "";
      if (seen.has(e) || !e.toLowerCase().includes(q)) continue;
      seen.add(e);
      out.push(e);
    }
    return out;
  }
}

/** Up in the composer: moves the cursor, or on the first line recalls an older entry. */
export function upOrHistory(s: EditorState, history: History): EditorState {
  if (!isFirstLine(s)) return moveUp(s);
  const entry = history.prev(editorText(s));
  return entry === undefined ? s : createEditor(entry);
}

/** Down in the composer: moves the cursor, or on the last line recalls a newer entry or the draft. */
export function downOrHistory(s: EditorState, history: History): EditorState {
  if (!isLastLine(s)) return moveDown(s);
  const entry = history.next();
  return entry === undefined ? s : createEditor(entry);
}

/**
 * Reads the history file, oldest first, capped. Never throws: a missing or unreadable file is
 * an empty history and a bad line (not JSON, not a string) is skipped. A file grown past twice
 * the cap by appends is rewritten with the kept entries (best effort).
 */
export async function loadHistory(path: string, cap = HISTORY_CAP): Promise<string[]> {
  let raw: string;
  try {
    raw = await readFile(path, "utf8");
  } catch {
    return [];
  }
  const lines = raw.split("\n").filter((l) => l.trim() !== "");
  const entries: string[] = [];
  for (const line of lines) {
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === "string") entries.push(v);
    } catch {
      // A torn write or a hand edit: skip the line, keep the rest.
    }
  }
  const kept = normalise(entries, cap);
  if (lines.length > 2 * cap) await saveHistory(path, kept);
  return kept;
}

/** Appends one entry (appends from several NanoHermes processes interleave whole lines). */
export async function appendHistory(path: string, entry: string): Promise<Error | null> {
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await appendFile(path, JSON.stringify(entry) + "\n", { encoding: "utf8", mode: 0o600 });
    return null;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Replaces the file with `entries` through a temp file and rename, so a crash never truncates it. */
export async function saveHistory(path: string, entries: readonly string[]): Promise<Error | null> {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(tmp, entries.map((e) => JSON.stringify(e) + "\n").join(""), { encoding: "utf8", mode: 0o600 });
    await rename(tmp, path);
    return null;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

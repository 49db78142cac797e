// Session files: one JSON document per session, written atomically after every turn, read back
// with validation; a file that cannot be read is set aside and a fresh session starts.
import { promises as fs } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { redact } from "../config/log.js";
import { randomId } from "../protocol/ids.js";
import { ChatMessageSchema, type ChatMessage } from "../protocol/messages.js";
import * as z from "../protocol/zod.js";
import { atomicWriteFile } from "../tools/fs-atomic.js";
import { withWalk } from "../tools/safe-fs.js";
import { readRegular } from "../tools/safe-fs-ops.js";

export const SessionFileSchema = z.object({
  version: z.literal(1),
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  workspace: z.string(),
  model: z.string(),
  title: z.optional(z.string()),
  pinned: z.optional(z.boolean()),
  messages: z.array(ChatMessageSchema),
  /** Messages compaction folded out of `messages`, oldest first: kept for search and the record. */
  archive: z.optional(z.array(ChatMessageSchema)),
  /** One entry per compaction: when, how much, and whether the summary call worked. */
  compactions: z.optional(
    z.array(z.object({ at: z.string(), folded: z.int(), kept: z.int(), summaryChars: z.int(), failed: z.boolean(), focus: z.optional(z.string()) })),
  ),
});

export type SessionData = z.infer<typeof SessionFileSchema>;

export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomId(6)}`;
}

export function newSession(workspace: string, model: string, id = newSessionId()): SessionData {
  const now = new Date().toISOString();
  return { version: 1, id, createdAt: now, updatedAt: now, workspace, model, messages: [] };
}

export const sessionFileFor = (dir: string, id: string) => join(dir, `${id}.json`);

export interface LoadedSession {
  data: SessionData;
  resumed: boolean;
  /** Set when the file existed but could not be used; it was renamed to `movedTo`. */
  warning?: string;
}

/**
 * Contract: never throws for a bad file. A missing file gives a new session; an unreadable or
 * invalid one is renamed to `<file>.corrupt-<time>` (so nothing is lost) and a new session starts.
 */
export async function loadSession(file: string, workspace: string, model: string): Promise<LoadedSession> {
  let text: string;
  const idFromFile = file.replace(/^.*\//, "").replace(/\.json$/, "");
  try {
    // Through the no-follow walk: a link or a FIFO planted as a session file is refused, not read.
    const read = await withWalk(resolve(file), { followFinal: false }, (w) => readRegular(w, file));
    if (read === null) return { data: newSession(workspace, model, idFromFile), resumed: false };
    text = read.data.toString("utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { data: newSession(workspace, model, idFromFile), resumed: false };
    return { data: newSession(workspace, model), resumed: false, warning: `cannot read session ${file} (${(error as Error).message}); starting a new session` };
  }
  let problem: string;
  try {
    const raw: unknown = JSON.parse(text);
    // Bare message arrays (the seed's format) are accepted too.
    const candidate = Array.isArray(raw) ? { ...newSession(workspace, model, idFromFile), messages: raw } : raw;
    const parsed = SessionFileSchema.safeParse(candidate);
    if (parsed.success) return { data: parsed.data, resumed: parsed.data.messages.length > 0 };
    const issue = parsed.error.issues[0];
    problem = `${issue?.path.join(".") || "file"}: ${issue?.message ?? "invalid"}`;
  } catch (error) {
    problem = `not valid JSON (${(error as Error).message})`;
  }
  const movedTo = `${file}.corrupt-${Date.now()}`;
  await fs.rename(file, movedTo).catch(() => {});
  return {
    data: newSession(workspace, model, idFromFile),
    resumed: false,
    warning: `session ${file} is unreadable (${problem}); it was kept as ${movedTo} and a new session started`,
  };
}

/** Writes the session atomically (temp file + rename), with known secrets redacted. */
export async function saveSession(file: string, data: SessionData): Promise<void> {
  data.updatedAt = new Date().toISOString();
  await fs.mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await atomicWriteFile(file, redact(JSON.stringify(data)), 0o600);
}

export type { ChatMessage };

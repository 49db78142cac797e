// Session files: one JSON document per session, written atomically after every turn, read back
// with validation; an invalid file is set aside and a fresh session starts, one that cannot be
// read is left alone.
import { promises as fs } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { redact } from "../config/log.js";
import { randomId } from "../protocol/ids.js";
import { HistoryItemSchema } from "../protocol/history.js";
import { ChatMessageSchema, type ChatMessage } from "../protocol/messages.js";
import * as z from "../protocol/zod.js";
import { readHistory, readMessages, SESSION_VERSION, withExtras } from "./compat.js";
import { packHistory, unpackHistory } from "./history-refs.js";
import { legacyHistory } from "./legacy-transcript.js";
import { atomicWriteFile } from "../tools/fs-atomic.js";
import { systemErrorMeaning } from "../tools/errno.js";
import { fileType, withWalk } from "../tools/safe-fs.js";
import { readRegular } from "../tools/safe-fs-ops.js";

const compactionRecord = z.object({
  at: z.string(),
  folded: z.int(),
  kept: z.int(),
  summaryChars: z.int(),
  failed: z.boolean(),
  focus: z.optional(z.string()),
});

/** A session's fields, with its messages and history items read as `message` and `item`: checked in full, or left unread. */
const sessionFields = <M extends z.ZodMiniType, I extends z.ZodMiniType>(message: M, item: I) => ({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  workspace: z.string(),
  model: z.string(),
  title: z.optional(z.string()),
  pinned: z.optional(z.boolean()),
  messages: z.array(message),
  /** Messages compaction folded out of `messages`, oldest first: kept for search and the record. */
  archive: z.optional(z.array(message)),
  /** One entry per compaction: when, how much, and whether the summary call worked. */
  compactions: z.optional(z.array(compactionRecord)),
  /**
   * The typed history the transcript is rebuilt from (src/protocol/history.ts), archived turns
   * included. Absent in files written before it existed: loadSession recovers one from the messages.
   */
  transcript: z.optional(z.array(item)),
});

/** Loose: fields a newer version adds survive this version's rewrites (see compat.ts). */
export const SessionFileSchema = z.looseObject({
  version: z.literal(1),
  ...sessionFields(ChatMessageSchema, HistoryItemSchema),
});

/** The same fields with the messages left unread and any version: what loadSession reads first. */
const EnvelopeSchema = z.looseObject({ version: z.int(), ...sessionFields(z.unknown(), z.unknown()) });

export type SessionData = z.infer<typeof SessionFileSchema>;

export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomId(6)}`;
}

export function newSession(workspace: string, model: string, id = newSessionId()): SessionData {
  const now = new Date().toISOString();
  return { version: 1, id, createdAt: now, updatedAt: now, workspace, model, messages: [], transcript: [] };
}

export const sessionFileFor = (dir: string, id: string) => join(dir, `${id}.json`);

export interface LoadedSession {
  data: SessionData;
  resumed: boolean;
  /** Set when the file existed but could not be used (or only in part); shown to the user. */
  warning?: string;
  /**
   * Set when the file holds what this version cannot write back (a newer version, an unknown role
   * or content part): `data` has what could be read, and the file must not be overwritten.
   */
  frozen?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Contract: never throws for a bad file. A missing file gives a new session; an invalid one is
 * renamed to `<file>.corrupt-<time>` (so nothing is lost) and a new session starts. A file that is
 * valid but holds things this version does not know is read as far as it can be and comes back
 * `frozen` (left in place, never overwritten); so does one that cannot be read at all (no
 * permission, a symlink, a folder, a FIFO) or an invalid one that cannot be set aside.
 */
export async function loadSession(file: string, workspace: string, model: string): Promise<LoadedSession> {
  let text: string;
  const idFromFile = file.replace(/^.*\//, "").replace(/\.json$/, "");
  const unread = (why: string): LoadedSession => ({
    data: newSession(workspace, model),
    resumed: false,
    frozen: `it cannot be read (${why})`,
  });
  try {
    // Named before it is opened: a link, a folder or a FIFO is never read, and never written over.
    const kind = await fs.lstat(file).then(
      (st) => (st.isFile() ? null : fileType(st)),
      () => null,
    );
    if (kind) return unread(`it is ${kind}, not a regular file`);
    // Through the no-follow walk: a link or a FIFO swapped in meanwhile is refused, not read.
    const read = await withWalk(resolve(file), { followFinal: false }, (w) => readRegular(w, file));
    if (read === null) return { data: newSession(workspace, model, idFromFile), resumed: false };
    text = read.data.toString("utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { data: newSession(workspace, model, idFromFile), resumed: false };
    return unread(systemErrorMeaning(error) ?? (error as Error).message);
  }
  let problem: string;
  try {
    const raw: unknown = JSON.parse(text);
    // Bare message arrays (the seed's format) are accepted too.
    const candidate = Array.isArray(raw)
      ? { ...newSession(workspace, model, idFromFile), transcript: undefined, messages: raw }
      : raw;
    const read = readEnvelope(candidate, newSession(workspace, model, idFromFile));
    if ("data" in read) return read;
    problem = read.problem;
  } catch (error) {
    problem = `not valid JSON (${(error as Error).message})`;
  }
  const movedTo = `${file}.corrupt-${Date.now()}`;
  try {
    await fs.rename(file, movedTo);
  } catch (error) {
    // Left where it is, so it must not be written over either.
    return {
      data: newSession(workspace, model),
      resumed: false,
      frozen: `it is not a valid session (${problem}) and could not be set aside (${systemErrorMeaning(error) ?? (error as Error).message})`,
    };
  }
  return {
    data: newSession(workspace, model, idFromFile),
    resumed: false,
    warning: `session ${file} is unreadable (${problem}); it was kept as ${movedTo} and a new session started`,
  };
}

function readEnvelope(candidate: unknown, fresh: SessionData): LoadedSession | { problem: string } {
  const version = isRecord(candidate) && typeof candidate.version === "number" ? candidate.version : undefined;
  const newer = version !== undefined && version > SESSION_VERSION;
  const envelope = EnvelopeSchema.safeParse(candidate);
  if (!envelope.success && !newer) {
    const issue = envelope.error.issues[0];
    return { problem: `${issue?.path.join(".") || "file"}: ${issue?.message ?? "invalid"}` };
  }
  if (envelope.success && envelope.data.version < SESSION_VERSION)
    return { problem: `version: unknown version ${envelope.data.version}` };
  const live = readMessages(envelope.success ? envelope.data.messages : []);
  const archive = envelope.success && envelope.data.archive ? readMessages(envelope.data.archive) : null;
  // A newer file's own fields mean nothing to this version: only the known ones are carried.
  const source: Meta = envelope.success ? envelope.data : fresh;
  const { version: _v, messages: _m, archive: _a, transcript: _t, ...rest } = source;
  const meta: Meta = newer ? pickKnown(rest) : rest;
  const rawHistory = envelope.success
    ? unpackHistory(envelope.data.transcript, envelope.data.archive, envelope.data.messages)
    : undefined;
  const history = Array.isArray(rawHistory) ? readHistory(rawHistory) : null;
  // A file from before typed history: its history is recovered from the text, once, and saved typed.
  const transcript = history?.items ?? legacyHistory(archive?.messages ?? [], live.messages, meta.compactions ?? []);
  const data: SessionData = {
    ...meta,
    version: 1,
    messages: live.messages,
    ...(archive ? { archive: archive.messages } : {}),
    transcript,
  };
  const unreadable = [...live.unreadable, ...(archive?.unreadable ?? []), ...(history?.unreadable ?? [])];
  if (!newer && unreadable.length === 0) return { data, resumed: data.messages.length > 0 };
  const what = newer
    ? `it was written by a newer NanoHermes (session file version ${version})`
    : `it holds ${unreadable[0]}${unreadable.length > 1 ? ` and ${unreadable.length - 1} more thing(s) this version cannot read` : ""}`;
  return { data, resumed: data.messages.length > 0, frozen: what };
}

/** The fields beside the messages (Omit would lose them to the loose schema's index signature). */
type Meta = Pick<
  SessionData,
  "id" | "createdAt" | "updatedAt" | "workspace" | "model" | "title" | "pinned" | "compactions"
> &
  Record<string, unknown>;

function pickKnown(meta: Meta): Meta {
  const { id, createdAt, updatedAt, workspace, model, title, pinned, compactions } = meta;
  return {
    id,
    createdAt,
    updatedAt,
    workspace,
    model,
    ...(title !== undefined ? { title } : {}),
    ...(pinned !== undefined ? { pinned } : {}),
    ...(compactions ? { compactions } : {}),
  };
}

/**
 * The session as written to disk, serialized now (a later change to `data` does not reach a save
 * already queued), with the unknown fields messages were read with and known secrets redacted.
 */
export function serializeSession(data: SessionData): string {
  const archive = data.archive?.map(withExtras);
  const messages = data.messages.map(withExtras);
  // Each prompt's and reply's text once: items name the message that holds it (history-refs.ts).
  const transcript = data.transcript && packHistory(data.transcript.map(withExtras), [...(archive ?? []), ...messages]);
  return redact(
    JSON.stringify({
      ...data,
      updatedAt: new Date().toISOString(),
      messages,
      ...(archive ? { archive } : {}),
      ...(transcript ? { transcript } : {}),
    }),
  );
}

/** Writes a serialized session atomically (temp file + rename, both made durable). */
export async function writeSessionText(file: string, text: string): Promise<void> {
  await fs.mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await atomicWriteFile(file, text, 0o600);
}

/** Writes the session atomically (temp file + rename), with known secrets redacted. */
export async function saveSession(file: string, data: SessionData): Promise<void> {
  data.updatedAt = new Date().toISOString();
  await writeSessionText(file, serializeSession(data));
}

export type { ChatMessage };

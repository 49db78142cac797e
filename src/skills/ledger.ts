// The skills ledger: one JSONL line per change to a skill (a curator transition, an agent's edit,
// an accepted proposal), with content-addressed copies of the files as they were, so any entry can
// be undone byte for byte (`nanohermes skills rollback ENTRY`). Kept in ~/.nanohermes/skills/.curator/.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { atomicWriteFile } from "../tools/fs-atomic.js";
import { randomId } from "../protocol/ids.js";
import * as z from "../protocol/zod.js";
import { agentRoot } from "./skill-store.js";

export const curatorDir = (home: string) => join(agentRoot(home), ".curator");
const ledgerFile = (home: string) => join(curatorDir(home), "ledger.jsonl");
const blobDir = (home: string) => join(curatorDir(home), "blobs");

/** A folder's files at one moment: relative path -> sha256 of its bytes (the blob's name). */
const SnapshotSchema = z.object({ dir: z.string(), files: z.record(z.string(), z.string()) });
export type Snapshot = z.infer<typeof SnapshotSchema>;

export const LedgerEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** Who made the change. */
  actor: z.enum(["curator", "agent", "user"]),
  action: z.enum(["stale", "archive", "restore", "change", "create", "rollback"]),
  skill: z.string(),
  /** The skill before the change (null: it did not exist); for `stale`, unchanged files. */
  before: z.nullable(SnapshotSchema),
  /** After the change (null: the folder is gone from there, e.g. moved to the archive). */
  after: z.nullable(SnapshotSchema),
  /** The curator state before and after (`stale` and its undo). */
  state: z.optional(z.object({ from: z.string(), to: z.string() })),
  note: z.optional(z.string()),
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Stores `bytes` under their hash (once) and returns the hash. */
export async function putBlob(home: string, bytes: Uint8Array): Promise<string> {
  const hash = sha256(bytes);
  const file = join(blobDir(home), hash);
  if (!existsSync(file)) {
    mkdirSync(blobDir(home), { recursive: true, mode: 0o700 });
    await atomicWriteFile(file, bytes, 0o600);
  }
  return hash;
}

/** A blob's bytes, checked against its name: a damaged copy is an error, never restored. */
export function getBlob(home: string, hash: string): Buffer {
  const bytes = readFileSync(join(blobDir(home), hash));
  if (sha256(bytes) !== hash) throw new Error(`the ledger's copy ${hash.slice(0, 12)} is damaged`);
  return bytes;
}

/** Copies every file of `dir` (relative paths in `files`) into the blob store. */
export async function snapshot(home: string, dir: string, files: readonly string[]): Promise<Snapshot> {
  const out: Record<string, string> = {};
  for (const rel of files) out[rel] = await putBlob(home, readFileSync(join(dir, rel)));
  return { dir, files: out };
}

/** Appends one entry (a new id and time) and returns it. */
export async function appendEntry(
  home: string,
  entry: Omit<LedgerEntry, "id" | "at">,
  now = new Date(),
): Promise<LedgerEntry> {
  const full: LedgerEntry = {
    id: `${now.toISOString().slice(0, 10).replace(/-/g, "")}-${randomId(6)}`,
    at: now.toISOString(),
    ...entry,
  };
  mkdirSync(curatorDir(home), { recursive: true, mode: 0o700 });
  await appendFile(ledgerFile(home), `${JSON.stringify(full)}\n`, { mode: 0o600 });
  return full;
}

/** Every entry, oldest first; a damaged line is skipped (the rest stays usable). */
export async function readLedger(home: string): Promise<LedgerEntry[]> {
  let text: string;
  try {
    text = await readFile(ledgerFile(home), "utf8");
  } catch {
    return [];
  }
  const out: LedgerEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const parsed = LedgerEntrySchema.safeParse(JSON.parse(line));
      if (parsed.success) out.push(parsed.data);
    } catch {
      // a torn last line after a crash: skipped
    }
  }
  return out;
}

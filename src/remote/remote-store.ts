// The remote tasks a local UI shows (added with /remote), kept in ~/.nanohermes/remotes.json so
// they are still listed after a restart: where the daemon is, which token file, which session.
// Tokens themselves are never written here.
import { promises as fs } from "node:fs";
import { join } from "node:path";
import * as z from "../protocol/zod.js";
import { atomicWriteFile } from "../tools/fs-atomic.js";

const EntrySchema = z.object({
  id: z.string(),
  address: z.string(),
  tokenFile: z.nullable(z.string()),
  session: z.string(),
  title: z.string(),
  workspace: z.string(),
  updatedAt: z.string(),
});

export type RemoteEntry = z.infer<typeof EntrySchema>;

export const remotesPath = (home: string) => join(home, "remotes.json");

/** Contract: never throws; a missing or damaged file reads as empty. */
export async function readRemotes(home: string): Promise<RemoteEntry[]> {
  try {
    const parsed = z.array(EntrySchema).safeParse(JSON.parse(await fs.readFile(remotesPath(home), "utf8")));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

let queue: Promise<unknown> = Promise.resolve();

/** Read, change, write atomically (mode 600); changes from this process are applied in order. */
export function updateRemotes(home: string, change: (entries: RemoteEntry[]) => RemoteEntry[]): Promise<void> {
  const next = queue.then(async () => {
    const entries = change(await readRemotes(home)).slice(0, 100);
    await fs.mkdir(home, { recursive: true, mode: 0o700 });
    await atomicWriteFile(remotesPath(home), JSON.stringify(entries, null, 1), 0o600);
  });
  queue = next.catch(() => {});
  return next;
}

// `nanohermes skills rollback ENTRY`: undoes one ledger entry. Files come back from the ledger's
// content-addressed copies and are checked against their hashes, so a restored skill is the same
// byte for byte; anything the undo would replace is set aside in the archive, never deleted.
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { atomicWriteFile } from "../tools/fs-atomic.js";
import { takeCuratorLock } from "./curator-lock.js";
import { readCuratorState, writeCuratorState } from "./curator.js";
import { appendEntry, getBlob, readLedger, sha256, type LedgerEntry, type Snapshot } from "./ledger.js";
import { archiveFolder, archiveRoot, skillFiles } from "./skill-store.js";

export class RollbackError extends Error {}

/** Whether the folder holds exactly these files with these hashes (extra hidden files aside). */
function matches(snap: Snapshot): boolean {
  if (!existsSync(snap.dir)) return false;
  const files = skillFiles(snap.dir);
  const want = Object.keys(snap.files).sort();
  if (files.length !== want.length || files.some((f, i) => f !== want[i])) return false;
  return want.every((rel) => sha256(readFileSync(join(snap.dir, rel))) === snap.files[rel]);
}

/** Undoes entry `id`; returns what was done, in one line. */
export async function rollback(home: string, id: string): Promise<{ entry: LedgerEntry; done: string }> {
  const release = takeCuratorLock(home, "rollback");
  try {
    const ledger = await readLedger(home);
    const entry = ledger.find((e) => e.id === id);
    if (!entry)
      throw new RollbackError(
        `no ledger entry "${id}" (nanohermes skills list --json shows the ledger's newest entries)`,
      );
    if (entry.action === "rollback")
      throw new RollbackError(`${id} is itself a rollback; roll back the entry it undid instead`);
    if (ledger.some((e) => e.action === "rollback" && e.note === `rollback of ${id}`))
      throw new RollbackError(`${id} was already rolled back`);
    const done = await undo(home, entry);
    await appendEntry(home, {
      actor: "user",
      action: "rollback",
      skill: entry.skill,
      before: entry.after,
      after: entry.before,
      note: `rollback of ${id}`,
    });
    return { entry, done };
  } finally {
    release();
  }
}

async function undo(home: string, entry: LedgerEntry): Promise<string> {
  const { before, after } = entry;
  switch (entry.action) {
    case "stale": {
      const state = readCuratorState(home);
      if (entry.state?.to === "stale") delete state.stale[entry.skill];
      else state.stale[entry.skill] = new Date().toISOString();
      await writeCuratorState(home, state);
      return `"${entry.skill}" is ${entry.state?.from ?? "active"} again`;
    }
    case "archive": {
      if (!before || !after) throw new RollbackError("this entry has no snapshot to restore");
      if (existsSync(before.dir)) throw new RollbackError(`${before.dir} exists again; move it away first`);
      if (matches(after)) {
        mkdirSync(dirname(before.dir), { recursive: true });
        renameSync(after.dir, before.dir);
      } else {
        // The archived copy changed or went away: the ledger's copies rebuild the skill.
        await writeFiles(home, before);
      }
      if (!matches(before))
        throw new RollbackError(`restored ${before.dir} but its files differ from the ledger's copies`);
      return `restored "${entry.skill}" to ${before.dir}`;
    }
    case "create":
    case "restore": {
      if (!after) throw new RollbackError("this entry has no snapshot");
      if (!existsSync(after.dir)) throw new RollbackError(`${after.dir} is gone already`);
      const moved = archiveFolder(home, after.dir);
      return `archived "${entry.skill}" again (${moved})`;
    }
    case "change": {
      if (!before || !after) throw new RollbackError("this entry has no snapshot");
      for (const [rel, hash] of Object.entries(after.files)) {
        const file = join(after.dir, rel);
        if (!existsSync(file) || sha256(readFileSync(file)) !== hash)
          throw new RollbackError(
            `${rel} of "${entry.skill}" changed after ${entry.id}; roll back the later entries first`,
          );
      }
      // What the change added (a new supporting file) is set aside; what it replaced comes back.
      for (const rel of Object.keys(after.files)) {
        if (rel in before.files) continue;
        const aside = join(archiveRoot(home), ".removed", `${entry.skill}-${Date.now()}`, rel);
        mkdirSync(dirname(aside), { recursive: true, mode: 0o700 });
        renameSync(join(after.dir, rel), aside);
      }
      await writeFiles(home, before);
      return `"${entry.skill}": ${Object.keys(before.files).join(", ") || "the added file"} as before ${entry.id}`;
    }
    case "rollback":
      throw new RollbackError("a rollback is not rolled back");
  }
}

async function writeFiles(home: string, snap: Snapshot): Promise<void> {
  for (const [rel, hash] of Object.entries(snap.files)) {
    const file = join(snap.dir, rel);
    mkdirSync(dirname(file), { recursive: true });
    await atomicWriteFile(file, getBlob(home, hash), 0o644);
  }
}

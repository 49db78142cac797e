// The curator: deterministic lifecycle transitions of the agent's own skills (active -> stale ->
// archived, by days since last use). It never touches the user's, a hub's, the workspace's,
// external or pinned skills; its first run only says what it would do; every change it makes is in
// the ledger with copies of what it moved, so `skills rollback` undoes it. No model is involved.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFile } from "../tools/fs-atomic.js";
import { takeCuratorLock } from "./curator-lock.js";
import { appendEntry, curatorDir, readLedger, snapshot, type LedgerEntry } from "./ledger.js";
import { archiveFolder, ownedSkills, skillFiles } from "./skill-store.js";
import type { SkillRoots } from "./skills.js";

const DAY = 24 * 60 * 60 * 1000;

export interface CuratorOptions {
  roots: SkillRoots;
  /** The seed's 30 and 90 days by default. */
  staleAfterDays: number;
  archiveAfterDays: number;
  /** Only report; the first run ever is one whatever this says. */
  dryRun: boolean;
  /** Skill -> last use (epoch ms) from the evidence table (skill_events). */
  lastUse: ReadonlyMap<string, number>;
  now?: number;
}

export interface Transition {
  skill: string;
  from: "active" | "stale";
  to: "active" | "stale" | "archived";
  idleDays: number;
  /** The ledger entry, when the change was made. */
  entry?: string;
}

export interface CuratorReport {
  /** Nothing was changed. */
  dryRun: boolean;
  /** This was the first run: a dry run whatever was asked. */
  firstRun: boolean;
  transitions: Transition[];
  /** Skills the curator leaves alone, and why. */
  skipped: { skill: string; why: string }[];
}

export interface CuratorState {
  firstRunDone: boolean;
  lastRunAt?: string;
  /** Stale skills and since when (ISO). */
  stale: Record<string, string>;
}

const stateFile = (home: string) => join(curatorDir(home), "state.json");

export function readCuratorState(home: string): CuratorState {
  try {
    const raw = JSON.parse(readFileSync(stateFile(home), "utf8")) as Partial<CuratorState>;
    return {
      firstRunDone: raw.firstRunDone === true,
      ...(typeof raw.lastRunAt === "string" ? { lastRunAt: raw.lastRunAt } : {}),
      stale: raw.stale && typeof raw.stale === "object" ? raw.stale : {},
    };
  } catch {
    return { firstRunDone: false, stale: {} };
  }
}

export async function writeCuratorState(home: string, state: CuratorState): Promise<void> {
  await atomicWriteFile(stateFile(home), `${JSON.stringify(state, null, 2)}\n`, 0o600);
}

/** Ledger actions after which a skill counts as used (its clock restarts). */
const USED_BY: LedgerEntry["action"][] = ["create", "change", "restore", "rollback"];

/** When each skill was last used: evidence, the ledger's writes, and its SKILL.md's last change. */
function lastUsed(name: string, file: string, opts: CuratorOptions, ledger: readonly LedgerEntry[]): number {
  let at = opts.lastUse.get(name) ?? 0;
  try {
    at = Math.max(at, statSync(file).mtimeMs);
  } catch {
    // unreadable: judged by the evidence alone
  }
  for (const e of ledger) if (e.skill === name && USED_BY.includes(e.action)) at = Math.max(at, Date.parse(e.at));
  return at;
}

/** One pass. Throws CuratorBusy when another run holds the lock (nothing is changed then). */
export async function curate(opts: CuratorOptions): Promise<CuratorReport> {
  const home = opts.roots.home;
  const release = takeCuratorLock(home, "curator run");
  try {
    const now = opts.now ?? Date.now();
    const state = readCuratorState(home);
    const firstRun = !state.firstRunDone;
    const dryRun = opts.dryRun || firstRun;
    const ledger = await readLedger(home);
    const transitions: Transition[] = [];
    const skipped: CuratorReport["skipped"] = [];
    for (const owned of ownedSkills(opts.roots)) {
      const name = owned.skill.name;
      if (owned.readOnly) {
        skipped.push({
          skill: name,
          why:
            owned.skill.source === "external"
              ? "external"
              : owned.origin === "hub"
                ? "hub"
                : owned.skill.source === "workspace"
                  ? "workspace"
                  : "not agent-written",
        });
        continue;
      }
      if (owned.pinned) {
        skipped.push({ skill: name, why: "pinned" });
        continue;
      }
      const idleDays = Math.floor((now - lastUsed(name, owned.skill.file, opts, ledger)) / DAY);
      const from = state.stale[name] ? "stale" : "active";
      const to = idleDays >= opts.archiveAfterDays ? "archived" : idleDays >= opts.staleAfterDays ? "stale" : "active";
      if (to === from) continue;
      const t: Transition = { skill: name, from, to, idleDays };
      transitions.push(t);
      if (dryRun) continue;
      if (to === "archived") {
        const before = await snapshot(home, owned.skill.dir, skillFiles(owned.skill.dir));
        const moved = archiveFolder(home, owned.skill.dir, now);
        delete state.stale[name];
        t.entry = (
          await appendEntry(home, {
            actor: "curator",
            action: "archive",
            skill: name,
            before,
            after: { dir: moved, files: before.files },
            state: { from, to },
            note: `unused for ${idleDays} days`,
          })
        ).id;
      } else {
        if (to === "stale") state.stale[name] = new Date(now).toISOString();
        else delete state.stale[name];
        t.entry = (
          await appendEntry(home, {
            actor: "curator",
            action: "stale",
            skill: name,
            before: null,
            after: null,
            state: { from, to },
            note: to === "stale" ? `unused for ${idleDays} days` : "used again",
          })
        ).id;
      }
    }
    // Stale marks of skills that are gone (archived by hand, removed by the user) are dropped.
    const live = new Set(ownedSkills(opts.roots).map((o) => o.skill.name));
    if (!dryRun) for (const name of Object.keys(state.stale)) if (!live.has(name)) delete state.stale[name];
    await writeCuratorState(home, { ...state, firstRunDone: true, lastRunAt: new Date(now).toISOString() });
    return { dryRun, firstRun, transitions, skipped };
  } finally {
    release();
  }
}

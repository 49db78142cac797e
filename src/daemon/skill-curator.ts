// The daemon runs the skills curator when it is idle (issue 30, item 6), as Hermes does: no turn
// for two hours and a week since the last pass. The curator's first pass is a dry run whatever
// asks for it; each pass is reported in one line. Its code loads with the first pass.
import { homedir } from "node:os";
import { join } from "node:path";
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";

/** The seed's Hermes defaults: a weekly pass, after two idle hours. */
export const CURATOR_INTERVAL_MS = 7 * 24 * 60 * 60 * 1000;
export const CURATOR_MIN_IDLE_MS = 2 * 60 * 60 * 1000;
const CHECK_EVERY_MS = 10 * 60 * 1000;

/** Whether a pass is due: idle long enough, and the last pass (if any) an interval ago. Pure. */
export function curatorDue(opts: { now: number; lastBusyAt: number; lastRunAt: number | null }): boolean {
  if (opts.now - opts.lastBusyAt < CURATOR_MIN_IDLE_MS) return false;
  return opts.lastRunAt === null || opts.now - opts.lastRunAt >= CURATOR_INTERVAL_MS;
}

/** One pass, as `nanohermes skills curate` makes it; returns the line to report. Never throws. */
export async function curatorPass(settings: Settings): Promise<string> {
  try {
    const [{ curate }, { SkillEvents }] = await Promise.all([
      import("../skills/curator.js"),
      import("../session/skill-events.js"),
    ]);
    const events = await SkillEvents.open(join(settings.home, "sessions.db"));
    try {
      const report = await curate({
        roots: { workspace: settings.workspace, home: settings.home, userHome: homedir() },
        staleAfterDays: settings.skills.staleAfterDays,
        archiveAfterDays: settings.skills.archiveAfterDays,
        dryRun: false,
        lastUse: events.lastUse(),
      });
      for (const t of report.transitions)
        if (t.entry && t.to === "archived") events.record([{ skill: t.skill, event: "archived", detail: t.entry }]);
      const what = report.transitions.map((t) => `${t.skill} ${t.to}`).join(", ") || "nothing to change";
      // skills.consolidate (opt-in): the model's merges wait as proposals; nothing else changes.
      let merged = "";
      if (settings.skills.consolidate) {
        const { consolidateFor, consolidationSummary } = await import("../agent/skill-consolidate.js");
        const roots = { workspace: settings.workspace, home: settings.home, userHome: homedir() };
        merged = `; ${consolidationSummary(await consolidateFor(settings, roots))}`;
      }
      return `skills curator${report.dryRun ? " (first run: dry run, nothing changed)" : ""}: ${what}${merged}`;
    } finally {
      events.close();
    }
  } catch (error) {
    log("warn", "skills curator pass", error);
    return `skills curator: ${(error as Error).message}`;
  }
}

/** Checks every ten minutes (the timer does not keep the process alive); returns the stop. */
export function startSkillCurator(opts: {
  settings: Settings;
  running: () => number;
  report(line: string): void;
}): () => void {
  let lastBusyAt = Date.now();
  let passing = false;
  const timer = setInterval(() => {
    if (opts.running() > 0) lastBusyAt = Date.now();
    if (passing) return;
    void (async () => {
      const { readCuratorState } = await import("../skills/curator.js");
      const last = readCuratorState(opts.settings.home).lastRunAt;
      if (!curatorDue({ now: Date.now(), lastBusyAt, lastRunAt: last ? Date.parse(last) : null })) return;
      passing = true;
      try {
        opts.report(await curatorPass(opts.settings));
      } finally {
        passing = false;
      }
    })().catch((error: unknown) => log("warn", "skills curator check", error));
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

// The engine's side of skills around a turn: the relevant-skills hint for each prompt, the evidence
// (listed, hinted) written after the turn, and the background review that may turn a turn worth
// learning from into a proposal. Loaded with the first agent of a run that has skills or skill_manage.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { log } from "../config/log.js";
import type { SkillSettings } from "../config/schema.js";
import type { BusEvent } from "../protocol/events.js";
import type { SkillRoots, Skill } from "../skills/skills.js";
import type { SkillHooks, TurnRecord } from "./agent-types.js";
import type { ModelClient } from "./model-client.js";
import type { SkillEvidence } from "./skill-evidence.js";

/** What the process knows about skills (extensions.ts): the live list, refreshed after a change. */
export interface SkillState {
  roots: SkillRoots;
  live(): Skill[];
  refresh(): void;
  evidence: SkillEvidence;
}

export interface SkillHookOptions {
  state: SkillState;
  settings: SkillSettings;
  client: ModelClient;
  /** The auxiliary model the review asks (skills.reviewModel, else the task's). */
  reviewModel: () => string;
  taskId: string;
  emit(event: BusEvent): void;
}

/** Hints name at most this many skills. */
const HINTED = 3;
/** A review gets this long before it is given up (it runs after the turn, never in it). */
const REVIEW_TIMEOUT_MS = 120_000;

/**
 * Why a finished turn is worth a review, or null. Only a completed turn that did not already write a
 * skill: the user asked to remember something; the user corrected it while it ran (a steer); a
 * denied call was followed by one that worked; or it used several tools and recovered from an error.
 */
export function reviewReason(turn: TurnRecord): string | null {
  if (turn.reason !== "completed") return null;
  const tools = turn.items.flatMap((i) => (i.type === "tool" ? [i] : []));
  if (tools.some((t) => t.name === "skill_manage")) return null;
  if (/\bremember (?:this|that|how)\b|记住/i.test(turn.prompt)) return "the user asked to remember this";
  const okAfter = (i: number) => tools.slice(i + 1).some((t) => t.status === "ok");
  const denied = tools.findIndex((t) => t.status === "denied");
  if (denied >= 0 && okAfter(denied)) return "a denied call was followed by one that worked";
  if (turn.items.some((i) => i.type === "steer") && tools.length > 0) return "the user corrected the turn while it ran";
  const failed = tools.findIndex((t) => t.status === "error");
  if (tools.length >= 3 && failed >= 0 && okAfter(failed))
    return "the turn used several tools and recovered from an error";
  return null;
}

export function skillHooks(opts: SkillHookOptions): SkillHooks {
  const { state } = opts;
  const listed = new Set<string>();
  let queue: Promise<void> = Promise.resolve();
  const abort = new AbortController();
  return {
    async hint(prompt, sessionId) {
      try {
        const live = state.live();
        if (!listed.has(sessionId)) {
          listed.add(sessionId);
          for (const s of live) state.evidence.add({ skill: s.name, event: "listed", sessionId });
        }
        if (!opts.settings.hints) return "";
        // Nothing to match (no skills, no archive): the ranking code is never loaded.
        if (live.length === 0 && !existsSync(join(state.roots.home, "skills", ".archive"))) return "";
        const [{ relevantSkills }, { archivedSkills }] = await Promise.all([
          import("../skills/skill-rank.js"),
          import("../skills/skill-store.js"),
        ]);
        const names = relevantSkills(prompt, live, HINTED);
        // Archived skills stay findable: a match is named so the model can bring one back.
        const archived = relevantSkills(prompt, archivedSkills(state.roots.home), 1).filter(
          (n) => !live.some((s) => s.name === n),
        );
        for (const name of names) state.evidence.add({ skill: name, event: "hinted", sessionId });
        const parts: string[] = [];
        if (names.length > 0) parts.push(`relevant skills: ${names.join(", ")} (load with the skill tool)`);
        if (archived.length > 0)
          parts.push(`archived skill that matches: ${archived[0]} (skill_manage restore brings it back)`);
        return parts.join("; ");
      } catch (error) {
        log("warn", "skill hint failed", error);
        return "";
      }
    },
    afterTurn(turn) {
      const why = opts.settings.review && opts.settings.manage ? reviewReason(turn) : null;
      queue = queue.then(async () => {
        await state.evidence.flush();
        if (!why) return;
        try {
          const { reviewTurn } = await import("./skill-review.js");
          const proposal = await reviewTurn({
            turn,
            why,
            client: opts.client,
            model: opts.reviewModel(),
            roots: state.roots,
            live: state.live(),
            signal: AbortSignal.any([AbortSignal.timeout(REVIEW_TIMEOUT_MS), abort.signal]),
          });
          if (proposal) {
            opts.emit({
              type: "notice",
              taskId: opts.taskId,
              level: "info",
              text: `skill proposal ${proposal.id}: ${proposal.kind} ${proposal.name} (${why}); review it in the Skills tab of the results pane or with nanohermes skills proposals`,
            });
            // The Skills tab follows the waiting list: the new one shows without a restart.
            const { announceProposals } = await import("./skill-proposal-commands.js");
            await announceProposals(state.roots.home, opts.emit);
          }
        } catch (error) {
          log("warn", "skill review failed", error);
        }
      });
    },
    async settle(waitMs) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([queue, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
      abort.abort();
      await state.evidence.flush();
    },
  };
}

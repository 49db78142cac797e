// Consolidation (issue 30, item 6; opt-in): the auxiliary model reads the agent's own skills and
// groups those that cover one kind of task. Each group becomes proposals, never a change: a whole
// rewrite of the skill that stays (the umbrella) and an archive of each skill it absorbs. They wait
// in the Skills tab and `nanohermes skills proposals` like the review's, checked the same way.
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";
import { saveProposal, type Proposal } from "../skills/proposals.js";
import { checkSkillText, withAgentOrigin } from "../skills/skill-rules.js";
import { ownedSkills, readSkillText } from "../skills/skill-store.js";
import { splitFrontmatter, type SkillRoots } from "../skills/skills.js";
import type { ModelClient } from "./model-client.js";
import { firstJsonObject } from "./reply-json.js";

export interface ConsolidateOptions {
  roots: SkillRoots;
  client: ModelClient;
  model: string;
  signal: AbortSignal;
}

export interface ConsolidateReport {
  /** The agent's own, unpinned skills the model was shown. */
  considered: string[];
  proposals: Proposal[];
  /** Groups the model proposed that failed a check, and why (nothing was saved for them). */
  dropped: string[];
  /** Why the model gave nothing usable (it failed, or did not answer with JSON); null when it did. */
  failed: string | null;
}

/** A consolidation request gets this long (it runs outside any turn). */
const CONSOLIDATE_TIMEOUT_MS = 180_000;
/** Characters of each skill's body shown to the model, and of all of them together. */
const BODY_CHARS = 1_500;
const ALL_CHARS = 40_000;

const INSTRUCTIONS = `You maintain a coding agent's library of skills (SKILL.md files: how to do one kind of task). Some of them overlap: several narrow skills for one kind of task. Find groups of two or more skills that should be one, and write the merged skill.
Answer with one JSON object and nothing else:
{"groups": [{"into": "name-of-the-skill-that-stays", "absorb": ["other-name", "..."], "content": "the whole merged SKILL.md of the skill that stays, frontmatter included (its name unchanged)", "reason": "one short line"}]}
"into" and every name in "absorb" must be skills listed below. Merge only skills that truly cover the same kind of task; keep every step that matters; keep it short. When nothing should be merged, answer {"groups": []}.`;

const oneLine = (text: string, max: number) => {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/**
 * Contract: never throws for what the model says (a bad group is dropped with a reason); rejects only
 * when a proposal cannot be saved. Nothing live changes: the output is proposals.
 */
export async function consolidateSkills(opts: ConsolidateOptions): Promise<ConsolidateReport> {
  const mine = ownedSkills(opts.roots).filter((o) => o.readOnly === null && !o.pinned);
  const considered = mine.map((o) => o.skill.name);
  const report: ConsolidateReport = { considered, proposals: [], dropped: [], failed: null };
  if (mine.length < 2) return report;
  let listing = "";
  for (const o of mine) {
    const body = splitFrontmatter(readSkillText(o.skill.file) ?? "").body;
    const entry = `## ${o.skill.name}\ndescription: ${oneLine(o.skill.description, 300)}\n${body.slice(0, BODY_CHARS)}${body.length > BODY_CHARS ? "\n[cut]" : ""}\n\n`;
    if (listing.length + entry.length > ALL_CHARS) break;
    listing += entry;
  }
  const outcome = await opts.client.complete(
    {
      model: opts.model,
      messages: [
        { role: "system", content: INSTRUCTIONS },
        { role: "user", content: `The agent's skills:\n\n${listing}` },
      ],
      tools: [],
      stream: false,
      thinking: "off",
      signal: opts.signal,
    },
    { onText: () => {}, onReasoning: () => {} },
  );
  if (!outcome.ok) return { ...report, failed: `the model failed: ${outcome.error.message}` };
  const answer = firstJsonObject(outcome.reply.content);
  const groups = answer?.groups;
  if (!Array.isArray(groups)) return { ...report, failed: "the model did not answer with a groups list" };
  const taken = new Set<string>();
  for (const raw of groups) {
    const g = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
    const into = typeof g.into === "string" ? g.into : "";
    const absorb = Array.isArray(g.absorb) ? g.absorb.filter((n): n is string => typeof n === "string") : [];
    const content = typeof g.content === "string" ? g.content : "";
    const reason = oneLine(typeof g.reason === "string" ? g.reason : "they cover one kind of task", 200);
    const drop = (why: string) => {
      report.dropped.push(`${into || "?"} <- ${absorb.join(", ") || "?"}: ${why}`);
      log("info", `skill consolidation: group dropped (${why})`);
    };
    const names = [into, ...absorb];
    const unknown = names.find((n) => !considered.includes(n));
    if (unknown !== undefined) {
      drop(`"${unknown}" is not one of the agent's own unpinned skills`);
      continue;
    }
    if (absorb.length === 0 || new Set(names).size !== names.length) {
      drop("a group needs a skill that stays and at least one other it absorbs");
      continue;
    }
    const twice = names.find((n) => taken.has(n));
    if (twice !== undefined) {
      drop(`"${twice}" is already in another group`);
      continue;
    }
    const checked = checkSkillText(content, into);
    if ("problem" in checked) {
      drop(checked.problem);
      continue;
    }
    for (const n of names) taken.add(n);
    const why = `consolidation: ${reason}`;
    report.proposals.push(
      await saveProposal(opts.roots.home, {
        sessionId: "",
        kind: "edit",
        name: into,
        content: withAgentOrigin(content),
        reason: `${why} (absorbs ${absorb.join(", ")})`,
      }),
    );
    for (const name of absorb)
      report.proposals.push(
        await saveProposal(opts.roots.home, {
          sessionId: "",
          kind: "archive",
          name,
          absorbed_into: into,
          reason: `${why} (absorbed into ${into})`,
        }),
      );
  }
  return report;
}

/** A consolidation with the settings' client and review model (the curator's command and the daemon's pass). */
export async function consolidateFor(settings: Settings, roots: SkillRoots): Promise<ConsolidateReport> {
  const { createModelClient } = await import("./providers/factory.js");
  return consolidateSkills({
    roots,
    client: createModelClient(settings),
    model: settings.skills.reviewModel ?? settings.model,
    signal: AbortSignal.timeout(CONSOLIDATE_TIMEOUT_MS),
  });
}

/** One line a person reads: how many proposals, and what was dropped or failed. */
export function consolidationSummary(r: ConsolidateReport): string {
  if (r.failed) return `consolidation: nothing proposed (${r.failed})`;
  if (r.considered.length < 2) return "consolidation: fewer than two agent skills, nothing to group";
  const made =
    r.proposals.length === 0
      ? "no overlapping skills"
      : `${r.proposals.length} proposal${r.proposals.length === 1 ? "" : "s"} (${r.proposals.map((p) => `${p.kind} ${p.name}`).join(", ")}); review them with nanohermes skills proposals`;
  return `consolidation: ${made}${r.dropped.length ? `; dropped: ${r.dropped.join("; ")}` : ""}`;
}

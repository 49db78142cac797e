// Answering a skill proposal: accept (applied through skill_manage's checks, then filed under
// accepted/), reject (filed under rejected/) or edit (the user's text replaces what it would write).
// One implementation for `nanohermes skills accept|reject|edit` and the UI's Skills tab (the engine
// answers its bus commands with these). Each answer is a value: what happened, or why not.
import { ToolError } from "../tools/define.js";
import {
  fileProposal,
  findProposal,
  pendingProposals,
  proposalDiff,
  proposedText,
  reviseProposal,
  type Proposal,
} from "./proposals.js";
import { planSkillChange } from "./skill-manage-run.js";
import type { SkillChangeEvent, SkillManageArgs } from "./skill-manage.js";
import { checkSkillText, withAgentOrigin } from "./skill-rules.js";
import type { SkillRoots } from "./skills.js";

/** An answer for the evidence table (skill_events); it never throws into the answer. */
export type RecordAnswer = (event: {
  skill: string;
  event: SkillChangeEvent | "proposal_accepted" | "proposal_rejected";
  detail?: string;
}) => void;

/** `text`: one line for the user; `result`: what skill_manage said of an accepted change. */
export type Answer = { ok: true; text: string; proposal: Proposal; result?: string } | { ok: false; error: string };

const missing = (id: string): Answer => ({
  ok: false,
  error: `no waiting proposal "${id}" (nanohermes skills proposals lists them)`,
});

/** Applies the proposal as skill_manage would; a change that fails its checks leaves it waiting. */
export async function acceptProposal(roots: SkillRoots, id: string, record: RecordAnswer): Promise<Answer> {
  const proposal = findProposal(roots.home, id);
  if (!proposal) return missing(id);
  const args: SkillManageArgs =
    proposal.kind === "patch"
      ? {
          action: "patch",
          name: proposal.name,
          old_string: proposal.old_string ?? "",
          new_string: proposal.new_string ?? "",
        }
      : proposal.kind === "archive"
        ? {
            action: "archive",
            name: proposal.name,
            ...(proposal.absorbed_into ? { absorbed_into: proposal.absorbed_into } : {}),
          }
        : { action: proposal.kind, name: proposal.name, content: proposal.content ?? "" };
  let result: string;
  try {
    const plan = await planSkillChange(args, { roots, record }, new AbortController().signal, undefined);
    result = (await plan.apply(undefined)).forModel;
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return {
      ok: false,
      error: `${proposal.id} cannot be applied: ${error.message}; it stays waiting (reject it to drop it)`,
    };
  }
  fileProposal(roots.home, proposal.id, "accepted");
  record({ skill: proposal.name, event: "proposal_accepted", detail: proposal.id });
  return { ok: true, text: `accepted ${proposal.id}: ${result}`, proposal, result };
}

/** Files the proposal under rejected/ (kept, never deleted). */
export function rejectProposal(home: string, id: string, record: RecordAnswer): Answer {
  const proposal = findProposal(home, id);
  if (!proposal) return missing(id);
  fileProposal(home, proposal.id, "rejected");
  record({ skill: proposal.name, event: "proposal_rejected", detail: proposal.id });
  return {
    ok: true,
    text: `dropped ${proposal.id} (${proposal.kind} ${proposal.name}); kept in .proposals/rejected/`,
    proposal,
  };
}

/** The user's whole SKILL.md replaces what the proposal would write, when it passes the checks. */
export async function editProposal(home: string, id: string, text: string): Promise<Answer> {
  const proposal = findProposal(home, id);
  if (!proposal) return missing(id);
  if (proposal.kind === "archive")
    return {
      ok: false,
      error: `${proposal.id} archives ${proposal.name}: there is no text to edit (accept or drop it)`,
    };
  const checked = checkSkillText(text, proposal.name);
  if ("problem" in checked)
    return { ok: false, error: `the edited SKILL.md is refused: ${checked.problem}; ${proposal.id} is unchanged` };
  const revised = await reviseProposal(home, proposal, withAgentOrigin(text));
  return { ok: true, text: `${proposal.id} now writes your text`, proposal: revised };
}

/** What the UI shows of each waiting proposal (the `proposals.updated` event's list). */
export function proposalViews(home: string): {
  id: string;
  kind: Proposal["kind"];
  name: string;
  reason: string;
  createdAt: string;
  diff: string;
  text: string;
}[] {
  return pendingProposals(home).map((p) => ({
    id: p.id,
    kind: p.kind,
    name: p.name,
    reason: p.reason,
    createdAt: p.createdAt,
    diff: proposalDiff(home, p),
    text: proposedText(home, p).after,
  }));
}

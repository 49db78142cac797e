// Skill proposals: what the background review suggests, waiting for the user. One JSON file each in
// ~/.nanohermes/skills/.proposals/; accepting applies it through the same checks as skill_manage,
// rejecting moves it to rejected/. Nothing is deleted and nothing is live until accepted.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { createTwoFilesPatch } from "diff";
import { randomId } from "../protocol/ids.js";
import * as z from "../protocol/zod.js";
import { atomicWriteFile } from "../tools/fs-atomic.js";
import { agentRoot, readSkillText, SKILL_FILE } from "./skill-store.js";

export const proposalsDir = (home: string) => join(agentRoot(home), ".proposals");

export const ProposalSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  /** The session whose turn it was learned from ("" when unknown). */
  sessionId: z.string(),
  /**
   * edit: a whole rewrite (a patch the user rewrote with `nanohermes skills edit ID`, or the
   * umbrella skill of a consolidation); archive: a skill a consolidation folds into another.
   */
  kind: z.enum(["create", "patch", "edit", "archive"]),
  name: z.string(),
  /** create / edit: the whole SKILL.md. */
  content: z.optional(z.string()),
  /** patch: exact text of SKILL.md and its replacement. */
  old_string: z.optional(z.string()),
  new_string: z.optional(z.string()),
  /** archive: the skill that absorbs it. */
  absorbed_into: z.optional(z.string()),
  /** Why the reviewer proposes it (one line). */
  reason: z.string(),
});
export type Proposal = z.infer<typeof ProposalSchema>;

/** Saves a new proposal and returns it with its id (P-xxxxxx). */
export async function saveProposal(home: string, body: Omit<Proposal, "id" | "createdAt">): Promise<Proposal> {
  const proposal: Proposal = { id: `p-${randomId(6)}`, createdAt: new Date().toISOString(), ...body };
  mkdirSync(proposalsDir(home), { recursive: true, mode: 0o700 });
  await atomicWriteFile(
    join(proposalsDir(home), `${proposal.id}.json`),
    `${JSON.stringify(proposal, null, 2)}\n`,
    0o600,
  );
  return proposal;
}

/** The proposals waiting for an answer, oldest first; unreadable files are skipped. */
export function pendingProposals(home: string): Proposal[] {
  let names: string[];
  try {
    names = readdirSync(proposalsDir(home)).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  const out: Proposal[] = [];
  for (const name of names) {
    const p = readProposal(join(proposalsDir(home), name));
    if (p) out.push(p);
  }
  return out.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

function readProposal(file: string): Proposal | null {
  try {
    const parsed = ProposalSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function findProposal(home: string, id: string): Proposal | null {
  if (!/^[a-z0-9-]+$/.test(id)) return null;
  const file = join(proposalsDir(home), `${id}.json`);
  return existsSync(file) ? readProposal(file) : null;
}

/** Files an answered proposal under accepted/ or rejected/ (kept, never deleted). */
export function fileProposal(home: string, id: string, answer: "accepted" | "rejected"): void {
  const dir = join(proposalsDir(home), answer);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  renameSync(join(proposalsDir(home), `${id}.json`), join(dir, `${id}.json`));
}

/** The skill's SKILL.md now ("" for a create) and as the proposal would leave it ("" for an archive). */
export function proposedText(home: string, p: Proposal): { before: string; after: string } {
  const before = p.kind === "create" ? "" : (readSkillText(join(agentRoot(home), p.name, SKILL_FILE)) ?? "");
  const after =
    p.kind === "patch"
      ? before.replace(p.old_string ?? "", () => p.new_string ?? "")
      : p.kind === "archive"
        ? ""
        : (p.content ?? "");
  return { before, after };
}

/** Replaces what a waiting proposal would write with `text` (the user's edit): a patch becomes a whole rewrite. */
export async function reviseProposal(home: string, p: Proposal, text: string): Promise<Proposal> {
  const { old_string: _o, new_string: _n, ...rest } = p;
  const revised: Proposal = { ...rest, kind: p.kind === "create" ? "create" : "edit", content: text };
  await atomicWriteFile(join(proposalsDir(home), `${p.id}.json`), `${JSON.stringify(revised, null, 2)}\n`, 0o600);
  return revised;
}

/** The proposal as a unified diff against the skill as it is now (a new file for a create). */
export function proposalDiff(home: string, p: Proposal): string {
  const { before, after } = proposedText(home, p);
  const shown = `${p.name}/${SKILL_FILE}`;
  const lines = createTwoFilesPatch(
    p.kind === "create" ? "/dev/null" : `a/${shown}`,
    p.kind === "archive" ? "/dev/null" : `b/${shown}`,
    before,
    after,
    "",
    "",
    { context: 3 },
  ).split("\n");
  const first = lines.findIndex((l) => l.startsWith("---"));
  return lines
    .slice(first === -1 ? 0 : first)
    .join("\n")
    .trimEnd();
}

// The background review (issue 30, item 2): after a turn worth learning from, one short request to
// the auxiliary model asks whether it shows a reusable procedure. Its answer can only become a
// proposal, checked like a skill_manage call (name, frontmatter, safety, no near-duplicate) and
// waiting for the user; nothing it writes is live until accepted.
import { log } from "../config/log.js";
import type { ChatMessage } from "../protocol/messages.js";
import { createProblem } from "../skills/skill-manage-run.js";
import { saveProposal, type Proposal } from "../skills/proposals.js";
import { checkSkillText, nameProblem, withAgentOrigin } from "../skills/skill-rules.js";
import { ownedSkills, readSkillText } from "../skills/skill-store.js";
import { splitFrontmatter, type Skill, type SkillRoots } from "../skills/skills.js";
import type { TurnRecord } from "./agent-types.js";
import type { ModelClient } from "./model-client.js";
import { firstJsonObject } from "./reply-json.js";

export interface ReviewOptions {
  turn: TurnRecord;
  why: string;
  client: ModelClient;
  model: string;
  roots: SkillRoots;
  live: Skill[];
  signal: AbortSignal;
}

/** Characters of the turn shown to the reviewer. */
const TURN_CHARS = 12_000;
const line = (text: string, max: number) => {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

const INSTRUCTIONS = `You review one finished turn of a coding agent and decide whether it taught a reusable procedure worth keeping as a skill (a SKILL.md: how to do one kind of task, step by step, including the mistake to avoid).
Answer with one JSON object and nothing else:
- {"action": "none"} when the turn taught nothing reusable (most turns), or an existing skill already covers it unchanged;
- {"action": "create", "name": "lower-case-name", "content": "---\\nname: lower-case-name\\ndescription: one line saying when to use it\\n---\\n\\n# Title\\n\\nSteps..."} for a new skill;
- {"action": "patch", "name": "existing-skill", "old_string": "exact text from its SKILL.md", "new_string": "replacement"} to improve one of the agent's own skills listed below.
Always add a "reason" (one short line). Keep skills short, general and free of secrets, paths of this machine and one-off details.`;

/** The turn as the reviewer reads it: the prompt, each tool call with its outcome, the answer. */
export function describeTurn(turn: TurnRecord): string {
  const out = [`User prompt: ${line(turn.prompt, 1000)}`, "Steps:"];
  const results = new Map<string, string>();
  for (const m of turn.messages) if (m.role === "tool") results.set(m.tool_call_id, m.content);
  for (const item of turn.items) {
    if (item.type === "tool")
      out.push(
        `- ${item.name} ${line(item.summary, 200)} -> ${item.status}: ${line(results.get(item.callId) ?? item.display, 300)}`,
      );
    else if (item.type === "steer") out.push(`- the user corrected: ${line(item.text, 300)}`);
  }
  const answer = [...turn.messages]
    .reverse()
    .find((m): m is Extract<ChatMessage, { role: "assistant" }> => m.role === "assistant" && !!m.content);
  out.push(`Final answer: ${line(answer?.content ?? "", 1500)}`);
  const text = out.join("\n");
  return text.length > TURN_CHARS ? `${text.slice(0, TURN_CHARS)}\n[turn cut]` : text;
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** Asks the reviewer; returns the saved proposal, or null (nothing to learn, or an answer that fails the checks). */
export async function reviewTurn(opts: ReviewOptions): Promise<Proposal | null> {
  const owned = ownedSkills(opts.roots);
  const listing = owned.map(
    (o) => `- ${o.skill.name}${o.readOnly ? " (the user's, read-only)" : ""}: ${line(o.skill.description, 200)}`,
  );
  const outcome = await opts.client.complete(
    {
      model: opts.model,
      messages: [
        { role: "system", content: INSTRUCTIONS },
        {
          role: "user",
          content: `Why this turn is reviewed: ${opts.why}.\n\n${describeTurn(opts.turn)}\n\nExisting skills:\n${listing.join("\n") || "(none)"}`,
        },
      ],
      tools: [],
      stream: false,
      thinking: "off",
      signal: opts.signal,
    },
    { onText: () => {}, onReasoning: () => {} },
  );
  if (!outcome.ok) return null;
  const answer = firstJsonObject(outcome.reply.content);
  const action = str(answer?.action);
  const name = str(answer?.name) ?? "";
  const reason = line(str(answer?.reason) ?? opts.why, 300);
  const drop = (why: string) => {
    log("info", `skill review: proposal dropped (${why})`);
    return null;
  };
  if (!answer || action === "none" || action === undefined) return null;
  if (nameProblem(name)) return drop(nameProblem(name)!);
  const home = opts.roots.home;
  const sessionId = opts.turn.sessionId;
  if (action === "create") {
    const content = str(answer.content) ?? "";
    const checked = checkSkillText(content, name);
    if ("problem" in checked) return drop(checked.problem);
    const dup = createProblem(
      { name, description: checked.description, body: splitFrontmatter(content).body },
      owned,
      home,
    );
    if (dup) return drop(dup);
    return saveProposal(home, { sessionId, kind: "create", name, content: withAgentOrigin(content), reason });
  }
  if (action === "patch") {
    const target = owned.find((o) => o.skill.name === name);
    if (!target || target.readOnly) return drop(target?.readOnly ?? `no skill ${name}`);
    const oldString = str(answer.old_string) ?? "";
    const newString = str(answer.new_string) ?? "";
    const text = readSkillText(target.skill.file) ?? "";
    if (oldString === "" || text.split(oldString).length !== 2)
      return drop("old_string is not in the skill exactly once");
    const checked = checkSkillText(
      text.replace(oldString, () => newString),
      name,
    );
    if ("problem" in checked) return drop(checked.problem);
    return saveProposal(home, { sessionId, kind: "patch", name, old_string: oldString, new_string: newString, reason });
  }
  return drop(`unknown action ${action}`);
}

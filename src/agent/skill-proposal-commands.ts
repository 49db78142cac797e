// The engine's side of the Skills tab: the proposal.accept / reject / edit commands, answered
// with the code behind `nanohermes skills accept|reject|edit`, and `proposals.updated` whenever
// the waiting list may have changed. Loaded with the first such command or announcement.
import { homedir } from "node:os";
import { join } from "node:path";
import type { Settings } from "../config/schema.js";
import { log } from "../config/log.js";
import type { CommandOf } from "../protocol/commands.js";
import type { BusEvent } from "../protocol/events.js";
import { acceptProposal, editProposal, proposalViews, rejectProposal } from "../skills/proposal-answer.js";
import type { SkillRoots } from "../skills/skills.js";
import type { Extensions } from "./extensions.js";
import { SkillEvidence } from "./skill-evidence.js";

export type ProposalCommand = CommandOf<"proposal.accept" | "proposal.reject" | "proposal.edit">;

export interface ProposalDeps {
  roots: SkillRoots;
  /** The process's evidence queue (null: none is open; one is opened for the answer and closed). */
  evidence: SkillEvidence | null;
  /** The live skill list is read again after an accepted change (hints and the skill tool see it). */
  refresh(): void;
  emit(event: BusEvent): void;
}

/** Answers and announcements run one at a time, so two quick keys cannot apply one proposal twice. */
let chain: Promise<void> = Promise.resolve();
const serially = (work: () => Promise<void>): Promise<void> => {
  chain = chain.then(work, work);
  return chain;
};

/** Emits the waiting proposals as they are now (an empty list too: the tab then goes away). */
export function announceProposals(home: string, emit: (event: BusEvent) => void): Promise<void> {
  return serially(async () => {
    try {
      emit({ type: "proposals.updated", taskId: "", proposals: proposalViews(home) });
    } catch (error) {
      log("warn", "listing skill proposals", error);
    }
  });
}

/**
 * Contract: never rejects. The answer (what was written, or why the proposal stays as it was) goes
 * to the command's task as a notice, then the list as it is now with that answer.
 */
export function answerProposal(command: ProposalCommand, deps: ProposalDeps): Promise<void> {
  const { roots } = deps;
  const notice = (level: "info" | "error", text: string) =>
    deps.emit({ type: "notice", taskId: command.taskId, level, text });
  return serially(async () => {
    const evidence = deps.evidence ?? new SkillEvidence(join(roots.home, "sessions.db"));
    const record = (e: Parameters<SkillEvidence["add"]>[0]) => evidence.add(e);
    let said = { id: command.id, ok: false, text: "" };
    try {
      const answer =
        command.type === "proposal.accept"
          ? await acceptProposal(roots, command.id, record)
          : command.type === "proposal.reject"
            ? rejectProposal(roots.home, command.id, record)
            : await editProposal(roots.home, command.id, command.content);
      if (answer.ok && command.type === "proposal.accept") deps.refresh();
      said = { id: command.id, ok: answer.ok, text: `skills: ${answer.ok ? answer.text : answer.error}` };
    } catch (error) {
      log("error", `answering skill proposal ${command.id}`, error);
      said = {
        id: command.id,
        ok: false,
        text: `skills: ${command.id} could not be answered: ${(error as Error).message}`,
      };
    } finally {
      notice(said.ok ? "info" : "error", said.text);
      await (deps.evidence ? evidence.flush() : evidence.close());
    }
    try {
      deps.emit({ type: "proposals.updated", taskId: "", proposals: proposalViews(roots.home), answer: said });
    } catch (error) {
      log("warn", "listing skill proposals", error);
    }
  });
}

/** The task manager's side: the process's skills (once loaded) answer, else the settings' folders. */
export async function answerWith(
  command: ProposalCommand,
  extensions: Promise<Extensions>,
  settings: Settings,
  emit: (event: BusEvent) => void,
): Promise<void> {
  const ext = await extensions;
  await answerProposal(command, {
    roots: ext.skillState?.roots ?? { workspace: settings.workspace, home: settings.home, userHome: homedir() },
    evidence: ext.skillState?.evidence ?? null,
    refresh: () => ext.skillState?.refresh(),
    emit,
  });
}

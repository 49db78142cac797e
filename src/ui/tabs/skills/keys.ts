// The Skills tab's keys: a accepts the selected proposal, e edits what it would write in $EDITOR
// (the composer's Ctrl-G editor), d or x drops it; Enter opens its diff over the tab (↑↓ PgUp PgDn
// scroll, [ ] hunks), Esc closes it. Every answer is a bus command the engine carries out.
import type { AreaHost } from "../../controller/host.js";
import type { Key } from "../../input/keys.js";
import type { SkillProposals } from "../../state/store.js";

/** The proposal the list has selected (the index is clamped: the list shrinks as answers land). */
export function selectedProposal(host: AreaHost): SkillProposals[number] | undefined {
  const list = host.state.proposals;
  return list[Math.min(host.ui.resultsIndex, list.length - 1)];
}

/** The Skills tab's keys while the results pane has focus; false leaves the key to the pane. */
export function skillsTabKey(host: AreaHost, key: Key): boolean {
  const proposal = selectedProposal(host);
  if (!proposal) return false;
  const open = host.ui.proposalOpen;
  const m = host.results;
  const last = Math.max(0, (m?.lines ?? 0) - (m?.height ?? 0));
  const scrollTo = (offset: number) =>
    host.setUi((u) => ({ ...u, proposalOpen: { offset: Math.max(0, Math.min(last, offset)) } }));
  const taskId = host.currentTask()?.id ?? "";
  const action = host.action(key, [
    "proposalAccept",
    "proposalEdit",
    "proposalDrop",
    "stop",
    "listSelect",
    "listUp",
    "listDown",
    "scrollUp",
    "scrollDown",
    "nextHunk",
    "prevHunk",
  ]);
  switch (action) {
    case "proposalAccept":
      host.send({ type: "proposal.accept", taskId, id: proposal.id });
      host.setUi((u) => ({ ...u, proposalOpen: null }));
      host.status(
        `accepting ${proposal.id}: ${proposal.kind === "create" ? "new skill" : proposal.kind} ${proposal.name}`,
      );
      return true;
    case "proposalDrop":
      host.send({ type: "proposal.reject", taskId, id: proposal.id });
      host.setUi((u) => ({ ...u, proposalOpen: null }));
      host.status(`dropping ${proposal.id} (kept under .proposals/rejected/)`);
      return true;
    case "proposalEdit":
      if (proposal.kind === "archive") {
        host.status(`${proposal.id} archives ${proposal.name}: nothing to edit (a accepts, d drops)`, "warn");
        return true;
      }
      void host.openEditor(proposal.text).then((text) => {
        if (text === null) host.status(`${proposal.id} is unchanged (the editor was closed without saving)`, "warn");
        else if (text === proposal.text) host.status(`${proposal.id} is unchanged`);
        else {
          host.send({ type: "proposal.edit", taskId, id: proposal.id, content: text });
          host.status(`${proposal.id}: checking your text`);
        }
      });
      return true;
    case "stop":
      if (!open) return false;
      host.setUi((u) => ({ ...u, proposalOpen: null }));
      return true;
    case "listSelect":
      host.setUi((u) => ({ ...u, proposalOpen: u.proposalOpen ? null : { offset: 0 } }));
      return true;
    case "listUp":
    case "listDown":
      if (!open) return false; // the pane moves the selection
      scrollTo(open.offset + (action === "listUp" ? -1 : 1));
      return true;
    case "scrollUp":
    case "scrollDown": {
      const page = Math.max(1, (m?.height ?? 10) - 1);
      scrollTo((open?.offset ?? 0) + (action === "scrollUp" ? -page : page));
      return true;
    }
    case "nextHunk":
    case "prevHunk": {
      const starts = m?.hunkStarts ?? [];
      if (starts.length === 0) return true;
      const at = open?.offset ?? -1;
      const next =
        action === "nextHunk"
          ? (starts.find((s) => s > at) ?? starts[0]!)
          : ([...starts].reverse().find((s) => s < at) ?? starts.at(-1)!);
      host.setUi((u) => ({ ...u, proposalOpen: { offset: next } }));
      return true;
    }
    default:
      return false;
  }
}

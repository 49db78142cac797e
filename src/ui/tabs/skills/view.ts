// Lines of the results pane's Skills tab: the skill proposals waiting for an answer (the engine's
// proposals.updated), the selected one's reason and its diff (a new skill: its whole SKILL.md
// as added lines; a patch: the unified diff), or that diff over the whole tab once opened. Pure.
import { renderDiff, type RenderedDiff } from "../../render/diff.js";
import { parseHunks } from "../../render/patch-hunks.js";
import { padToWidth, truncateToWidth, visibleWidth, wrapLine } from "../../render/wrap.js";
import type { SkillProposals } from "../../state/store.js";
import type { UiState } from "../../state/ui-state.js";
import type { Look } from "../../theme/look.js";
import type { Palette } from "../../theme/palette.js";
import type { ResultsMeasure } from "../../view/measures.js";
import { diffStyles, listLines } from "../../view/panes.js";

type Proposal = SkillProposals[number];

/** What the Skills tab reads: the proposals, the selected one, and whether its diff is open. */
export interface SkillsModel {
  proposals: SkillProposals;
  index: number;
  open: UiState["proposalOpen"];
}

/** Rendered diffs by proposal, for the width and palette they were drawn at. */
const cache = new WeakMap<Proposal, { width: number; palette: Palette; diff: RenderedDiff }>();

/** The proposal's diff as the Diff and Changes tabs draw theirs. */
export function proposalDiffLines(p: Palette, proposal: Proposal, width: number): RenderedDiff {
  const hit = cache.get(proposal);
  if (hit && hit.width === width && hit.palette === p) return hit.diff;
  const hunks = parseHunks(proposal.diff);
  const path = `${proposal.name}/SKILL.md`;
  const count = (kind: "add" | "del") => hunks.reduce((n, h) => n + h.lines.filter((l) => l.kind === kind).length, 0);
  const diff =
    hunks.length === 0
      ? { lines: [truncateToWidth(p.title(path), width), p.dim("no change in its text")], hunkStarts: [] }
      : renderDiff(
          {
            kind: "changes",
            status: proposal.kind === "create" ? "added" : proposal.kind === "archive" ? "deleted" : "modified",
            hunks,
            added: count("add"),
            removed: count("del"),
          },
          { width, styles: diffStyles(p), path },
        );
  cache.set(proposal, { width, palette: p, diff });
  return diff;
}

/** A proposal's row: what it does to which skill, its id at the right edge when there is room. */
function row(proposal: Proposal, width: number): string {
  const left = `${proposal.kind === "create" ? "new" : proposal.kind} ${proposal.name}`;
  const right = proposal.id;
  if (visibleWidth(left) + 2 + visibleWidth(right) > width) return truncateToWidth(left, width);
  return `${left}${" ".repeat(width - visibleWidth(left) - visibleWidth(right))}${right}`;
}

/** The Skills tab's body (`height` rows) and what the controller moves through in it. */
export function skillsLines(
  m: SkillsModel,
  sv: Look,
  inner: number,
  height: number,
  focused: boolean,
): { body: string[]; measure: ResultsMeasure } {
  const { palette: p, ascii } = sv;
  const proposals = m.proposals;
  if (proposals.length === 0)
    return {
      body: wrapLine(p.dim("no skill proposals waiting"), inner, { words: true }).slice(0, Math.max(1, height)),
      measure: { count: 0, hunks: 0 },
    };
  const index = Math.min(m.index, proposals.length - 1);
  const proposal = proposals[index]!;
  const width = Math.max(1, inner);
  const diff = proposalDiffLines(p, proposal, width);
  const measureOf = (room: number): ResultsMeasure => ({
    count: proposals.length,
    hunks: diff.hunkStarts.length,
    lines: diff.lines.length,
    height: room,
    hunkStarts: diff.hunkStarts,
  });
  const open = m.open;
  if (open) {
    const room = Math.max(1, height);
    const offset = Math.max(0, Math.min(Math.max(0, diff.lines.length - room), open.offset));
    return { body: diff.lines.slice(offset, offset + room), measure: measureOf(room) };
  }
  // The list gets a third of the tab (at least one row), the reason two rows, the diff the rest.
  const listRows = Math.max(1, Math.min(proposals.length, Math.floor(height / 3)));
  const list = listLines(
    p,
    proposals.map((x) => row(x, width)),
    index,
    focused,
    width,
    listRows,
    "",
  );
  const reason = wrapLine(p.dim(`why: ${proposal.reason}`), width, { words: true }).slice(0, 2);
  const rule = p.dim((ascii ? "-" : "─").repeat(width));
  const room = Math.max(0, height - list.length - reason.length - 1);
  const body = [...list.map((l) => padToWidth(l, width)), ...reason, rule, ...diff.lines.slice(0, room)];
  return { body: body.slice(0, Math.max(0, height)), measure: measureOf(room) };
}

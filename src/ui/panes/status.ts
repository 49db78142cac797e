// The bottom line: the latest status message, or the keys that matter right now.
import type { AppServices } from "../context/services.js";
import type { AppState } from "../state/store.js";
import type { Block } from "../state/transcript.js";
import type { UiState } from "../state/ui-state.js";
import { selector } from "../state/select.js";
import { padToWidth, truncateToWidth, visibleWidth } from "../render/wrap.js";
import { dialogSpec } from "../dialogs/index.js";
import { fitting } from "../view/row-text.js";
import { statusHolds } from "../view/status-truth.js";
import { contextLabel } from "../controller/cost.js";
import { DOUBLE_PRESS_MS } from "../state/ui-state.js";
import { dialogScope, selectDialog, type DialogModel } from "./dialog-area.js";

/** What the status line reads. Time only as the answers it gives, so the clock's ticks are no change here. */
export interface StatusModel {
  /** The message, while it holds (not expired by the store's clock, its condition still true). */
  message: UiState["status"];
  /** A second Ctrl-C would quit (within DOUBLE_PRESS_MS of the first, by the store's clock). */
  exitArmed: boolean;
  /** The open dialog's parts (its hint or footer stands in for the keys), or null. */
  dialog: DialogModel | null;
  rows: number;
  focus: UiState["focus"];
  resultsTab: UiState["resultsTab"];
  turnDiff: boolean;
  proposalOpen: boolean;
  proposals: number;
  running: boolean;
  /** The current task's unanswered approval. */
  approval: Block | null;
  /** The context gauge leads the hints: the task snapshot carries it. */
  snapshot: AppState["tasks"][string]["snapshot"] | undefined;
  redraws: number;
}

export const selectStatus = selector((s: AppState): StatusModel => {
  const t = s.current ? s.transcripts[s.current] : undefined;
  const status = s.ui.status;
  return {
    message: status && statusHolds(s, status, s.clock) ? status : null,
    exitArmed: s.ui.exitArmed !== 0 && s.clock - s.ui.exitArmed < DOUBLE_PRESS_MS && !s.ui.dialog,
    dialog: s.ui.dialog ? selectDialog(s) : null,
    rows: s.ui.rows,
    focus: s.ui.focus,
    resultsTab: s.ui.resultsTab,
    turnDiff: s.ui.turnDiff !== null,
    proposalOpen: s.ui.proposalOpen !== null,
    proposals: s.proposals.length,
    running: Boolean(t?.running),
    approval: t?.blocks.find((b) => b.kind === "approval" && b.resolved === null) ?? null,
    snapshot: s.current ? s.tasks[s.current]?.snapshot : undefined,
    redraws: s.redraws,
  };
});

export function statusLine(m: StatusModel, sv: AppServices, width: number): string {
  const { palette: p } = sv;
  const { message: status, focus, running, approval } = m;
  let text: string;
  // An open dialog may say what it is about instead of the usual keys (its keys are in its
  // footer); one that does not has its own keys here, never the composer's it has taken over.
  const d = m.dialog?.dialog;
  const hint =
    m.dialog && d ? (dialogSpec(d).hint?.(dialogScope(m.dialog), sv, d, width) ?? dialogKeys(m, sv, width)) : null;
  // While a second Ctrl-C would quit, the line says so, whatever else it had to say.
  if (m.exitArmed)
    text = p.warning(
      fitting(
        [
          `${status?.text === "input cleared" ? "input cleared · " : ""}press Ctrl-C again within 2 s to exit (any other key cancels)`,
          "press Ctrl-C again within 2 s to exit",
          "Ctrl-C again to exit",
        ],
        width,
      ),
    );
  else if (status) {
    const paint = status.level === "error" ? p.error : status.level === "warn" ? p.warning : p.info;
    text = paint(status.text);
  } else if (hint !== null) text = hint;
  else if (focus === "browse")
    text = p.dim("↑↓ blocks · Enter expand · y copy · c code · / search · n/N · p r t e a jump · Esc back");
  else if (focus === "tasks")
    text = p.dim("↑↓ move · Enter open · r rename · p pin · x delete · / filter · m export · Esc back");
  else if (focus === "results" && m.resultsTab === "turns" && m.turnDiff)
    text = p.dim(
      fitting(
        [
          "↑↓ PgUp PgDn scroll · [ ] hunks · u revert this file · Esc list",
          "↑↓ scroll · [ ] hunks · u revert · Esc list",
        ],
        width,
      ),
    );
  else if (focus === "results" && m.resultsTab === "turns")
    text = p.dim(
      fitting(
        [
          "Enter diff (on a turn: rewind) · u revert file · ←→ tabs · Esc back",
          "Enter diff/rewind · u revert · ←→ · Esc back",
        ],
        width,
      ),
    );
  else if (focus === "results" && m.resultsTab === "agents") text = p.dim(wholeHints(HINTS.agents, width));
  else if (focus === "results" && m.resultsTab === "jobs") text = p.dim(wholeHints(HINTS.jobs, width));
  else if (focus === "results" && m.resultsTab === "skills" && m.proposals > 0)
    text = p.dim(wholeHints(m.proposalOpen ? HINTS.skillsOpen : HINTS.skills, width));
  else if (focus === "results") text = p.dim(wholeHints(HINTS.results, width));
  else if (approval?.kind === "approval" && approval.dangerous) text = p.error(wholeHints(HINTS.dangerous, width));
  else if (approval) text = p.statusWaiting(wholeHints(HINTS.approval, width));
  else {
    // How full the model's context is leads the hints (they are cut from the right on narrow terminals).
    const ctx = contextLabel(m.snapshot);
    const hints = running
      ? ["Esc/Ctrl-C stop", "Enter steer", "Tab queue", "PgUp scroll", "Ctrl-K palette"]
      : [
          "Enter send",
          "Ctrl-J newline",
          "/ commands",
          "@ files",
          "? keys",
          "Ctrl-X browse",
          "Ctrl-K palette",
          "Ctrl-T tasks",
          "Ctrl-R results",
        ];
    text = p.dim(wholeHints(ctx ? [ctx, ...hints] : hints, width));
  }
  return padToWidth(truncateToWidth(text, width), width);
}

/** The open dialog's keys as its footer says them for this width (for /rewind: the step it is at), dimmed. */
function dialogKeys(m: StatusModel, sv: AppServices, width: number): string | null {
  const d = m.dialog?.dialog;
  if (!m.dialog || !d) return null;
  const view = dialogSpec(d).view(dialogScope(m.dialog), sv, d, width, Math.max(3, m.rows - 2));
  return "footer" in view && view.footer ? sv.palette.dim(view.footer) : null;
}

/** Key hints, most needed first: a narrow terminal shows the first ones whole. */
export const HINTS = {
  agents: ["Enter open", "x stop", "1-9 ↑↓ select", "Esc back", "←→ tabs"],
  jobs: ["↑↓ pick a job", "x stop it", "←→ tabs", "Esc back"],
  skills: ["a accept", "e edit", "d drop", "Enter diff", "↑↓ pick", "←→ tabs", "Esc back"],
  skillsOpen: ["a accept", "e edit", "d drop", "↑↓ PgUp PgDn scroll", "[ ] hunks", "Esc list"],
  results: ["←→ tabs", "↑↓ move", "Enter diff", "[ ] hunks", "Esc back"],
  // Denying comes before the wider grants: at 50 columns the line still says how to say no.
  // n denies and stops the turn; d denies with a note and lets the model go on.
  dangerous: [
    "dangerous: y once",
    "n deny+stop",
    "a this exact command for the task",
    "d deny+note",
    "Enter full text",
  ],
  approval: ["y once", "n deny+stop", "a always", "A workspace", "d deny+note", "Enter full text"],
} as const;

/**
 * The hints that fit in `width`, in order, never one cut in the middle: one too wide is left out
 * and a shorter one after it may still fit (the dangerous-command line keeps "d deny+note" at 50
 * columns without "a this exact command for the task").
 */
export function wholeHints(hints: readonly string[], width: number): string {
  let line = "";
  for (const hint of hints) {
    const next = line ? `${line} · ${hint}` : hint;
    if (visibleWidth(next) <= width) line = next;
    else if (!line) break; // the first hint leads: cut, below, rather than skipped
  }
  return line || truncateToWidth(hints[0] ?? "", width);
}

// The results pane around its current tab (each tab: ../tabs/): the tab bar, the border, and the
// whole pane as lines for the text frame.
import type { AppServices } from "../context/services.js";
import { padToWidth, truncateToWidth } from "../render/wrap.js";
import type { AppState } from "../state/store.js";
import { selector } from "../state/select.js";
import { shownTabs, type ResultsTab } from "../state/ui-state.js";
import { resultsTabDefs } from "../tabs/index.js";
import { tabBar } from "../tabs/tab-bar.js";
import { taskOf, type TabBody } from "../tabs/tab.js";
import { isActive } from "../view/agent-board.js";
import type { ResultsMeasure } from "../view/measures.js";

/** What the tab bar reads: the current tab, each tab's count, and which tabs show. */
export interface ResultsBarModel {
  tab: ResultsTab;
  changes: number;
  turns: number;
  reads: number;
  /** Running jobs, active subagents, waiting proposals. */
  jobs: number;
  agents: number;
  skills: number;
  diff: boolean;
  focused: boolean;
  plain: boolean;
}

export const selectResultsBar = selector((s: AppState): ResultsBarModel => {
  const t = taskOf(s);
  return {
    tab: s.ui.resultsTab,
    changes: t?.changed.length ?? 0,
    turns: t?.checkpoints.length ?? 0,
    reads: t?.reads.length ?? 0,
    jobs: t?.jobs.filter((j) => j.state === "running").length ?? 0,
    agents: t?.agents.filter(isActive).length ?? 0,
    skills: s.proposals.length,
    diff: s.ui.worktreeDiff !== null,
    focused: s.ui.focus === "results",
    plain: s.ui.screenReader,
  };
});

/** The tab bar, one or two rows: every shown tab with its count (changed files, turns, running jobs, active subagents, waiting proposals). */
export function resultsTabBar(m: ResultsBarModel, sv: AppServices, inner: number): string[] {
  const counts = {
    changes: m.changes,
    turns: m.turns,
    reads: m.reads,
    ...(m.jobs ? { jobs: m.jobs } : {}),
    ...(m.agents ? { agents: m.agents } : {}),
    skills: m.skills,
  };
  return tabBar(
    sv.palette,
    m.tab,
    counts,
    inner,
    shownTabs(m.tab, { turns: m.turns > 0, diff: m.diff, skills: m.skills > 0 }),
  );
}

/** The pane's left border, two columns wide: the bar and a space (`plain`: two spaces, for a screen reader). */
export function resultsBorder(sv: AppServices, focused: boolean, plain = false): string {
  if (plain) return "  ";
  return `${sv.palette[focused ? "borderFocused" : "border"](sv.ascii ? "|" : "│")} `;
}

/** The tab's rows padded to the pane: exactly `height` lines of `inner` columns. */
export function tabRows(body: string[], inner: number, height: number): string[] {
  const rows = body.slice(0, height).map((l) => padToWidth(truncateToWidth(l, inner), inner));
  while (rows.length < height) rows.push(" ".repeat(inner));
  return rows;
}

/** The current tab's rows and measure, from its model (its definition's `select`). */
export function tabBody(s: AppState, sv: AppServices, inner: number, height: number): TabBody {
  const def = resultsTabDefs[s.ui.resultsTab];
  return def.lines(def.select(s), sv, inner, height, s.ui.focus === "results");
}

/**
 * The whole pane as lines (the text frame), and the measure of its current tab: the selectors and
 * pane functions components/ResultsPane.tsx and ResultsTab.tsx draw with.
 */
export function resultsPane(
  s: AppState,
  sv: AppServices,
  width: number,
  height: number,
): { lines: string[]; measure: ResultsMeasure } {
  if (width <= 2 || height <= 0) return { lines: [], measure: { count: 0, hunks: 0 } };
  const inner = width - 2;
  const m = selectResultsBar(s);
  const tabs = resultsTabBar(m, sv, inner).slice(0, height);
  const room = height - tabs.length;
  const { body, measure } = tabBody(s, sv, inner, room);
  const bar = resultsBorder(sv, m.focused, m.plain);
  return { lines: [...tabs, ...tabRows(body, inner, room)].map((l) => bar + l), measure };
}

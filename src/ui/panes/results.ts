// The results pane around its current tab (each tab: ../tabs/): the tab bar, the border, and the
// whole pane as lines for the text frame.
import type { AppServices } from "../context/services.js";
import { padToWidth, truncateToWidth } from "../render/wrap.js";
import type { AppState } from "../state/store.js";
import { shownTabs } from "../state/ui-state.js";
import { resultsTabDefs } from "../tabs/index.js";
import { tabBar } from "../tabs/tab-bar.js";
import { taskOf } from "../tabs/tab.js";
import { isActive } from "../view/agent-board.js";
import type { ResultsMeasure } from "../view/measures.js";

/** The tab bar, one or two rows: every shown tab with its count (changed files, turns, running jobs, active subagents, waiting proposals). */
export function resultsTabBar(s: AppState, sv: AppServices, inner: number): string[] {
  const t = taskOf(s);
  const turns = t?.checkpoints.length ?? 0;
  const running = t?.jobs.filter((j) => j.state === "running").length ?? 0;
  const active = t?.agents.filter(isActive).length ?? 0;
  const counts = {
    changes: t?.changed.length ?? 0,
    turns,
    reads: t?.reads.length ?? 0,
    ...(running ? { jobs: running } : {}),
    ...(active ? { agents: active } : {}),
    skills: s.proposals.length,
  };
  return tabBar(
    sv.palette,
    s.ui.resultsTab,
    counts,
    inner,
    shownTabs(s.ui.resultsTab, { turns: turns > 0, diff: s.ui.worktreeDiff !== null, skills: s.proposals.length > 0 }),
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

/** The whole pane as lines (the text frame), and the measure of its current tab. */
export function resultsPane(
  s: AppState,
  sv: AppServices,
  width: number,
  height: number,
): { lines: string[]; measure: ResultsMeasure } {
  if (width <= 2 || height <= 0) return { lines: [], measure: { count: 0, hunks: 0 } };
  const inner = width - 2;
  const focused = s.ui.focus === "results";
  const tabs = resultsTabBar(s, sv, inner).slice(0, height);
  const room = height - tabs.length;
  const { body, measure } = resultsTabDefs[s.ui.resultsTab].lines(s, sv, inner, room, focused);
  const bar = resultsBorder(sv, focused, s.ui.screenReader);
  return { lines: [...tabs, ...tabRows(body, inner, room)].map((l) => bar + l), measure };
}

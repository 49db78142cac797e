// The results pane: one line function per tab (each drawn by its component in components/results/)
// Files (workspace), Changes (files this task wrote, with a word-level diff and hunk jumps), Turns
// (view/turns-view.ts), Diff (/diff, view/diff-view.ts), Reads, Todo, Jobs and Agents; the tab bar, the border, the whole pane.
import type { AppServices } from "../context/services.js";
import type { AppState } from "../state/store.js";
import type { Block } from "../state/transcript.js";
import { diffFile, renderDiff, type RenderedDiff } from "../render/diff.js";
import { padToWidth, truncateToWidth, wrapLine } from "../render/wrap.js";
import { boardRows } from "../state/children.js";
import { boardLines, isActive } from "../view/agent-board.js";
import { approvalTitle } from "../view/cards.js";
import { diffStyles, fileTree, listLines } from "../view/panes.js";
import { tabBar } from "../view/tab-bar.js";
import { REMOTE_CHANGES, turnsTab } from "../view/turns-view.js";
import { diffTab } from "../view/diff-view.js";
import { shownTabs, type ResultsTab } from "../state/ui-state.js";
import type { ResultsMeasure } from "../view/measures.js";

const diffCache = new WeakMap<AppServices, { key: unknown[]; diff: RenderedDiff }>();

const treeCache = new WeakMap<readonly string[], string[]>();
/** The tree is built once per file listing (the listing array is replaced when it changes). */
function fileTreeOf(paths: readonly string[]): string[] {
  let tree = treeCache.get(paths);
  if (!tree) {
    tree = fileTree(paths);
    treeCache.set(paths, tree);
  }
  return tree;
}

/** One tab's rows under the tab bar, and what the controller moves through in it. */
export interface TabBody {
  body: string[];
  measure: ResultsMeasure;
}

/** Contract: a tab draws `height` rows (or fewer) of `inner` columns from the state alone. */
export type TabLines = (s: AppState, sv: AppServices, inner: number, height: number, focused: boolean) => TabBody;

const taskOf = (s: AppState) => (s.current ? s.transcripts[s.current] : undefined);

export const filesTab: TabLines = (s, sv, inner, height, focused) => {
  const tree = fileTreeOf(sv.ctl.deps.paths());
  return {
    body: listLines(sv.palette, tree, s.ui.resultsIndex, focused, inner, height, "no files (or still listing)"),
    measure: { count: tree.length, hunks: 0 },
  };
};

/** The open file's diff: from the content before this session's first write to now (both read by the controller). */
function changesDiff(s: AppState, sv: AppServices, path: string, inner: number): RenderedDiff {
  const p = sv.palette;
  if (s.current && s.tasks[s.current]?.snapshot.location === "remote")
    return {
      lines: [truncateToWidth(p.title(path), inner), ...wrapLine(p.dim(REMOTE_CHANGES), inner, { words: true })],
      hunkStarts: [],
    };
  const file = s.shown[path];
  if (!file) return { lines: [truncateToWidth(p.title(path), inner), p.dim("reading…")], hunkStarts: [] };
  const key = [path, file, inner, p];
  const hit = diffCache.get(sv);
  if (hit && hit.key.every((k, i) => k === key[i])) return hit.diff;
  const diff = renderDiff(diffFile(file.before, file.now), { width: inner, styles: diffStyles(p), path });
  diffCache.set(sv, { key, diff });
  return diff;
}

export const changesTab: TabLines = (s, sv, inner, height, focused) => {
  const changed = taskOf(s)?.changed ?? [];
  const { diffPath, diffHunk: hunk } = s.ui;
  if (!diffPath)
    return {
      body: listLines(
        sv.palette,
        changed.map((f) => `M ${f}`),
        s.ui.resultsIndex,
        focused,
        inner,
        height,
        "no files changed by this task yet",
      ),
      measure: { count: changed.length, hunks: 0 },
    };
  const diff = changesDiff(s, sv, diffPath, inner);
  const hunks = diff.hunkStarts.length;
  const start = diff.hunkStarts[Math.min(hunk, Math.max(0, hunks - 1))] ?? 0;
  const offset = Math.max(0, Math.min(Math.max(0, diff.lines.length - height), start));
  return { body: diff.lines.slice(offset, offset + height), measure: { count: changed.length, hunks } };
};

export const readsTab: TabLines = (s, sv, inner, height, focused) => {
  const reads = taskOf(s)?.reads ?? [];
  return {
    body: listLines(sv.palette, reads, s.ui.resultsIndex, focused, inner, height, "no files read by this task yet"),
    measure: { count: reads.length, hunks: 0 },
  };
};

export const todoTab: TabLines = (s, sv, inner, height, focused) => {
  const { palette: p, ascii } = sv;
  const todo = taskOf(s)?.todo ?? [];
  const mark = {
    pending: ascii ? "[ ]" : "○",
    in_progress: ascii ? "[>]" : "▸",
    completed: ascii ? "[x]" : "✓",
  } as const;
  const done = todo.filter((i) => i.status === "completed").length;
  const rows = todo.map((i) => {
    const text = `${mark[i.status]} ${i.content}`;
    return i.status === "completed" ? p.dim(text) : i.status === "in_progress" ? p.accent(text) : text;
  });
  const body = todo.length
    ? [p.dim(`${done}/${todo.length} done`), ...listLines(p, rows, s.ui.resultsIndex, focused, inner, height - 1, "")]
    : [p.dim("no plan yet")];
  return { body, measure: { count: todo.length, hunks: 0 } };
};

export const jobsTab: TabLines = (s, sv, inner, height, focused) => {
  const p = sv.palette;
  const jobs = taskOf(s)?.jobs ?? [];
  if (jobs.length === 0) return { body: [p.dim("no background commands")], measure: { count: 0, hunks: 0 } };
  // The list on top (a third of the pane at most), the selected job's output under it.
  const listRows = Math.max(1, Math.min(jobs.length, Math.floor(height / 3)));
  const list = listLines(
    p,
    jobs.map((j) => `${j.id} ${j.state}${j.exitCode !== null ? ` ${j.exitCode}` : ""} ${j.command}`),
    s.ui.resultsIndex,
    focused,
    inner,
    listRows,
    "",
  );
  const job = jobs[Math.min(s.ui.resultsIndex, jobs.length - 1)]!;
  const room = Math.max(0, height - list.length - 2);
  const output = (job.tail ?? job.lastLine)
    .replace(/\n+$/, "")
    .split("\n")
    .slice(-room)
    .map((l) => truncateToWidth(l, inner));
  const hint = job.state === "running" ? "x stop · ↑↓ pick a job" : `${job.state} · ↑↓ pick a job`;
  const body = [
    ...list,
    p.border("─".repeat(Math.min(inner, 20))) + p.dim(` ${truncateToWidth(hint, inner - 21)}`),
    ...output,
  ];
  return { body, measure: { count: jobs.length, hunks: 0 } };
};

export const agentsTab: TabLines = (s, sv, inner, height, focused) => {
  const t = taskOf(s);
  const rows = t ? boardRows(t) : [];
  const body = boardLines(
    sv.palette,
    { rows, selected: s.ui.resultsIndex, focused, now: Date.now(), ascii: sv.ascii, asks: t ? asksOf(t.blocks) : {} },
    inner,
    height,
  );
  return { body, measure: { count: rows.length, hunks: 0 } };
};

export const resultsTabs: Record<ResultsTab, TabLines> = {
  files: filesTab,
  changes: changesTab,
  diff: diffTab,
  turns: turnsTab,
  reads: readsTab,
  todo: todoTab,
  jobs: jobsTab,
  agents: agentsTab,
};

/** The tab bar, one or two rows: every shown tab with its count (changed files, turns, running jobs, active subagents). */
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
  };
  return tabBar(
    sv.palette,
    s.ui.resultsTab,
    counts,
    inner,
    shownTabs(s.ui.resultsTab, turns > 0, s.ui.worktreeDiff !== null),
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
  const { body, measure } = resultsTabs[s.ui.resultsTab](s, sv, inner, room, focused);
  const bar = resultsBorder(sv, focused, s.ui.screenReader);
  return { lines: [...tabs, ...tabRows(body, inner, room)].map((l) => bar + l), measure };
}

/** The unanswered questions of subagents, by agent id. */
function asksOf(blocks: readonly Block[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of blocks) {
    if (b.kind === "approval" && b.resolved === null && b.agentId && !out[b.agentId]) out[b.agentId] = approvalTitle(b);
  }
  return out;
}

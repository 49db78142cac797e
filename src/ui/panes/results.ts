// The results pane: Files (workspace), Changes (files this task wrote, with a word-level diff and
// hunk jumps), Turns (view/turns-view.ts), Reads, Todo, Jobs and Agents.
import type { AppServices } from "../context/services.js";
import type { AppState } from "../state/store.js";
import type { Block } from "../state/transcript.js";
import { diffFile, renderDiff } from "../render/diff.js";
import { padToWidth, truncateToWidth, wrapLine } from "../render/wrap.js";
import { boardRows } from "../state/children.js";
import { boardLines, isActive } from "../view/agent-board.js";
import { approvalTitle } from "../view/cards.js";
import { diffStyles, fileTree, listLines, tabBar } from "../view/panes.js";
import { REMOTE_CHANGES, turnsTab } from "../view/turns-view.js";
import { shownTabs } from "../controller/ui-state.js";

const diffCache = new WeakMap<AppServices, { key: { diffPath: string; blocks: unknown; inner: number; p: unknown }; diff: ReturnType<typeof renderDiff> }>();

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

export function resultsPane(s: AppState, sv: AppServices, width: number, height: number): string[] {
  const { palette: p, ctl, ascii, before, readFile } = sv;
  const tab = (s.ui.resultsTab);
  const focused = (s.ui.focus === "results");
  const index = (s.ui.resultsIndex);
  const diffPath = (s.ui.diffPath);
  const hunk = (s.ui.diffHunk);
  const changed = ((s.current ? s.transcripts[s.current]?.changed : undefined)) ?? [];
  const reads = ((s.current ? s.transcripts[s.current]?.reads : undefined)) ?? [];
  const blocks = ((s.current ? s.transcripts[s.current]?.blocks : undefined));
  const inner = width - 2;
  const bodyHeight = height - 1;
  // Re-read the file after each tool call of the task (blocks change then); cached otherwise.
  let diff: ReturnType<typeof renderDiff> | null = null;
  const remote = s.current ? s.tasks[s.current]?.snapshot.location === "remote" : false;
  if (tab === "changes" && diffPath && remote) diff = { lines: [truncateToWidth(p.title(diffPath), inner), ...wrapLine(p.dim(REMOTE_CHANGES), inner, { words: true })], hunkStarts: [] };
  else if (tab === "changes" && diffPath) {
    const key = { diffPath, blocks, inner, p };
    const hit = diffCache.get(sv);
    if (hit && hit.key.diffPath === diffPath && hit.key.blocks === blocks && hit.key.inner === inner && hit.key.p === p) diff = hit.diff;
    else {
      diff = renderDiff(diffFile(before.get(diffPath) ?? null, readFile(diffPath)), { width: inner, styles: diffStyles(p), path: diffPath });
      diffCache.set(sv, { key, diff });
    }
  }
  if (width <= 2 || height <= 0) return [];
  let body: string[];
  let count = 0;
  let hunks = 0;
  let measure: ReturnType<typeof turnsTab>["measure"] | null = null;
  if (tab === "files") {
    const tree = fileTreeOf(ctl.deps.paths());
    count = tree.length;
    body = listLines(p, tree, index, focused, inner, bodyHeight, "no files (or still listing)");
  } else if (tab === "changes") {
    count = changed.length;
    if (diff) {
      hunks = diff.hunkStarts.length;
      const start = diff.hunkStarts[Math.min(hunk, Math.max(0, hunks - 1))] ?? 0;
      const offset = Math.max(0, Math.min(Math.max(0, diff.lines.length - bodyHeight), start));
      body = diff.lines.slice(offset, offset + bodyHeight);
    } else {
      body = listLines(p, changed.map((f) => `M ${f}`), index, focused, inner, bodyHeight, "no files changed by this task yet");
    }
  } else if (tab === "turns") {
    ({ body, measure } = turnsTab(s, sv, inner, bodyHeight, focused));
  } else if (tab === "reads") {
    count = reads.length;
    body = listLines(p, reads, index, focused, inner, bodyHeight, "no files read by this task yet");
  } else if (tab === "todo") {
    const todo = (s.current ? s.transcripts[s.current]?.todo : undefined) ?? [];
    const mark = { pending: ascii ? "[ ]" : "○", in_progress: ascii ? "[>]" : "▸", completed: ascii ? "[x]" : "✓" } as const;
    const done = todo.filter((i) => i.status === "completed").length;
    const rows = todo.map((i) => {
      const text = `${mark[i.status]} ${i.content}`;
      return i.status === "completed" ? p.dim(text) : i.status === "in_progress" ? p.accent(text) : text;
    });
    count = todo.length;
    body = todo.length ? [p.dim(`${done}/${todo.length} done`), ...listLines(p, rows, index, focused, inner, bodyHeight - 1, "")] : [p.dim("no plan yet")];
  } else if (tab === "jobs") {
    const jobs = (s.current ? s.transcripts[s.current]?.jobs : undefined) ?? [];
    count = jobs.length;
    body = jobs.length
      ? listLines(p, jobs.map((j) => `${j.id} ${j.state}${j.exitCode !== null ? ` ${j.exitCode}` : ""} ${j.command}${j.lastLine ? ` · ${j.lastLine}` : ""}`), index, focused, inner, bodyHeight, "")
      : [p.dim("no background commands")];
  } else {
    const t = s.current ? s.transcripts[s.current] : undefined;
    const rows = t ? boardRows(t) : [];
    count = rows.length;
    body = boardLines(p, { rows, selected: index, focused, now: Date.now(), ascii, asks: t ? asksOf(t.blocks) : {} }, inner, bodyHeight);
  }
  ctl.results = measure ?? { count, hunks };
  const t = s.current ? s.transcripts[s.current] : undefined;
  const turns = t?.checkpoints.length ?? 0;
  const running = t?.jobs.filter((j) => j.state === "running").length ?? 0;
  const active = t?.agents.filter(isActive).length ?? 0;
  const counts = { changes: changed.length, turns, reads: reads.length, ...(running ? { jobs: running } : {}), ...(active ? { agents: active } : {}) };
  const lines = [tabBar(p, tab, counts, inner, shownTabs(tab, turns > 0)), ...body];
  while (lines.length < height) lines.push("");
  const bar = p[focused ? "borderFocused" : "border"](ascii ? "|" : "│");
  return lines.slice(0, height).map((l) => `${bar} ${padToWidth(l, inner)}`);
}

/** The unanswered questions of subagents, by agent id. */
function asksOf(blocks: readonly Block[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of blocks) {
    if (b.kind === "approval" && b.resolved === null && b.agentId && !out[b.agentId]) out[b.agentId] = approvalTitle(b);
  }
  return out;
}

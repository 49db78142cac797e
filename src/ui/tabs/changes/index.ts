// The Changes tab: the files this task wrote, and the open one's word-level diff with hunk jumps.
import type { AppServices } from "../../context/services.js";
import { diffFile, renderDiff, type RenderedDiff } from "../../render/diff.js";
import { truncateToWidth, wrapLine } from "../../render/wrap.js";
import type { AppState } from "../../state/store.js";
import { diffStyles, listLines } from "../../view/panes.js";
import { REMOTE_CHANGES } from "../../view/turns-view.js";
import { paneAction, taskOf, type ResultsTabDef, type TabLines } from "../tab.js";

const diffCache = new WeakMap<AppServices, { key: unknown[]; diff: RenderedDiff }>();

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

const lines: TabLines = (s, sv, inner, height, focused) => {
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

/** The Changes tab: Enter opens (or closes) the selected file's diff; hunk keys then move in it. */
export const changesTab: ResultsTabDef = {
  label: "Changes",
  short: "Chg",
  lines,
  slices: (s) => [
    s.ui.resultsIndex,
    s.ui.diffPath,
    s.ui.diffHunk,
    taskOf(s)?.changed,
    s.shown,
    s.current ? s.tasks[s.current]?.snapshot.location : null,
  ],
  keys(host, key) {
    if (paneAction(host, key) !== "listSelect") return false;
    const id = host.state.current;
    const path = id ? host.state.transcripts[id]?.changed[host.ui.resultsIndex] : undefined;
    if (path) host.setUi((u) => ({ ...u, diffPath: u.diffPath === path ? null : path, diffHunk: 0 }));
    return true;
  },
};

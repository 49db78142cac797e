// The Changes tab: the files this task wrote, and the open one's word-level diff with hunk jumps.
import type { AppServices } from "../../context/services.js";
import { diffFile, renderDiff, type RenderedDiff } from "../../render/diff.js";
import { truncateToWidth, wrapLine } from "../../render/wrap.js";
import { selector } from "../../state/select.js";
import type { AppState, ShownFile } from "../../state/store.js";
import { diffStyles, listLines } from "../../view/panes.js";
import { REMOTE_CHANGES } from "../../view/turns-view.js";
import { defineTab, paneAction, taskOf, type TabLines } from "../tab.js";

interface ChangesModel {
  changed: readonly string[] | undefined;
  index: number;
  diffPath: string | null;
  diffHunk: number;
  /** The open file as the settle step read it (AppState.shown). */
  file: ShownFile | undefined;
  remote: boolean;
}

const select = selector(
  (s: AppState): ChangesModel => ({
    changed: taskOf(s)?.changed,
    index: s.ui.resultsIndex,
    diffPath: s.ui.diffPath,
    diffHunk: s.ui.diffHunk,
    file: s.ui.diffPath ? s.shown[s.ui.diffPath] : undefined,
    remote: Boolean(s.current && s.tasks[s.current]?.snapshot.location === "remote"),
  }),
);

const diffCache = new WeakMap<AppServices, { key: unknown[]; diff: RenderedDiff }>();

/** The open file's diff: from the content before this session's first write to now (both read by the controller). */
function changesDiff(m: ChangesModel, sv: AppServices, path: string, inner: number): RenderedDiff {
  const p = sv.palette;
  if (m.remote)
    return {
      lines: [truncateToWidth(p.title(path), inner), ...wrapLine(p.dim(REMOTE_CHANGES), inner, { words: true })],
      hunkStarts: [],
    };
  const file = m.file;
  if (!file) return { lines: [truncateToWidth(p.title(path), inner), p.dim("reading…")], hunkStarts: [] };
  const key = [path, file, inner, p];
  const hit = diffCache.get(sv);
  if (hit && hit.key.every((k, i) => k === key[i])) return hit.diff;
  const diff = renderDiff(diffFile(file.before, file.now), { width: inner, styles: diffStyles(p), path });
  diffCache.set(sv, { key, diff });
  return diff;
}

const lines: TabLines<ChangesModel> = (m, sv, inner, height, focused) => {
  const changed = m.changed ?? [];
  const { diffPath, diffHunk: hunk } = m;
  if (!diffPath)
    return {
      body: listLines(
        sv.palette,
        changed.map((f) => `M ${f}`),
        m.index,
        focused,
        inner,
        height,
        "no files changed by this task yet",
      ),
      measure: { count: changed.length, hunks: 0 },
    };
  const diff = changesDiff(m, sv, diffPath, inner);
  const hunks = diff.hunkStarts.length;
  const start = diff.hunkStarts[Math.min(hunk, Math.max(0, hunks - 1))] ?? 0;
  const offset = Math.max(0, Math.min(Math.max(0, diff.lines.length - height), start));
  return { body: diff.lines.slice(offset, offset + height), measure: { count: changed.length, hunks } };
};

/** The Changes tab: Enter opens (or closes) the selected file's diff; hunk keys then move in it. */
export const changesTab = defineTab({
  label: "Changes",
  short: "Chg",
  select,
  lines,
  keys(host, key) {
    if (paneAction(host, key) !== "listSelect") return false;
    const id = host.state.current;
    const path = id ? host.state.transcripts[id]?.changed[host.ui.resultsIndex] : undefined;
    if (path) host.setUi((u) => ({ ...u, diffPath: u.diffPath === path ? null : path, diffHunk: 0 }));
    return true;
  },
});

import type { Key } from "../input/keys.js";
import type { WorktreeView } from "../state/ui-state.js";
import type { Controller } from "./controller.js";

/** /diff: reads the working tree's diff again and shows it in the results pane, focused. */
export function openWorktreeDiff(ctl: Controller): void {
  const ws = ctl.deps.workspace;
  if (!ws) return;
  const seq = (ctl.ui.worktreeDiff?.seq ?? 0) + 1;
  ctl.setUi((ui) => (ui.worktreeDiff ? { ...ui, worktreeDiff: { ...ui.worktreeDiff, loading: true, seq } } : ui));
  ctl.status("reading the working tree's changes…", "info", 30_000);
  void ws.worktree().then((result) => {
    if (ctl.ui.worktreeDiff && ctl.ui.worktreeDiff.seq !== seq) return;
    if (!result.ok) {
      ctl.status(`/diff: ${result.error}`, "error", 8_000);
      ctl.setUi((ui) =>
        ui.worktreeDiff ? { ...ui, worktreeDiff: { ...ui.worktreeDiff, result, loading: false } } : ui,
      );
      return;
    }
    const files = result.files;
    const added = files.reduce((n, f) => n + f.added, 0);
    const removed = files.reduce((n, f) => n + f.removed, 0);
    ctl.status(
      files.length === 0
        ? "/diff: no changes against HEAD and no untracked files"
        : `/diff: ${files.length} file${files.length === 1 ? "" : "s"} (+${added} -${removed}), untracked included`,
    );
    ctl.setUi((ui) => {
      // A refresh keeps the selected file (by name) and whether it was open.
      const was = ui.worktreeDiff;
      const old = was?.result?.ok ? was.result.files[was.index]?.path : undefined;
      // First read: the first file with text to show (a binary file's "binary" says little).
      const index = Math.max(
        0,
        old === undefined ? files.findIndex((f) => f.patch !== null) : files.findIndex((f) => f.path === old),
      );
      const open = Boolean(was?.open && old !== undefined && files[index]?.path === old);
      return {
        ...ui,
        resultsOpen: true,
        focus: "results",
        resultsTab: "diff",
        resultsIndex: 0,
        worktreeDiff: { result, loading: false, seq, index, open, offset: 0, hunk: 0 },
      };
    });
    ctl.agentsForward.picked(ctl.state.current);
  });
}

/** The Diff tab's keys while the results pane has focus; false leaves the key to the pane. */
export function diffTabKey(ctl: Controller, key: Key): boolean {
  const view = ctl.ui.worktreeDiff;
  if (!view?.result?.ok) return false;
  const count = view.result.files.length;
  const m = ctl.results;
  const set = (change: Partial<WorktreeView>) =>
    ctl.setUi((u) => (u.worktreeDiff ? { ...u, worktreeDiff: { ...u.worktreeDiff, ...change } } : u));
  const last = Math.max(0, (m?.lines ?? 0) - (m?.height ?? 0));
  const clamp = (offset: number) => Math.max(0, Math.min(last, offset));
  const action = ctl.action(key, [
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
    case "stop":
      if (!view.open) return false;
      set({ open: false, offset: 0 });
      return true;
    case "listSelect":
      if (count > 0) set({ open: !view.open, offset: 0, hunk: 0 });
      return true;
    case "listUp":
    case "listDown": {
      const step = action === "listUp" ? -1 : 1;
      if (view.open) set({ offset: clamp(view.offset + step) });
      else set({ index: Math.max(0, Math.min(count - 1, view.index + step)), offset: 0, hunk: 0 });
      return true;
    }
    case "scrollUp":
    case "scrollDown": {
      if (!view.open) return false;
      const page = Math.max(1, (m?.height ?? 10) - 1);
      set({ offset: clamp(view.offset + (action === "scrollUp" ? -page : page)) });
      return true;
    }
    case "nextHunk":
    case "prevHunk": {
      // From the list too: the selected file opens at the hunk.
      const starts = m?.hunkStarts ?? [];
      if (starts.length === 0) {
        ctl.status("no hunks in this file");
        return true;
      }
      const from = view.open ? view.hunk : action === "nextHunk" ? -1 : 0;
      const next = (from + (action === "nextHunk" ? 1 : starts.length - 1)) % starts.length;
      // Measured on the list, `last` is not the open view's: clamp again when drawn (diff-view.ts).
      set({ open: true, hunk: next, offset: view.open ? clamp(starts[next]!) : starts[next]! });
      ctl.status(`hunk ${next + 1} of ${starts.length}`);
      return true;
    }
    default:
      return false;
  }
}

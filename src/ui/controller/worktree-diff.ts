// /diff: reads the working tree's diff through the workspace source and opens the Diff tab on it
// (the tab itself: ../tabs/diff/).
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

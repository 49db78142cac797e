// The Diff tab's keys: ↑↓ pick a file, Enter opens or closes its diff, hunk keys jump (from the
// list too), PgUp/PgDn scroll an open diff, Esc closes it (then the pane's Esc: back to the input).
import type { AreaHost } from "../../controller/host.js";
import type { Key } from "../../input/keys.js";
import type { WorktreeView } from "../../state/ui-state.js";

/** The Diff tab's keys while the results pane has focus; false leaves the key to the pane. */
export function diffTabKey(host: AreaHost, key: Key): boolean {
  const view = host.ui.worktreeDiff;
  if (!view?.result?.ok) return false;
  const count = view.result.files.length;
  const m = host.results;
  const set = (change: Partial<WorktreeView>) =>
    host.setUi((u) => (u.worktreeDiff ? { ...u, worktreeDiff: { ...u.worktreeDiff, ...change } } : u));
  const last = Math.max(0, (m?.lines ?? 0) - (m?.height ?? 0));
  const clamp = (offset: number) => Math.max(0, Math.min(last, offset));
  const action = host.action(key, [
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
        host.status("no hunks in this file");
        return true;
      }
      const from = view.open ? view.hunk : action === "nextHunk" ? -1 : 0;
      const next = (from + (action === "nextHunk" ? 1 : starts.length - 1)) % starts.length;
      // Measured on the list, `last` is not the open view's: clamp again when drawn (view.ts).
      set({ open: true, hunk: next, offset: view.open ? clamp(starts[next]!) : starts[next]! });
      host.status(`hunk ${next + 1} of ${starts.length}`);
      return true;
    }
    default:
      return false;
  }
}

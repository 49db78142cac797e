// What the screen derives from the state and must remember between frames, brought up to date
// before each frame (Store.setSettle) so that rendering only reads: where follow mode last jumped
// to in the transcript on screen, the workspace files an open diff shows (read here, not in a
// render) and since when the approval card is on screen. Also the controller's measures of what is
// on screen, computed from the same functions.
import type { Controller } from "../controller/controller.js";
import type { AppServices } from "../context/services.js";
import { screenLayoutOf } from "../layout/screen-layout.js";
import { resultsTabBar, selectResultsBar, tabBody } from "../panes/results.js";
import { agentViewPane } from "../dialogs/agent-view.js";
import { dialogScope, selectDialog } from "../panes/dialog-area.js";
import { carryFrames, selectTranscript, transcriptFrame } from "../panes/transcript-pane.js";
import type { AppState, FollowTop, ShownFile } from "../state/store.js";
import type { Measures } from "../view/measures.js";
import { noteCardShown } from "../layout/card-on-screen.js";

export function measuresOf(sv: AppServices): Measures {
  const state = () => sv.store.getState();
  return {
    view: () => {
      const s = state();
      const g = screenLayoutOf(s.ui);
      return g.centreWidth > 0 ? transcriptFrame(selectTranscript(s), sv, g.centreWidth, g.bodyHeight).measure : null;
    },
    results: () => {
      const s = state();
      const g = screenLayoutOf(s.ui);
      const width = g.sideResults || (g.centre === "results" ? g.centreWidth : 0);
      if (width <= 2) return null;
      // The tab bar takes one or two rows (../tabs/tab-bar.ts); the tab gets the rest, as when drawn.
      const bar = resultsTabBar(selectResultsBar(s), sv, width - 2).length;
      return tabBody(s, sv, width - 2, g.bodyHeight - bar).measure;
    },
    agentView: () => {
      const s = state();
      const d = s.ui.dialog;
      const g = screenLayoutOf(s.ui);
      return d?.kind === "agent"
        ? agentViewPane(dialogScope(selectDialog(s)), sv, d, g.centreWidth, g.bodyHeight).measure
        : null;
    },
  };
}

/** The local files a diff on screen shows: the Changes tab's open file, the Turns tab's. */
function shownPaths(s: AppState): string[] {
  const remote = (taskId: string | null) => Boolean(taskId && s.tasks[taskId]?.snapshot.location === "remote");
  const paths: string[] = [];
  if (s.ui.diffPath && !remote(s.current)) paths.push(s.ui.diffPath);
  const d = s.ui.turnDiff;
  if (d && !remote(d.taskId) && !paths.includes(d.path)) paths.push(d.path);
  return paths;
}

export interface Settle {
  (state: AppState): AppState;
  /** The workspace may have changed (a tool finished, files were restored): read shown files again. */
  filesChanged(): void;
}

export function createSettle(sv: AppServices): Settle {
  let stale = false;
  const settle = (s: AppState): AppState => {
    // Settled right before the frame that draws it: the card's time on screen starts here.
    let next = noteCardShown(s, sv.ctl.now());
    // Files first: a diff's length changes what the measures see.
    const paths = shownPaths(s);
    const known = Object.keys(s.shown);
    if (stale || paths.some((p) => !s.shown[p]) || known.some((p) => !paths.includes(p))) {
      const shown: Record<string, ShownFile> = {};
      for (const p of paths)
        shown[p] = !stale && s.shown[p] ? s.shown[p] : { before: sv.before.get(p) ?? null, now: sv.readFile(p) };
      next = { ...next, shown };
      stale = false;
    }
    const g = screenLayoutOf(next.ui);
    // Every transcript keeps its last jump (switching back resumes it while the size is the same).
    const follow: Record<string, FollowTop> = { ...next.follow };
    let changed = false;
    const keep = (key: string, top: FollowTop) => {
      follow[key] = top;
      const was = next.follow[key];
      if (
        !was ||
        was.width !== top.width ||
        was.height !== top.height ||
        was.top?.block !== top.top?.block ||
        was.top?.line !== top.top?.line
      )
        changed = true;
    };
    if (g.centre === "transcript" && next.current) {
      const f = transcriptFrame(selectTranscript(next), sv, g.centreWidth, g.bodyHeight).follow;
      if (f) keep(next.current, f);
    }
    const d = next.ui.dialog;
    if (d?.kind === "agent") {
      const f = agentViewPane(dialogScope(selectDialog(next)), sv, d, g.centreWidth, g.bodyHeight).follow;
      if (f) keep(f.key, f.top);
    }
    if (!changed) return next;
    const settled = { ...next, follow };
    carryFrames(selectTranscript(next), selectTranscript(settled));
    return settled;
  };
  return Object.assign(settle, { filesChanged: () => void (stale = true) });
}

/** Wires the screen's derived state: the controller's measures and the store's settle step. */
export function connectScreen(sv: AppServices, ctl: Controller): Settle {
  const settle = createSettle(sv);
  ctl.measures = measuresOf(sv);
  sv.store.setSettle(settle);
  return settle;
}

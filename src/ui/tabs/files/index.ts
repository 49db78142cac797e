// The Files tab: the workspace's files as a tree (a plain list: the pane's list keys only).
import { fileTree, listLines } from "../../view/panes.js";
import { selector } from "../../state/select.js";
import type { AppState } from "../../state/store.js";
import { defineTab, type TabLines } from "../tab.js";

/** The listing itself is a service (the controller's `paths`): it arrives once, with a redraw. */
interface FilesModel {
  index: number;
  redraws: number;
}

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

const lines: TabLines<FilesModel> = (m, sv, inner, height, focused) => {
  const tree = fileTreeOf(sv.ctl.paths());
  return {
    body: listLines(sv.palette, tree, m.index, focused, inner, height, "no files (or still listing)"),
    measure: { count: tree.length, hunks: 0 },
  };
};

export const filesTab = defineTab({
  label: "Files",
  short: "Fil",
  select: selector((s: AppState): FilesModel => ({ index: s.ui.resultsIndex, redraws: s.redraws })),
  lines,
});

// The Files tab: the workspace's files as a tree (a plain list: the pane's list keys only).
import { fileTree, listLines } from "../../view/panes.js";
import type { ResultsTabDef, TabLines } from "../tab.js";

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

const lines: TabLines = (s, sv, inner, height, focused) => {
  const tree = fileTreeOf(sv.ctl.deps.paths());
  return {
    body: listLines(sv.palette, tree, s.ui.resultsIndex, focused, inner, height, "no files (or still listing)"),
    measure: { count: tree.length, hunks: 0 },
  };
};

export const filesTab: ResultsTabDef = {
  label: "Files",
  short: "Fil",
  lines,
  slices: (s) => [s.ui],
};

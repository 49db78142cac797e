import { diffTabKey } from "../../controller/diff-tab.js";
import type { ResultsTabSpec } from "./tab.js";

/** The Diff tab (/diff): the worktree's files, Enter opens one, Esc closes it (controller/diff-tab.ts). */
export const diffTab: ResultsTabSpec = { keys: diffTabKey };

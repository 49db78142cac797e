import type { ResultsTabSpec } from "./tab.js";

/** A plain list tab (Files, Reads, Todo): no keys of its own, the pane's list keys only. */
export const listTab: ResultsTabSpec = { keys: () => false };

import { turnsTabKey } from "../../controller/rewind.js";
import type { ResultsTabSpec } from "./tab.js";

/** The Turns tab: Enter rewinds a turn or opens a file's diff, u reverts a file (controller/rewind.ts). */
export const turnsTab: ResultsTabSpec = { keys: turnsTabKey };

// Process checks for tests: a killed process may linger as a zombie until init reaps it.
import { readFileSync } from "node:fs";

/** Alive and not a zombie waiting to be reaped. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z";
  } catch {
    return false;
  }
}

// Wraps every sandboxed command (foreground, background, git tools) in the protected-path check:
// a snapshot before, changes reverted after, a notice for the model and the user.
import { writableRootsOf } from "../sandbox/landlock.js";
import { revertNotice, revertProtected, snapshotProtected, type Snapshot } from "../sandbox/integrity.js";
import { protectedSet, type ProtectedSet } from "../sandbox/protected.js";
import type { ToolContext } from "./define.js";

const STORE_KEY = "protect-guard";

/**
 * One per session. The baseline is taken when no sandboxed command of the session runs, and kept
 * while any does: a background job's change is then reverted after the next command too, instead
 * of becoming the next command's "before".
 */
interface GuardState {
  running: number;
  baseline: Snapshot | null;
}

/** Ends one guarded command: reverts what changed and returns the notice, or null. */
export type GuardEnd = () => string | null;

/**
 * Contract: call before starting a command with `prefix` (the sandbox helper's argv); returns
 * the function to call once it ended, or null when the command is not sandboxed for writing
 * (off, or read-only, where nothing is writable). Never throws: a failing check is a notice.
 */
export function beginGuard(ctx: ToolContext, prefix: string[]): GuardEnd | null {
  const sandbox = ctx.sandbox;
  if (!sandbox || prefix.length === 0 || sandbox.mode === "read-only" || sandbox.mode === "off") return null;
  const set: ProtectedSet = protectedSet(
    writableRootsOf({ workspace: ctx.workspace, writableRoots: sandbox.writableRoots }),
  );
  const store = ctx.session?.store;
  let state = store?.get(STORE_KEY) as GuardState | undefined;
  if (!state) {
    state = { running: 0, baseline: null };
    store?.set(STORE_KEY, state);
  }
  const guard = state;
  if (guard.running === 0 || guard.baseline === null) guard.baseline = snapshotProtected(set);
  const baseline = guard.baseline;
  guard.running++;
  let ended = false;
  return () => {
    if (ended) return null;
    ended = true;
    guard.running--;
    try {
      return revertNotice(revertProtected(set, baseline));
    } catch (error) {
      return `[protected paths] The check after this command failed (${(error as Error).message}); look at .git/config and .git/hooks before running git.`;
    } finally {
      if (guard.running === 0) guard.baseline = null;
    }
  };
}

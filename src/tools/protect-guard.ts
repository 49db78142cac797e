// Wraps every sandboxed command (foreground, background, git tools) in the protected-path check:
// a snapshot before, changes reverted after, a notice for the model and the user. The baseline is
// shared by every command of the workspace, across sessions and processes (sandbox/guard-store.ts).
import { beginSharedGuard, type GuardEnd } from "../sandbox/guard-store.js";
import { writableRootsOf } from "../sandbox/writable-roots.js";
import { protectedSet } from "../sandbox/protected.js";
import { SandboxRefusal, type ToolContext } from "./define.js";

export type { GuardEnd };

/**
 * Contract: call before starting a command with `prefix` (the sandbox helper's argv); returns
 * the function to call once it ended, or null when the command is not sandboxed for writing
 * (off, or read-only, where nothing is writable). Throws a ToolError (the command is refused) when
 * the protected paths cannot be checked; the returned function never throws.
 */
export function beginGuard(ctx: ToolContext, prefix: string[]): GuardEnd | null {
  const sandbox = ctx.sandbox;
  if (!sandbox || prefix.length === 0 || sandbox.mode === "read-only" || sandbox.mode === "off") return null;
  const set = protectedSet(writableRootsOf({ workspace: ctx.workspace, writableRoots: sandbox.writableRoots }));
  try {
    return beginSharedGuard(set);
  } catch (error) {
    throw new SandboxRefusal(
      `not run: ${(error as Error).message}. Protected paths (git hooks and config, ...) are checked after every command, and this one could not be; clean up the folder named, or ask the user`,
      "unchecked",
    );
  }
}

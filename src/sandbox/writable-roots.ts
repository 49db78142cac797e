// The roots a workspace-write command may write beneath. Apart from the Landlock front end
// (landlock.ts), which loads only when a command runs: extensions and the protected-path guard need
// the roots without it.
import { resolve } from "node:path";
import type { SandboxPolicy } from "./landlock.js";
import { commandTempDir } from "./temp-dir.js";

/** Every root a workspace-write command may write beneath: where protected paths must be guarded. */
export function writableRootsOf(policy: Pick<SandboxPolicy, "workspace" | "writableRoots">): string[] {
  return [
    resolve(policy.workspace),
    ...policy.writableRoots.map((r) => resolve(policy.workspace, r)),
    commandTempDir(policy.workspace).dir,
  ];
}

// The total orders by which an untrusted workspace config may only tighten safety settings: each
// safety key's values listed from loosest to strictest, and the comparison the trust gate uses.
import type { ApprovalPolicy, PermissionMode } from "../protocol/enums.js";
import type { SandboxMode } from "./levels.js";

/**
 * Loosest first, strictest last. Written down here and in the README ("Workspace trust"):
 * - sandbox.mode: off < auto (falls back to off without Landlock) < workspace-write < read-only
 * - sandbox.network: on (true) < off (false)
 * - sandbox.writableRoots: any non-empty list < [] (a workspace can never add a root; two
 *   non-empty lists are never compared, so a non-empty list is never stricter)
 * - mode: goal (no questions) < accept-edits (edits unasked) < default < debug (runs commands,
 *   never writes) < plan (neither writes nor runs)
 * - approval: never < on-request < untrusted
 * - allowProtectedWrites: true < false
 */
export const sandboxModeOrder: readonly SandboxMode[] = ["off", "auto", "workspace-write", "read-only"];
export const permissionModeOrder: readonly PermissionMode[] = ["goal", "accept-edits", "default", "debug", "plan"];
export const approvalOrder: readonly ApprovalPolicy[] = ["never", "on-request", "untrusted"];
/** For booleans where true is the looser value (network on, protected writes allowed). */
export const looseTrueOrder: readonly boolean[] = [true, false];

/** True when `candidate` comes strictly later (is stricter) than `baseline` in `order`. */
export function strictlyStricter<T>(order: readonly T[], candidate: T, baseline: T): boolean {
  return order.indexOf(candidate) > order.indexOf(baseline);
}

/** writableRoots: only "none" is stricter, and only than a non-empty list. */
export function rootsStricter(candidate: readonly string[], baseline: readonly string[]): boolean {
  return candidate.length === 0 && baseline.length > 0;
}

// The seal on the gate's decisions. The registry runs a tool only on a decision the gate sealed,
// so a front end that builds its own "allow" (or none) cannot run anything: the type cannot be
// written without `seal`, and the registry checks the object itself at run time. Only the gate
// (src/agent/gate.ts) imports `seal`; the import rule `only-the-gate-seals` holds that.
import type { AnyTool } from "./define.js";

declare const sealed: unique symbol;

/** A subagent whose call needs approval: the card says who asks, and its board row shows it waits. */
export interface AskingChild {
  agentId: string;
  name: string;
  waiting(on: boolean): void;
}

/** A call the gate let through: with `args` to run instead when it rewrote them (a trusted git command). */
export type GateAllow = { allow: true; args?: Record<string, unknown>; asked?: boolean };
export type GateRefuse = { allow: false; reason: string; asked?: boolean };
/** `asked`: a person was asked (the time until the answer is not the tool's). */
export type GateDecision = (GateAllow | GateRefuse) & { readonly [sealed]: true };

/** What the registry asks before every call. */
export interface ToolGate {
  authorize(
    tool: AnyTool,
    args: Record<string, unknown>,
    call: { id: string },
    who?: AskingChild,
  ): Promise<GateDecision>;
}

const issued = new WeakSet<object>();

/** Marks a decision as the gate's. Contract: called by the gate alone. */
export function seal(decision: GateAllow | GateRefuse): GateDecision {
  const frozen = Object.freeze({ ...decision });
  issued.add(frozen);
  return frozen as GateDecision;
}

/** True only for a decision `seal` made. */
export function isSealed(decision: unknown): decision is GateDecision {
  return typeof decision === "object" && decision !== null && issued.has(decision);
}

// `nanohermes policy check`: how a command would be classified, without running it. The answer
// comes from `decide()` itself, so the check and the agent can never disagree.
import { createInterface } from "node:readline";
import { approvalPolicies, type ApprovalPolicy } from "../protocol/enums.js";
import { decide, newRemembered } from "./policy.js";

export interface PolicyCheck {
  /**
   * `trusted`: runs without asking under the given policy; `ask`: needs approval under it;
   * `dangerous`: asks even under `never` (only --yolo skips it); `blocked`: refused in every
   * mode, by the unrecoverable blocklist or a user deny rule.
   */
  decision: "trusted" | "ask" | "dangerous" | "blocked";
  rule: string | null;
  reason: string;
}

/** Classifies `command` as `run_command` would see it in the default mode. Pure; never throws. */
export function policyCheck(
  command: string,
  approval: ApprovalPolicy = "on-request",
  deny: readonly string[] = [],
): PolicyCheck {
  const v = decide({
    tool: "run_command",
    kind: "exec",
    args: { command },
    approval,
    mode: "default",
    remembered: newRemembered(),
    deny,
  });
  const rule = v.rule && !v.rule.startsWith("approval:") ? v.rule : null;
  if (v.decision === "deny") return { decision: "blocked", rule, reason: v.reason };
  if (v.danger === "dangerous") return { decision: "dangerous", rule, reason: v.reason };
  return { decision: v.decision === "allow" ? "trusted" : "ask", rule, reason: v.reason };
}

export interface PolicyCheckIO {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  stdin: NodeJS.ReadableStream;
}

const USAGE =
  "usage: nanohermes policy check [--approval never|on-request|untrusted] [--deny GLOB]... [--json] [--stdin] [--] COMMAND";

const line = (c: PolicyCheck) =>
  `${c.decision}${c.rule ? ` [${c.rule}]` : ""}: ${c.reason.replace(/^dangerous: /, "")}\n`;
const json = (c: PolicyCheck) => `${JSON.stringify({ decision: c.decision, rule: c.rule, reason: c.reason })}\n`;

/**
 * Runs `policy check` with `argv` = the words after `check`. The command is the words after `--`
 * (or the first non-option word onwards), joined by spaces: quote it as one argument to keep its
 * own quoting. `--stdin` reads one command per line and writes one JSON line per input line, in
 * order. Exit status 0 whatever the decision, 2 on a usage error.
 */
export async function runPolicyCheck(argv: string[], io: PolicyCheckIO): Promise<number> {
  let approval: ApprovalPolicy = "on-request";
  let asJson = false;
  let fromStdin = false;
  const deny: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      i++;
      break;
    }
    if (!arg.startsWith("-")) break;
    if (arg === "--json") asJson = true;
    else if (arg === "--stdin") fromStdin = true;
    else if (arg === "--approval" || arg.startsWith("--approval=") || arg === "--deny" || arg.startsWith("--deny=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (value === undefined) return usage(io, `${arg} needs a value`);
      if (arg.startsWith("--deny")) deny.push(value);
      else if ((approvalPolicies as readonly string[]).includes(value)) approval = value as ApprovalPolicy;
      else return usage(io, `unknown approval policy "${value}"`);
    } else if (arg === "-h" || arg === "--help") {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    } else return usage(io, `unknown option ${arg}`);
  }
  const command = argv.slice(i).join(" ");
  if (fromStdin) {
    if (command !== "") return usage(io, "--stdin takes no command argument");
    const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
    for await (const text of lines) io.stdout.write(json(policyCheck(text, approval, deny)));
    return 0;
  }
  if (command.trim() === "") return usage(io, "no command to check");
  const result = policyCheck(command, approval, deny);
  io.stdout.write(asJson ? json(result) : line(result));
  return 0;
}

function usage(io: PolicyCheckIO, problem: string): number {
  io.stderr.write(`nanohermes policy check: ${problem}\n${USAGE}\n`);
  return 2;
}

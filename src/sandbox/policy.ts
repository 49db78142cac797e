// The approval decision for one tool call, and the rule that decided it. Order: the unrecoverable
// blocklist, the user's deny rules, the permission mode's gates, dangerous commands (ask even
// under `never`, unless --yolo), what the user allowed "always" for this task, the approval policy.
import type { ApprovalPolicy, PermissionMode, ToolKind } from "../protocol/events.js";
import { classifyCommand, type Classification } from "./classify.js";
import { baseName, parseShell, type Redirect } from "./shell-parse.js";
import { classifyDanger } from "./dangerous.js";
import { matchDeny } from "./deny.js";
import type { Remembered } from "./remembered.js";

export interface Verdict {
  decision: "allow" | "ask" | "deny";
  /** One line for the approval card, the refusal sent to the model and `policy check`. */
  reason: string;
  /** The rule that decided: a danger rule name, a user deny glob, `mode:<m>` or `approval:<p>`. */
  rule?: string;
  /** For a compound command, the part that made it need approval or be refused. */
  part?: string;
  /** Set when a dangerous-command rule or the blocklist decided. */
  danger?: "dangerous" | "blocked";
  /** With `danger`: the rule's reason in plain words, without the rule name or the part (the card shows those apart). */
  plain?: string;
  /** Allowed because it is a recognised read-only command: run it as trustedCommandArgv gives it. */
  readOnly?: true;
}

export { newRemembered, type Remembered } from "./remembered.js";

export interface PolicyInput {
  tool: string;
  kind: ToolKind;
  args: Record<string, unknown>;
  approval: ApprovalPolicy;
  mode: PermissionMode;
  remembered: Remembered;
  /** --yolo: no approvals at all; the blocklist, deny rules and mode gates still hold. Default false. */
  yolo?: boolean;
  /** The user's deny globs from config. Default none. */
  deny?: readonly string[];
  /** For kind "mcp": the server marks the tool read-only, or the user trusts the server. */
  mcp?: { readOnly: boolean; trusted: boolean };
  /** The call leaves work that runs later unattended (a cron job): see decideScheduling. */
  schedules?: boolean;
}

/** The rule a scheduling verdict names: its "always" covers the tool for the task only. */
export const SCHEDULING_RULE = "scheduling";

/**
 * A call that schedules work (creates, changes, starts or removes a cron job) consents to runs
 * nobody will watch, so it is asked about under every policy and in every mode but plan (refused)
 * like a dangerous command: only --yolo, an "always" answer for the tool in this task or
 * `--allow tool:NAME` let it through unasked.
 */
function decideScheduling(input: PolicyInput): Verdict {
  if (input.mode === "plan")
    return {
      decision: "deny",
      reason: "plan mode is read-only: describe the scheduled job instead of changing it",
      rule: "mode:plan",
    };
  if (input.yolo) return { decision: "allow", reason: "--yolo: no approvals" };
  if (input.remembered.tools.has(input.tool))
    return { decision: "allow", reason: "allowed always for this task", rule: SCHEDULING_RULE };
  return {
    decision: "ask",
    reason:
      "a scheduled job runs later with nobody to answer for it, so changing one is asked about under every policy",
    rule: SCHEDULING_RULE,
  };
}

export function commandOf(args: Record<string, unknown>): string | undefined {
  return typeof args.command === "string" ? args.command : undefined;
}

/** `reason (rule r, in `part`)`, naming the part only when it is not the whole command. */
function named(reason: string, rule: string, part: string | null | undefined, command: string): string {
  const where = part && part !== command.trim() ? `, in \`${part}\`` : "";
  return `${reason} (rule ${rule}${where})`;
}

const withPart = (part: string | null | undefined, command: string) =>
  part && part !== command.trim() ? { part } : {};

/** Redirections that write somewhere other than /dev/null or another descriptor. */
const writes = (r: Redirect) => /^(>|>>|>\||&>|&>>|<>)$/.test(r.op) && r.target?.text !== "/dev/null";

/**
 * True when the user's "always" rules cover `command`: the exact text was accepted, or every part
 * is covered by a remembered prefix (word by word) or, under on-request, is read-only. A part
 * with a substitution or a redirection that writes is never covered by a prefix.
 */
export function coveredByRemembered(command: string, remembered: Remembered, approval: ApprovalPolicy): boolean {
  if (remembered.commands.has(command)) return true;
  if (remembered.prefixes.size === 0) return false;
  const parsed = parseShell(command);
  const parts = parsed.pipelines.flatMap((p) => p.commands);
  if (!parsed.complete || parsed.nested.length > 0 || parts.length === 0) return false;
  return parts.every((cmd) => {
    if (cmd.redirects.some(writes) || cmd.words.some((w) => w.dynamic)) return false;
    const text = cmd.words.map((w) => w.text).join(" ");
    if ([...remembered.prefixes].some((p) => text === p || text.startsWith(`${p} `))) return true;
    return remembered.commands.has(cmd.raw) || (approval === "on-request" && classifyCommand(cmd.raw).readOnly);
  });
}

/** Programs whose every use is its own decision: shells, interpreters, wrappers, deleters, network. */
const NO_PREFIX = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "fish",
  "python",
  "python3",
  "node",
  "perl",
  "ruby",
  "php",
  "deno",
  "eval",
  "exec",
  "source",
  "sudo",
  "doas",
  "su",
  "env",
  "xargs",
  "nice",
  "nohup",
  "timeout",
  "time",
  "command",
  "watch",
  "rm",
  "mv",
  "cp",
  "dd",
  "ln",
  "chmod",
  "chown",
  "chgrp",
  "kill",
  "pkill",
  "killall",
  "truncate",
  "shred",
  "tee",
  "curl",
  "wget",
  "ssh",
  "scp",
  "rsync",
  "nc",
  "find",
  "sed",
  "awk",
  "docker",
]);
/** Subcommands that fetch and run third-party code: remembered exactly, never as a prefix. */
const INSTALLS = new Set(["install", "i", "add", "exec", "x", "dlx", "get", "publish", "uninstall", "remove"]);
/**
 * The git subcommands a prefix may cover. Others (reset, push, clean, checkout, rebase, branch,
 * stash...) can discard work or rewrite history depending on their arguments, so `git reset`
 * learned from one reset must not cover `git reset --hard origin` or `git reset HEAD~3`.
 */
const GIT_PREFIXES = new Set([
  "add",
  "commit",
  "fetch",
  "pull",
  "status",
  "log",
  "diff",
  "show",
  "blame",
  "grep",
  "ls-files",
  "describe",
  "shortlog",
  "mv",
]);
const RUNNERS = new Set(["npm", "pnpm", "yarn", "bun"]);

/**
 * The prefix an "always" answer remembers, or null to remember the exact command. A prefix is the
 * program and its subcommand words (up to two, three for `npm run x`), never a bare program:
 * `npm run test -- x` -> `npm run test`, `cargo test --release` -> `cargo test`,
 * `git commit -m x` -> `git commit`. Compound commands, substitutions, assignments, paths,
 * shells and interpreters, deleters, network tools and package installs stay exact.
 */
export function suggestPrefix(command: string): string | null {
  const parsed = parseShell(command);
  const only =
    parsed.pipelines.length === 1 && parsed.pipelines[0]!.commands.length === 1
      ? parsed.pipelines[0]!.commands[0]!
      : undefined;
  if (!parsed.complete || parsed.nested.length > 0 || !only || only.redirects.length > 0) return null;
  const words = only.words.map((w) => w.text);
  const program = words[0];
  if (
    !program ||
    program.includes("/") ||
    program.includes("=") ||
    NO_PREFIX.has(baseName(program)) ||
    only.words.some((w) => w.dynamic || w.expands)
  )
    return null;
  const take = [program];
  const max = RUNNERS.has(program) && (words[1] === "run" || words[1] === "run-script") ? 3 : 2;
  for (const word of words.slice(1, max)) {
    if (!/^[a-z][a-z0-9:._-]*$/i.test(word)) break;
    take.push(word);
  }
  if (take.length < 2 || (program !== "git" && INSTALLS.has(take[1]!))) return null;
  if (program === "git" && !GIT_PREFIXES.has(take[1]!)) return null;
  // A dangerous command is consent to itself only: a prefix would cover its worse variants.
  if (classifyDanger(command).level !== null) return null;
  return take.join(" ");
}

/**
 * What an "always" answer remembers for one call. It is decided before the user is asked, so the
 * card can say exactly what "always" will allow. A dangerous command is only ever remembered
 * exactly: a prefix learned from `git reset --hard` must not cover `git reset --hard origin`.
 */
export type AlwaysRule =
  | { kind: "tool"; tool: string }
  | { kind: "edits" }
  | { kind: "prefix"; prefix: string }
  | { kind: "command"; command: string }
  | { kind: "network" };

export function alwaysRuleFor(
  kind: ToolKind,
  command: string | undefined,
  tool?: string,
  dangerous = false,
): AlwaysRule {
  if (kind === "mcp" && tool !== undefined) return { kind: "tool", tool };
  if (kind === "edit" || command === undefined) return { kind: "edits" };
  const prefix = dangerous ? null : suggestPrefix(command);
  return prefix ? { kind: "prefix", prefix } : { kind: "command", command };
}

/** The rule in words, for the approval card ("always allow ... in this task"). */
export function describeAlways(rule: AlwaysRule): string {
  switch (rule.kind) {
    case "tool":
      return `the tool ${rule.tool}`;
    case "edits":
      return "all file edits";
    case "prefix":
      return `commands starting with "${rule.prefix}"`;
    case "command":
      return "exactly this command";
    case "network":
      return "the network for commands that ask for it";
    default:
      return rule satisfies never;
  }
}

/** Records an "always" answer; returns what was remembered in describeAlways's words, for the notice. */
export function applyAlways(remembered: Remembered, rule: AlwaysRule): string {
  switch (rule.kind) {
    case "tool":
      remembered.tools.add(rule.tool);
      break;
    case "edits":
      remembered.allEdits = true;
      break;
    case "prefix":
      remembered.prefixes.add(rule.prefix);
      break;
    case "command":
      remembered.commands.add(rule.command);
      return `exactly \`${rule.command}\``;
    case "network":
      remembered.network = true;
      break;
    default:
      return rule satisfies never;
  }
  return describeAlways(rule);
}

/** Records an "always" answer for a call, judged as alwaysRuleFor does; returns what was remembered. */
export function rememberAlways(
  remembered: Remembered,
  kind: ToolKind,
  command: string | undefined,
  tool?: string,
): string {
  const dangerous = command !== undefined && classifyDanger(command)?.level === "dangerous";
  return applyAlways(remembered, alwaysRuleFor(kind, command, tool, dangerous));
}

/** The first part of a compound command that is not read-only, with why; else why the whole is not. */
function unapproved(command: string, whole: Classification): { reason: string; part?: string } {
  const parts = parseShell(command).pipelines.flatMap((p) => p.commands);
  for (const cmd of parts.length > 1 ? parts : []) {
    const c = classifyCommand(cmd.raw);
    if (!c.readOnly) return { reason: c.reason, part: cmd.raw };
  }
  return { reason: whole.reason };
}

/**
 * MCP tools do whatever their server does, so they are asked about like commands: plan mode runs
 * only those the server marks read-only; on-request runs read-only ones and those of servers the
 * user marked `trust`; untrusted asks about every one that is not trusted.
 */
function decideMcp(input: PolicyInput): Verdict {
  const { mode, approval, remembered } = input;
  const readOnly = input.mcp?.readOnly ?? false;
  const trusted = input.mcp?.trusted ?? false;
  if (mode === "plan" && !readOnly)
    return {
      decision: "deny",
      reason: "plan mode is read-only and this MCP tool is not marked read-only by its server",
      rule: "mode:plan",
    };
  if (input.yolo) return { decision: "allow", reason: "--yolo: no approvals" };
  if (mode === "goal") return { decision: "allow", reason: "goal mode runs without questions", rule: "mode:goal" };
  if (trusted) return { decision: "allow", reason: "the user trusts this MCP server (trust: true)" };
  if (remembered.tools.has(input.tool)) return { decision: "allow", reason: "allowed always for this task" };
  if (approval === "never") return { decision: "allow", reason: "never policy: no approvals", rule: "approval:never" };
  if (approval === "on-request" && readOnly)
    return {
      decision: "allow",
      reason: "on-request policy: the server marks this tool read-only",
      rule: "approval:on-request",
    };
  return {
    decision: "ask",
    reason: `${approval} policy: MCP tools need approval${readOnly ? "" : " unless their server marks them read-only"}`,
    rule: `approval:${approval}`,
  };
}

/**
 * The verdict for one tool call. Contract: pure and synchronous (no I/O, never throws); the caller
 * runs the call on `allow`, shows `reason` (and `part`) on the approval card on `ask`, and sends
 * `reason` to the model on `deny`. Where nobody can answer, the caller treats `ask` as a refusal.
 */
export function decide(input: PolicyInput): Verdict {
  const { kind, mode, approval, remembered } = input;
  const command = kind === "exec" ? commandOf(input.args) : undefined;
  const danger = command !== undefined ? classifyDanger(command) : null;
  if (command !== undefined && danger?.level === "blocked") {
    return {
      decision: "deny",
      reason: named(`refused in every mode: ${danger.reason}`, danger.rule!, danger.part, command),
      rule: danger.rule!,
      danger: "blocked",
      plain: danger.reason,
      ...withPart(danger.part, command),
    };
  }
  const denied = command !== undefined ? matchDeny(command, input.deny ?? []) : null;
  if (command !== undefined && denied) {
    return {
      decision: "deny",
      reason: named(`matches your deny rule \`${denied.rule}\``, denied.rule, denied.part, command),
      rule: denied.rule,
      ...withPart(denied.part, command),
    };
  }
  if (input.schedules) return decideScheduling(input);
  if (mode === "plan" && (kind === "edit" || kind === "exec"))
    return {
      decision: "deny",
      reason: "plan mode is read-only: describe the change instead of making it",
      rule: "mode:plan",
    };
  if (mode === "debug" && kind === "edit")
    return { decision: "deny", reason: "debug mode never writes files: report the fix instead", rule: "mode:debug" };
  if (kind === "read" || kind === "net" || kind === "agent")
    return { decision: "allow", reason: `${kind} tools run without approval` };
  if (kind === "mcp") return decideMcp(input);
  if (input.yolo) return { decision: "allow", reason: "--yolo: no approvals" };
  if (command !== undefined && danger?.level === "dangerous") {
    // An exact "always" is consent to this very command; a prefix never covers a dangerous one.
    if (remembered.commands.has(command))
      return { decision: "allow", reason: "allowed always for this task", rule: danger.rule!, danger: "dangerous" };
    return {
      decision: "ask",
      reason: named(`dangerous: ${danger.reason}`, danger.rule!, danger.part, command),
      rule: danger.rule!,
      danger: "dangerous",
      plain: danger.reason,
      ...withPart(danger.part, command),
    };
  }
  if (mode === "goal") return { decision: "allow", reason: "goal mode runs without questions", rule: "mode:goal" };
  if (kind === "edit") {
    if (mode === "accept-edits")
      return { decision: "allow", reason: "accept-edits mode allows file changes", rule: "mode:accept-edits" };
    if (remembered.allEdits) return { decision: "allow", reason: "file changes allowed always for this task" };
    if (approval === "never")
      return { decision: "allow", reason: "never policy: no approvals", rule: "approval:never" };
    return { decision: "ask", reason: `${approval} policy: file changes need approval`, rule: `approval:${approval}` };
  }
  if (command !== undefined && coveredByRemembered(command, remembered, approval))
    return { decision: "allow", reason: "allowed always for this task" };
  if (approval === "never") return { decision: "allow", reason: "never policy: no approvals", rule: "approval:never" };
  if (approval === "untrusted" || command === undefined)
    return {
      decision: "ask",
      reason: `${approval} policy: every command needs approval`,
      rule: `approval:${approval}`,
    };
  const whole = classifyCommand(command);
  if (whole.readOnly)
    return {
      decision: "allow",
      reason: `on-request policy: a read-only command (${whole.reason})`,
      rule: "approval:on-request",
      readOnly: true,
    };
  const why = unapproved(command, whole);
  return {
    decision: "ask",
    reason: `on-request policy: not a recognised read-only command (${why.reason})`,
    rule: "approval:on-request",
    ...withPart(why.part, command),
  };
}

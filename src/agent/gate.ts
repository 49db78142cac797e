// The one gate every tool call passes, whoever runs the agent (the UI, one-shot, `tool`, the
// daemon, subagents, and every front end to come): the unrecoverable blocklist, the user's deny
// rules, the mode's tool gating, the approval policy (trusted / ask / dangerous), the "always"
// rules and --allow, and the rewrite of trusted commands. A front end supplies only an Asker (the
// UI's card, an attached daemon client, an editor's permission request). With nobody to ask, a
// call that would ask is refused, with one line for the model and the user naming the flag that
// allows it. The registry runs nothing the gate did not seal (tools/gate-seal.ts).
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";
import type { ApprovalPolicy, BusEvent, PermissionMode, ToolKind } from "../protocol/events.js";
import type { AlwaysRule, Verdict } from "../sandbox/policy.js";
import { newRemembered, type Remembered } from "../sandbox/remembered.js";
import { loadPermissions, savePermission, type SavedPermission } from "../session/permissions.js";
import type { AnyTool } from "../tools/define.js";
import { seal, type AskingChild, type GateDecision, type ToolGate } from "../tools/gate-seal.js";

/** What the gate reads at every call: live, so a mode or policy change applies to the next call. */
export interface GateState {
  approval: ApprovalPolicy;
  mode: PermissionMode;
  /** "Always" answers of this task (and the workspace's saved ones); the gate adds to it. */
  remembered: Remembered;
  /** Saved "always" rules not yet in `remembered`: the gate adds them when it loads the policy. */
  saved?: readonly SavedPermission[];
}

/** What a person is asked: the card's text and what "always" would allow (approval.requested's body). */
export interface Question {
  callId: string;
  /** Set when a subagent asks. */
  agentId?: string;
  tool: string;
  kind: ToolKind;
  title: string;
  detail: string;
  reason: string;
  rule?: string;
  dangerous?: true;
  match?: string;
  always: string;
  /** "Always for this workspace" may be offered (never for a dangerous command). */
  alwaysWorkspace: boolean;
}

export type Answer =
  | { decision: "once" }
  | { decision: "always"; scope: "task" | "workspace" }
  | { decision: "deny"; reason: string };

/** Someone to ask: what a front end gives the gate. */
export interface Asker {
  /** Whether anybody can answer now (the daemon: while a front end is attached). */
  present(): boolean;
  /** Resolves with the answer, or a denial when the question is withdrawn (the turn stopped). */
  ask(question: Question): Promise<Answer>;
}

export interface GateOptions {
  /**
   * `sandbox`: with commands' network off (its default under a sandbox), a `run_command` call that
   * asks for the network (`network: true`) needs approval under every policy but --yolo and an
   * "always" answer to such a card. Absent: commands have the network, nothing more to approve.
   */
  settings: Pick<Settings, "yolo" | "deny" | "allow" | "workspace" | "home"> & {
    sandbox?: Pick<Settings["sandbox"], "mode" | "network">;
  };
  state: GateState;
  /** Absent or null: nobody to ask, and the answer is no. */
  asker?: Asker | null;
  taskId: string;
  /** The refusals nobody was asked about (gate.refused, and a notice), and "allowed from now on" notices. */
  emit(event: BusEvent): void;
}

/** The approval policy a front end with nobody to ask starts from: only what would ask is refused. */
export const UNATTENDED_APPROVAL: ApprovalPolicy = "never";

/**
 * A task's gate state from settings: the policy (or `fallback` when none was set), the mode, and
 * the workspace's saved "always" rules. The UI and daemon keep the same fields on each task.
 */
export function gateState(
  settings: Pick<Settings, "approval" | "mode" | "home" | "workspace">,
  fallback: ApprovalPolicy,
): GateState {
  return {
    approval: settings.approval ?? fallback,
    mode: settings.mode,
    remembered: newRemembered(),
    saved: loadPermissions(settings.home, settings.workspace),
  };
}

type Policy = typeof import("../sandbox/policy.js") &
  Pick<typeof import("../sandbox/classify.js"), "trustedCommandArgv">;
let policyModules: Promise<Policy> | null = null;
/** The policy once loaded, so later tasks settle their saved rules at once. */
let policyLoaded: Policy | null = null;

/**
 * The policy and the classifier, loaded with the first call that needs them: a run whose calls
 * only read (and every run before its first call) never compiles them.
 */
function loadPolicy(): Promise<Policy> {
  policyModules ??= Promise.all([import("../sandbox/policy.js"), import("../sandbox/classify.js")]).then(
    ([policy, classify]) => {
      policyLoaded = { ...policy, trustedCommandArgv: classify.trustedCommandArgv };
      return policyLoaded;
    },
  );
  return policyModules;
}

function settleWith(policy: Policy, state: GateState): boolean {
  if (!state.saved) return false;
  rememberSaved(state.remembered, state.saved, policy.rememberAlways);
  delete state.saved;
  return true;
}

/**
 * Adds the state's saved "always" rules to `remembered` (loading the classifier that judges them);
 * true when it added some. The gate does it before its first verdict; a front end that lists the
 * rules (/permissions) does it as soon as it may, without holding up its first frame. Once the
 * classifier is loaded the rules are added before this returns.
 */
export function settleSaved(state: GateState): Promise<boolean> {
  if (!state.saved) return Promise.resolve(false);
  if (policyLoaded) return Promise.resolve(settleWith(policyLoaded, state));
  return loadPolicy().then((policy) => settleWith(policy, state));
}

/** Adds saved "always" rules to `remembered` as an answer of the user would have. */
export function rememberSaved(
  remembered: Remembered,
  permissions: readonly SavedPermission[],
  rememberAlways: Policy["rememberAlways"],
): void {
  for (const p of permissions) {
    if (p.edits) remembered.allEdits = true;
    if (p.command) rememberAlways(remembered, "exec", p.command);
    if (p.tool) remembered.tools.add(p.tool);
  }
}

/**
 * `--allow PATTERN`, in the words of "always" rules: `edits` (all file edits), `tool:NAME` (an MCP
 * tool), `command:TEXT` (exactly that command, dangerous ones included), `prefix:WORDS` or bare
 * WORDS (every command made only of parts that start with those words, as an "always" prefix; a
 * bare pattern also allows exactly itself, so `--allow "git push --force"` pre-approves that one).
 */
export function allowRules(patterns: readonly string[]): Remembered {
  const rules = newRemembered();
  for (const raw of patterns) {
    const pattern = raw.trim();
    const at = pattern.indexOf(":");
    const kind = at > 0 ? pattern.slice(0, at) : "";
    const value = pattern.slice(at + 1).trim();
    if (pattern === "edits") rules.allEdits = true;
    else if (kind === "tool" && value) rules.tools.add(value);
    else if (kind === "command" && value) rules.commands.add(value);
    else if (kind === "prefix" && value) rules.prefixes.add(value);
    else if (pattern) {
      rules.prefixes.add(pattern);
      rules.commands.add(pattern);
    }
  }
  return rules;
}

const union = (a: Remembered, b: Remembered): Remembered =>
  b.allEdits || b.commands.size + b.prefixes.size + b.tools.size > 0
    ? {
        allEdits: a.allEdits || b.allEdits,
        commands: new Set([...a.commands, ...b.commands]),
        prefixes: new Set([...a.prefixes, ...b.prefixes]),
        tools: new Set([...a.tools, ...b.tools]),
        network: a.network === true,
      }
    : a;

/** Why a call's own ask for the network needs approval, or null when it needs none. */
function networkAsk(tool: AnyTool, args: Record<string, unknown>, settings: GateOptions["settings"]): string | null {
  if (tool.name !== "run_command" || args.network !== true) return null;
  const sandbox = settings.sandbox;
  if (!sandbox || sandbox.network || sandbox.mode === "off") return null;
  return "the command asks for the network (network: true), which commands do not have unless you allow it";
}

/** One argument for bash, quoted only when it needs it. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/** SCHEDULING_RULE of sandbox/policy.ts, which loads with the first call that needs it. */
const SCHEDULING = "scheduling";

/** The flags that would let a call that needs approval run with nobody to ask. */
function allowHint(
  tool: AnyTool,
  command: string | undefined,
  verdict: Verdict,
  suggestPrefix: Policy["suggestPrefix"],
): string {
  if (verdict.rule === SCHEDULING) return `--allow ${shellQuote(`tool:${tool.name}`)} or --yolo`;
  if (verdict.danger === "dangerous" && command !== undefined)
    return `--yolo, or --allow ${shellQuote(`command:${command}`)} for exactly this command`;
  if (tool.kind === "mcp") return `--allow ${shellQuote(`tool:${tool.name}`)} or --approval never`;
  if (tool.kind === "edit") return "--allow edits, --mode accept-edits or --approval never";
  if (command !== undefined) return `--allow ${shellQuote(suggestPrefix(command) ?? command)} or --approval never`;
  return "--approval never";
}

export class Gate implements ToolGate {
  private readonly opts: GateOptions;
  private readonly preapproved: Remembered;

  constructor(opts: GateOptions) {
    this.opts = opts;
    this.preapproved = allowRules(opts.settings.allow);
  }

  /**
   * Contract: resolves once the call may run (possibly with rewritten args) or is refused; never
   * rejects. A call that needs approval waits for the asker's answer.
   */
  async authorize(
    tool: AnyTool,
    args: Record<string, unknown>,
    call: { id: string },
    who?: AskingChild,
  ): Promise<GateDecision> {
    // Read, network and delegation tools run in every mode and under every policy (decide() says
    // so first for them): they need no classifier. So does a call its tool says only reads.
    const effect = tool.effect?.(args);
    if (effect === "reads" || tool.kind === "read" || tool.kind === "net" || tool.kind === "agent")
      return seal({ allow: true });
    const policy = await this.policy();
    const { settings, state } = this.opts;
    const verdict = policy.decide({
      tool: tool.name,
      kind: tool.kind,
      args,
      approval: state.approval,
      mode: state.mode,
      remembered: union(state.remembered, this.preapproved),
      yolo: settings.yolo,
      deny: settings.deny,
      ...(tool.mcp ? { mcp: tool.mcp } : {}),
      ...(effect === "schedules" ? { schedules: true } : {}),
    });
    const command = policy.commandOf(args);
    const wantsNetwork = settings.yolo || state.remembered.network ? null : networkAsk(tool, args, settings);
    if (wantsNetwork && verdict.decision !== "deny") {
      const asker = this.opts.asker;
      if (!asker?.present())
        return this.refuse(
          tool,
          call.id,
          `not run: ${wantsNetwork}, and nobody can answer here. To allow it, rerun with --network on`,
          "network",
          who,
        );
      const why = verdict.decision === "ask" ? `${wantsNetwork}; and ${verdict.reason}` : wantsNetwork;
      return this.ask(policy, asker, tool, args, call.id, { ...verdict, decision: "ask" }, why, who, {
        kind: "network",
      });
    }
    if (verdict.decision === "allow") {
      // A command recognised as read-only runs as recognised (git with the repository's own
      // programs neutralised), never as typed, whatever let it through (on-request, never, --yolo).
      const argv = tool.name === "run_command" && command !== undefined ? policy.trustedCommandArgv(command) : null;
      return seal(argv ? { allow: true, args: { ...args, command: argv.map(shellQuote).join(" ") } } : { allow: true });
    }
    // The reason names the rule and the part already where a rule decided; a policy verdict names the part here.
    const why =
      verdict.part && !verdict.reason.includes(verdict.part)
        ? `${verdict.reason} (the part: ${verdict.part})`
        : verdict.reason;
    if (verdict.decision === "deny") return this.refuse(tool, call.id, `refused: ${why}`, "denied", who);
    const asker = this.opts.asker;
    if (!asker?.present())
      return this.refuse(
        tool,
        call.id,
        `not run: this call needs approval (${why}) and nobody can answer here. To allow it, rerun with ${allowHint(tool, command, verdict, policy.suggestPrefix)}`,
        "unattended",
        who,
      );
    // Consent to scheduled work is for the tool, never all file edits, and never beyond this task.
    const scheduling = effect === "schedules" ? { kind: "tool" as const, tool: tool.name } : undefined;
    return this.ask(policy, asker, tool, args, call.id, verdict, why, who, scheduling);
  }

  /** The policy, with the saved "always" rules added to the state the first time. */
  private async policy(): Promise<Policy> {
    const policy = await loadPolicy();
    settleWith(policy, this.opts.state);
    return policy;
  }

  /**
   * A refusal nobody was asked about: the model reads the reason; where no one could have been
   * asked the user gets it as a warning too (a front end with someone to ask shows the denied card).
   */
  private refuse(
    tool: AnyTool,
    callId: string,
    reason: string,
    cause: "denied" | "unattended" | "network",
    who?: AskingChild,
  ): GateDecision {
    this.opts.emit({
      type: "gate.refused",
      taskId: this.opts.taskId,
      ...(who ? { agentId: who.agentId } : {}),
      callId,
      tool: tool.name,
      kind: tool.kind,
      cause,
      reason,
    });
    if (!this.opts.asker?.present())
      this.opts.emit({
        type: "notice",
        taskId: this.opts.taskId,
        ...(who ? { agentId: who.agentId } : {}),
        level: "warn",
        text: `${tool.name}: ${reason}`,
      });
    return seal({ allow: false, reason });
  }

  private async ask(
    policy: Policy,
    asker: Asker,
    tool: AnyTool,
    args: Record<string, unknown>,
    callId: string,
    verdict: Verdict,
    why: string,
    who?: AskingChild,
    rule?: AlwaysRule,
  ): Promise<GateDecision> {
    const command = policy.commandOf(args);
    const dangerous = verdict.danger === "dangerous";
    // A dangerous command's card gives the rule's own words; the rule name and the matched part are shown apart.
    // The card's diff is built only when someone is asked (a one-shot run never loads it).
    const { approvalRequest } = await import("./approvals.js");
    const card = await approvalRequest(
      tool,
      args,
      dangerous && verdict.plain ? verdict.plain : why,
      this.opts.settings.workspace,
    );
    // A subagent's question is the parent task's, labelled with who asks.
    if (who) card.title = `[${who.agentId} ${who.name}] ${card.title}`;
    // A card for the network offers "always" as the network for the task, never the workspace.
    const always = rule ?? policy.alwaysRuleFor(tool.kind, command, tool.name, dangerous);
    const taskOnly = dangerous || always.kind === "network" || verdict.rule === policy.SCHEDULING_RULE;
    const match = verdict.part ?? (dangerous ? command : undefined);
    who?.waiting(true);
    let answer: Answer;
    try {
      answer = await asker.ask({
        callId,
        ...(who ? { agentId: who.agentId } : {}),
        tool: tool.name,
        kind: tool.kind,
        ...card,
        ...(verdict.rule ? { rule: verdict.rule } : {}),
        ...(dangerous ? { dangerous: true as const } : {}),
        ...(match ? { match } : {}),
        always: policy.describeAlways(always),
        alwaysWorkspace: !taskOnly,
      });
    } catch (error) {
      log("warn", "an approval question failed", error);
      answer = { decision: "deny", reason: "the question could not be asked" };
    } finally {
      who?.waiting(false);
    }
    if (answer.decision === "deny") return seal({ allow: false, reason: answer.reason, asked: true });
    // Consent to a dangerous command is never kept beyond this task, whatever a client sends.
    if (answer.decision === "always") this.remember(policy, always, taskOnly ? "task" : answer.scope);
    return seal({ allow: true, asked: true });
  }

  private remember(policy: Policy, always: AlwaysRule, scope: "task" | "workspace"): void {
    const rule = policy.applyAlways(this.opts.state.remembered, always);
    if (scope === "workspace") void persistRule(this.opts.settings, always);
    this.opts.emit({
      type: "notice",
      taskId: this.opts.taskId,
      level: "info",
      text: `allowed from now on${scope === "workspace" ? " in this workspace" : " in this task"}: ${rule}`,
    });
  }
}

/** Rules answered "always for this workspace" are kept in ~/.nanohermes/permissions.json. */
async function persistRule(settings: Pick<Settings, "home" | "workspace">, always: AlwaysRule): Promise<void> {
  if (always.kind === "network") return;
  try {
    const rule =
      always.kind === "tool"
        ? { tool: always.tool }
        : always.kind === "edits"
          ? { edits: true }
          : { command: always.kind === "prefix" ? always.prefix : always.command };
    await savePermission(settings.home, settings.workspace, rule);
  } catch (error) {
    log("warn", "saving a permission", error);
  }
}

// What an ACP client may switch in a session: the permission modes (session/set_mode) and the
// config options (session/set_config_option): mode, model and approval policy.
import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import { approvalPolicies, permissionModes, type ApprovalPolicy, type PermissionMode } from "../protocol/enums.js";

const modeText: Record<PermissionMode, [string, string]> = {
  default: ["Default", "Reads run; edits and commands that change things ask first."],
  "accept-edits": ["Accept edits", "File edits never ask; commands may still ask."],
  plan: ["Plan", "Read-only: no edits, no commands; the agent investigates and ends with a plan."],
  goal: ["Goal", "Unattended: nothing asks but dangerous commands."],
  debug: ["Debug", "Read and run commands, never write files."],
};

const approvalText: Record<ApprovalPolicy, [string, string]> = {
  "on-request": ["On request", "Ask before edits and commands that are not known to be read-only."],
  untrusted: ["Untrusted", "Ask before anything but reads."],
  never: ["Never ask", "Never ask: run what the policy allows, refuse the rest (the blocklist holds)."],
};

export interface SessionChoices {
  mode: PermissionMode;
  model: string;
  approval: ApprovalPolicy;
  /** Models offered besides the current one (from config "models"). */
  models: readonly string[];
}

export function modeState(mode: PermissionMode): SessionModeState {
  return {
    currentModeId: mode,
    availableModes: permissionModes.map((id) => ({ id, name: modeText[id][0], description: modeText[id][1] })),
  };
}

export function configOptions(c: SessionChoices): SessionConfigOption[] {
  const models = [...new Set([c.model, ...c.models])];
  return [
    {
      id: "mode",
      name: "Mode",
      category: "mode",
      type: "select",
      currentValue: c.mode,
      options: permissionModes.map((id) => ({ value: id, name: modeText[id][0], description: modeText[id][1] })),
    },
    {
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: c.model,
      options: models.map((m) => ({ value: m, name: m })),
    },
    {
      id: "approval",
      name: "Approval policy",
      description: "When the agent asks before running a tool call.",
      type: "select",
      currentValue: c.approval,
      options: approvalPolicies.map((id) => ({
        value: id,
        name: approvalText[id][0],
        description: approvalText[id][1],
      })),
    },
  ];
}

export const isMode = (v: string): v is PermissionMode => (permissionModes as readonly string[]).includes(v);
export const isApproval = (v: string): v is ApprovalPolicy => (approvalPolicies as readonly string[]).includes(v);

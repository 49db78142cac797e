// Workspace trust: a workspace's own config may not change safety (policy, mode, sandbox) except to
// tighten it, nor redirect the API key (endpoint, key variable), until the user trusts that folder.
import { readFileSync } from "node:fs";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { releaseInstructions } from "./instruction-changes.js";
import type { ConfigFile } from "./schema.js";
import {
  approvalOrder,
  looseTrueOrder,
  permissionModeOrder,
  rootsStricter,
  sandboxModeOrder,
  strictlyStricter,
} from "./strictness.js";

export const trustFile = (home: string) => join(home, "trusted.json");

export function isTrusted(home: string, workspace: string): boolean {
  try {
    const list = JSON.parse(readFileSync(trustFile(home), "utf8")) as unknown;
    return Array.isArray(list) && list.includes(workspace);
  } catch {
    return false;
  }
}

export async function trustWorkspace(home: string, workspace: string): Promise<void> {
  let list: string[] = [];
  try {
    const data = JSON.parse(await fs.readFile(trustFile(home), "utf8")) as unknown;
    if (Array.isArray(data)) list = data.filter((x): x is string => typeof x === "string");
  } catch {
    // no list yet
  }
  if (!list.includes(workspace)) list.push(workspace);
  await fs.mkdir(home, { recursive: true });
  await fs.writeFile(trustFile(home), `${JSON.stringify(list, null, 1)}\n`, { mode: 0o600 });
  // Trusting the folder again takes back instruction files a command changed (issue 26.3).
  releaseInstructions(home, workspace);
}

/**
 * Splits a workspace config into what applies without trust and the keys that need it (named as
 * dotted paths, e.g. `sandbox.mode`): an endpoint or key variable (they would send the API key
 * elsewhere), programs the workspace would start, and every safety key (sandbox mode, network,
 * writable roots, permission mode, approval policy, protected writes) unless its value is strictly
 * stricter than the user's own on the orders in strictness.ts. Equal values are ignored too: in
 * either direction, an untrusted folder changes nothing but to tighten.
 */
export function restrictWorkspaceConfig(
  ws: ConfigFile,
  user: ConfigFile,
): { allowed: ConfigFile; restricted: string[] } {
  const allowed: ConfigFile = { ...ws };
  const restricted: string[] = [];
  const drop = (key: keyof ConfigFile) => {
    delete allowed[key];
    restricted.push(key);
  };
  if (ws.baseUrl !== undefined) drop("baseUrl");
  if (ws.apiKeyEnv !== undefined) drop("apiKeyEnv");
  // Each names where requests (and the key that goes with them) are sent.
  if (ws.provider !== undefined) drop("provider");
  if (ws.fallback !== undefined) drop("fallback");
  if (ws.azure !== undefined) drop("azure");
  if (ws.approval !== undefined && !strictlyStricter(approvalOrder, ws.approval, user.approval ?? "on-request"))
    drop("approval");
  if (ws.mode !== undefined && !strictlyStricter(permissionModeOrder, ws.mode, user.mode ?? "default")) drop("mode");
  if (ws.sandbox !== undefined) {
    const { sandbox, dropped } = restrictSandbox(ws.sandbox, user.sandbox ?? {});
    restricted.push(...dropped);
    if (Object.keys(sandbox).length > 0) allowed.sandbox = sandbox;
    else delete allowed.sandbox;
  }
  if (
    ws.allowProtectedWrites !== undefined &&
    !strictlyStricter(looseTrueOrder, ws.allowProtectedWrites, user.allowProtectedWrites ?? false)
  ) {
    drop("allowProtectedWrites");
  }
  // Reaching the user's own network, or sending searches to a server the workspace picks.
  if (ws.web !== undefined) drop("web");
  // Traces leave the machine (to OTEL_EXPORTER_OTLP_ENDPOINT), with prompts when content is on.
  if (ws.telemetry !== undefined) drop("telemetry");
  // Programs a cloned repository would start on its own: servers at start-up, hooks on every call.
  if (ws.mcpServers !== undefined) drop("mcpServers");
  if (ws.servers !== undefined) drop("servers");
  if (ws.hooks !== undefined) drop("hooks");
  return { allowed, restricted };
}

type SandboxConfig = NonNullable<ConfigFile["sandbox"]>;

/** Each sandbox key on its own: one looser key does not cost the workspace a stricter one. */
function restrictSandbox(ws: SandboxConfig, user: SandboxConfig): { sandbox: SandboxConfig; dropped: string[] } {
  const sandbox: SandboxConfig = {};
  const dropped: string[] = [];
  if (ws.mode !== undefined) {
    if (strictlyStricter(sandboxModeOrder, ws.mode, user.mode ?? "auto")) sandbox.mode = ws.mode;
    else dropped.push("sandbox.mode");
  }
  if (ws.network !== undefined) {
    if (strictlyStricter(looseTrueOrder, ws.network, user.network ?? false)) sandbox.network = ws.network;
    else dropped.push("sandbox.network");
  }
  if (ws.writableRoots !== undefined) {
    if (rootsStricter(ws.writableRoots, user.writableRoots ?? [])) sandbox.writableRoots = ws.writableRoots;
    else dropped.push("sandbox.writableRoots");
  }
  return { sandbox, dropped };
}

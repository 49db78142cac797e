// Workspace trust: a workspace's own config may not loosen safety (policy, mode, sandbox) or
// redirect the API key (endpoint, key variable) until the user trusts that folder once.
import { readFileSync } from "node:fs";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { ConfigFile } from "./schema.js";

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
}

const policyStrictness = { never: 0, "on-request": 1, untrusted: 2 } as const;
const modeLooseness = { plan: 0, debug: 0, default: 1, "accept-edits": 2, goal: 3 } as const;

/**
 * Splits a workspace config into what applies without trust and the keys that need it: an
 * endpoint or key variable (they would send the API key elsewhere), a looser approval policy or
 * mode than the user's own, and any sandbox setting that weakens it.
 */
export function restrictWorkspaceConfig(ws: ConfigFile, user: ConfigFile): { allowed: ConfigFile; restricted: string[] } {
  const allowed: ConfigFile = { ...ws };
  const restricted: string[] = [];
  const drop = (key: keyof ConfigFile) => {
    delete allowed[key];
    restricted.push(key);
  };
  if (ws.baseUrl !== undefined) drop("baseUrl");
  if (ws.apiKeyEnv !== undefined) drop("apiKeyEnv");
  if (ws.approval !== undefined && policyStrictness[ws.approval] < policyStrictness[user.approval ?? "on-request"]) drop("approval");
  if (ws.mode !== undefined && modeLooseness[ws.mode] > modeLooseness[user.mode ?? "default"]) drop("mode");
  if (ws.sandbox !== undefined) {
    const weaker = ws.sandbox.mode === "off" || ws.sandbox.network === true || (ws.sandbox.writableRoots?.length ?? 0) > 0;
    if (weaker) drop("sandbox");
  }
  if (ws.allowProtectedWrites === true) drop("allowProtectedWrites");
  // Reaching the user's own network, or sending searches to a server the workspace picks.
  if (ws.web !== undefined) drop("web");
  // Programs a cloned repository would start on its own: servers at start-up, hooks on every call.
  if (ws.mcpServers !== undefined) drop("mcpServers");
  if (ws.servers !== undefined) drop("servers");
  if (ws.hooks !== undefined) drop("hooks");
  return { allowed, restricted };
}

// "Always for this workspace" answers: kept in ~/.nanohermes/permissions.json, per workspace, and
// given to every new task of that workspace.
import { readFileSync } from "node:fs";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { atomicWriteFile } from "../tools/fs-atomic.js";

export interface SavedPermission {
  command?: string;
  edits?: boolean;
  /** An MCP tool, by its full name. */
  tool?: string;
}

const file = (home: string) => join(home, "permissions.json");

function readAll(home: string): Record<string, SavedPermission[]> {
  try {
    const data = JSON.parse(readFileSync(file(home), "utf8")) as unknown;
    return data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, SavedPermission[]>) : {};
  } catch {
    return {};
  }
}

export function loadPermissions(home: string, workspace: string): SavedPermission[] {
  const list = readAll(home)[workspace];
  return Array.isArray(list) ? list.filter((p) => typeof p === "object" && p !== null) : [];
}

export async function savePermission(home: string, workspace: string, permission: SavedPermission): Promise<void> {
  const all = readAll(home);
  const list = (all[workspace] ??= []);
  if (!list.some((p) => p.command === permission.command && p.edits === permission.edits && p.tool === permission.tool))
    list.push(permission);
  await fs.mkdir(home, { recursive: true });
  await atomicWriteFile(file(home), `${JSON.stringify(all, null, 1)}\n`, 0o600);
}

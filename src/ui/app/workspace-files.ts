// The workspace's files for @path completion and the Files tab: listed once in the background,
// honouring .gitignore, capped so a huge tree cannot slow the UI.
import { walk } from "../../fs/walk.js";

export const MAX_LISTED_FILES = 20_000;

export async function listWorkspaceFiles(root: string, cap = MAX_LISTED_FILES): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const entry of walk(root)) {
      if (entry.type !== "file") continue;
      out.push(entry.path);
      if (out.length >= cap) break;
    }
  } catch {
    // a listing that fails leaves completion empty; nothing else depends on it
  }
  return out.sort();
}

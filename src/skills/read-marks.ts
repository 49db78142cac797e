// Read before write: the SKILL.md texts this session has seen (loaded with the skill tool, or
// written with skill_manage). A change to a skill the model has not read, or that changed since it
// read it, is refused, so nothing is rewritten from a guess of what the file holds.
import type { SessionTools } from "../tools/define.js";

const KEY = "skills.read";

function marks(session: SessionTools): Map<string, string> {
  let map = session.store.get(KEY) as Map<string, string> | undefined;
  if (!map) session.store.set(KEY, (map = new Map()));
  return map;
}

/** Records that the session has seen `file` holding `text`. */
export function markRead(session: SessionTools | undefined, file: string, text: string): void {
  if (session) marks(session).set(file, text);
}

/**
 * Why `file` (now holding `current`) may not be changed by this session, or null. Without a session
 * (`nanohermes tool skill_manage`, typed by a person) there is nothing to check.
 */
export function unreadReason(
  session: SessionTools | undefined,
  file: string,
  current: string,
  name: string,
): string | null {
  if (!session) return null;
  const seen = marks(session).get(file);
  if (seen === undefined) return `load skill "${name}" with the skill tool first (read before write), then change it`;
  if (seen !== current)
    return `skill "${name}" changed since you loaded it; load it again with the skill tool and redo the change on what it holds now`;
  return null;
}

// Where agent-written skills live and who owns a skill: the agent may change only the skills it
// wrote itself (~/.nanohermes/skills/NAME with origin: agent); every other skill (the user's, a
// hub's, the workspace's, and external ones in .agents/skills or .claude/skills) is read-only to it. Archiving moves a folder aside,
// never deletes it.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { isPinned, originOf, type Origin } from "./skill-rules.js";
import { discoverSkills, type Skill, type SkillRoots } from "./skills.js";

export const SKILL_FILE = "SKILL.md";

/** ~/.nanohermes/skills: where the agent writes. */
export const agentRoot = (home: string) => join(home, "skills");
/** Archived skills: hidden from discovery (a dot folder), kept whole. */
export const archiveRoot = (home: string) => join(home, "skills", ".archive");

export interface OwnedSkill {
  skill: Skill;
  origin: Origin | null;
  pinned: boolean;
  /** Null when the agent may change it; else why not, for the model and the user. */
  readOnly: string | null;
}

/** Reads a SKILL.md whole (the agent's are at most 100,000 characters); null when it cannot. */
export function readSkillText(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** Why the agent may not change `skill`, or null when it wrote it (its own folder under agentRoot, origin: agent). */
export function readOnlyReason(skill: Skill, text: string | null, home: string): string | null {
  const root = agentRoot(home);
  if (dirname(skill.dir) !== root) {
    if (skill.source === "workspace")
      return `"${skill.name}" is a workspace skill (${skill.dir}): it belongs to the project and is read-only to you`;
    if (skill.source === "external")
      return `"${skill.name}" is an external skill, shared with other tools (${skill.dir}): it is read-only to you; load and follow it, and if it needs a change, tell the user what to change there (or create a skill of your own under another name)`;
    if (skill.dir.startsWith(root + sep))
      return `"${skill.name}" sits in a category folder (${skill.dir}) the user made; it is read-only to you`;
    return `"${skill.name}" is an external skill (${skill.dir}); it is read-only to you`;
  }
  if (isLink(skill.dir)) return `"${skill.name}" is a link to another folder; it is read-only to you`;
  const origin = text === null ? null : originOf(text);
  if (origin === "agent") return null;
  if (origin === "hub") return `"${skill.name}" was installed from a hub (origin: hub); it is read-only to you`;
  return `"${skill.name}" was written by the user (no origin: agent in its frontmatter); it is read-only to you`;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Every discovered skill with its owner and pin (synchronous; reads each SKILL.md once). */
export function ownedSkills(roots: SkillRoots): OwnedSkill[] {
  return discoverSkills(roots).skills.map((skill) => {
    const text = readSkillText(skill.file);
    return {
      skill,
      origin: text === null ? null : originOf(text),
      pinned: text !== null && isPinned(text),
      readOnly: readOnlyReason(skill, text, roots.home),
    };
  });
}

export interface ArchivedSkill {
  name: string;
  dir: string;
  description: string;
}

/** Skills in the archive: folders with a SKILL.md, newest name first per skill. */
export function archivedSkills(home: string): ArchivedSkill[] {
  const root = archiveRoot(home);
  let names: string[];
  try {
    names = readdirSync(root).sort();
  } catch {
    return [];
  }
  const out: ArchivedSkill[] = [];
  for (const entry of names) {
    const dir = join(root, entry);
    if (!existsSync(join(dir, SKILL_FILE))) continue;
    const name = entry.replace(/~\d+$/, "");
    if (entry !== name) continue; // an older copy set aside by a later archive of the same name
    const text = readSkillText(join(dir, SKILL_FILE)) ?? "";
    const description = /^description:[ \t]*(.*)$/m.exec(text)?.[1]?.trim() ?? "";
    out.push({ name, dir, description });
  }
  return out;
}

/**
 * Moves an agent skill's folder into the archive (an older archived copy of the same name is kept
 * beside it as NAME~TIME). Returns the archived folder. A rename: nothing is deleted or rewritten.
 */
export function archiveFolder(home: string, dir: string, now = Date.now()): string {
  const root = archiveRoot(home);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const target = join(root, basename(dir));
  if (existsSync(target)) renameSync(target, `${target}~${now}`);
  renameSync(dir, target);
  return target;
}

/** Moves an archived skill back to ~/.nanohermes/skills/NAME; refuses when that name is taken. */
export function restoreFolder(home: string, name: string): string {
  const from = join(archiveRoot(home), name);
  const to = join(agentRoot(home), name);
  if (!existsSync(join(from, SKILL_FILE))) throw new Error(`no archived skill "${name}"`);
  if (existsSync(to)) throw new Error(`a skill folder ${to} already exists; archive or rename it first`);
  renameSync(from, to);
  return to;
}

/** Files of a skill folder (relative, "/"-separated, sorted), hidden entries left out; links are not followed. */
export function skillFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const name of readdirSync(abs).sort()) {
      if (name.startsWith(".")) continue;
      const path = join(abs, name);
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path);
      else if (st.isFile()) out.push(relative(dir, path).split(sep).join("/"));
    }
  };
  walk(dir);
  return out;
}

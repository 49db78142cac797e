// What agent-written skill text must satisfy before it touches the disk: Hermes's name and path
// rules, size caps, a valid frontmatter that names the skill and its origin, and the checks every
// instruction file gets (hidden characters, text that tries to take over the agent).
import { parseFrontmatter, splitFrontmatter } from "./skills.js";

/** Hermes's rules, so skills and prompts written for it carry over. */
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
/** Characters of a SKILL.md the agent may write. */
export const MAX_SKILL_CHARS = 100_000;
/** Bytes of one supporting file. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Where supporting files may go, under the skill folder. */
export const ALLOWED_SUBDIRS = ["references", "templates", "scripts", "assets"] as const;
const NAME = /^[a-z0-9][a-z0-9._-]*$/;

export type Origin = "agent" | "user" | "hub";

/** Why `name` is not a valid skill name, or null. */
export function nameProblem(name: string): string | null {
  if (name === "") return "a skill name is required";
  if (name.length > MAX_NAME_LENGTH) return `the skill name is longer than ${MAX_NAME_LENGTH} characters`;
  if (!NAME.test(name) || name.includes(".."))
    return `invalid skill name "${name}": use lower-case letters, digits, "-", "_" and ".", starting with a letter or digit`;
  return null;
}

/**
 * Why `path` may not be a supporting file, or null: relative, no `..`, no hidden or empty parts, under
 * one of ALLOWED_SUBDIRS with a file name (so nothing can land outside the skill folder or replace
 * SKILL.md, which `edit` and `patch` own).
 */
export function filePathProblem(path: string): string | null {
  if (path === "") return "file_path is required";
  if (path.includes("\\") || path.includes("\0")) return `file_path "${path}" may use only "/" between its parts`;
  if (path.startsWith("/")) return `file_path "${path}" must be relative to the skill folder`;
  const parts = path.split("/");
  if (parts.some((p) => p === ".." || p === "."))
    return `file_path "${path}" leaves the skill folder (no "." or ".." parts)`;
  if (parts.some((p) => p === "" || p.startsWith(".")))
    return `file_path "${path}" has an empty or hidden part; hidden files are not part of a skill`;
  if (!(ALLOWED_SUBDIRS as readonly string[]).includes(parts[0]!))
    return `file_path must be under one of ${ALLOWED_SUBDIRS.join(", ")}/ (got "${path}"); SKILL.md itself changes with edit or patch`;
  if (parts.length < 2) return `file_path "${path}" names a folder; give a file, e.g. "${parts[0]}/notes.md"`;
  return null;
}

/** Hidden characters that can carry instructions a reviewer does not see (the set AGENTS.md and skills are cleaned of). */
const INVISIBLE = /[\u200B-\u200D\u2060\u202A-\u202E\u2066-\u2069]|[\u{E0000}-\u{E007F}]/u;
const FEFF_INSIDE = /.\uFEFF/su;

/**
 * Text that reads as an attempt to take over whoever loads the skill rather than to teach a task.
 * Deliberately narrow: a skill may talk about prompts, secrets and instructions in the ordinary way.
 */
const TAKEOVER: { pattern: RegExp; why: string }[] = [
  {
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier|system|user'?s?)\s+(?:instructions|prompts?|rules|messages)/i,
    why: "tells the reader to ignore its instructions",
  },
  {
    pattern:
      /\b(?:you\s+are\s+now|from\s+now\s+on\s+you\s+are)\s+(?:in\s+)?(?:developer|jailbreak|dan|god|unrestricted)\b/i,
    why: "tries to switch the reader into another persona",
  },
  {
    pattern:
      /\b(?:reveal|print|send|post|upload|exfiltrate)\b[^.\n]{0,60}\b(?:system\s+prompt|api[_\s-]?keys?|credentials|\.ssh\b|id_rsa|secrets?)\b/i,
    why: "asks for the system prompt or secrets to be disclosed",
  },
  {
    pattern: /\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|show)\s+the\s+user\b/i,
    why: "asks to hide things from the user",
  },
  { pattern: /<\/?(?:system|assistant)>|<\|im_start\|>/i, why: "imitates a chat-role marker" },
];

/** Why agent-written text may not be stored (hidden characters, takeover text), or null. */
export function safetyProblem(text: string, label: string): string | null {
  if (INVISIBLE.test(text) || FEFF_INSIDE.test(text))
    return `${label} contains invisible characters (zero-width, bidi controls or tag characters) that can hide instructions; write plain text`;
  for (const { pattern, why } of TAKEOVER) {
    const m = pattern.exec(text);
    if (m)
      return `${label} ${why} ("${m[0].slice(0, 80)}"); a skill teaches a task, it does not instruct the agent against its user`;
  }
  return null;
}

export interface CheckedSkill {
  name: string;
  description: string;
  origin: Origin | null;
}

/**
 * Checks a whole SKILL.md the agent wants to write: within the size cap, frontmatter present, closed
 * and valid, naming `expectedName` with a one-paragraph description, a body after it, and the
 * safety checks. Returns the parsed fields or a problem for the model.
 */
export function checkSkillText(text: string, expectedName: string): CheckedSkill | { problem: string } {
  if (text.length > MAX_SKILL_CHARS)
    return {
      problem: `SKILL.md is ${text.length.toLocaleString("en-US")} characters (limit ${MAX_SKILL_CHARS.toLocaleString("en-US")}); keep SKILL.md short and move detail to references/ files with write_file`,
    };
  if (text.trim() === "") return { problem: "content is empty; give the whole SKILL.md, frontmatter included" };
  const split = splitFrontmatter(text);
  if (split.unclosed) return { problem: "the frontmatter is not closed: end it with a line holding only ---" };
  if (split.frontmatter === null)
    return {
      problem: `SKILL.md must start with YAML frontmatter: a line ---, then name: ${expectedName} and description: ONE LINE, then ---`,
    };
  const bad = split.frontmatter
    .split("\n")
    .find(
      (l) =>
        l.trim() !== "" &&
        !l.trim().startsWith("#") &&
        !/^\s/.test(l) &&
        !/^[A-Za-z0-9_][A-Za-z0-9_.-]*[ \t]*:/.test(l),
    );
  if (bad !== undefined) return { problem: `the frontmatter line "${bad.slice(0, 80)}" is not a key: value pair` };
  const fields = parseFrontmatter(split.frontmatter);
  const name = fields.get("name")?.trim() ?? "";
  if (name === "") return { problem: `the frontmatter has no name: (it must be name: ${expectedName})` };
  if (name !== expectedName)
    return { problem: `the frontmatter names "${name}" but the skill is "${expectedName}": they must match` };
  const description = (fields.get("description") ?? "").replace(/\s+/g, " ").trim();
  if (description === "")
    return { problem: "the frontmatter has no description: (one line saying when to use the skill)" };
  if (description.length > MAX_DESCRIPTION_LENGTH)
    return { problem: `the description is longer than ${MAX_DESCRIPTION_LENGTH} characters` };
  if (split.body.trim() === "") return { problem: "SKILL.md has no instructions after the frontmatter" };
  const rawOrigin = fields.get("origin")?.trim();
  if (rawOrigin !== undefined && rawOrigin !== "agent" && rawOrigin !== "user" && rawOrigin !== "hub")
    return { problem: `origin: must be agent, user or hub (got "${rawOrigin}")` };
  const unsafe = safetyProblem(text, "SKILL.md");
  if (unsafe) return { problem: unsafe };
  return { name, description, origin: (rawOrigin as Origin | undefined) ?? null };
}

/**
 * The text with `origin: agent` in its frontmatter (replacing any other origin): agent-written
 * skills always say so, whatever the model put there. `text` has passed checkSkillText.
 */
export function withAgentOrigin(text: string): string {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const src = bom ? text.slice(1) : text;
  const open = /^---[ \t]*\n/.exec(src)!;
  const rest = src.slice(open[0].length);
  const close = /^(?:---|\.\.\.)[ \t]*$/m.exec(rest)!;
  const lines = rest.slice(0, close.index).split("\n");
  if (lines.at(-1) === "") lines.pop();
  const kept = lines.filter((l) => !/^origin[ \t]*:/.test(l));
  return `${bom}---\n${[...kept, "origin: agent"].join("\n")}\n${rest.slice(close.index)}`;
}

/** The origin a SKILL.md's frontmatter declares, or null. */
export function originOf(text: string): Origin | null {
  const split = splitFrontmatter(text);
  if (split.frontmatter === null) return null;
  const value = parseFrontmatter(split.frontmatter).get("origin")?.trim();
  return value === "agent" || value === "user" || value === "hub" ? value : null;
}

/** Whether a SKILL.md's frontmatter says `pinned: true` (the curator leaves it alone). */
export function isPinned(text: string): boolean {
  const split = splitFrontmatter(text);
  if (split.frontmatter === null) return false;
  return /^(?:true|yes|on)$/i.test(parseFrontmatter(split.frontmatter).get("pinned")?.trim() ?? "");
}

// Skills: folders with a SKILL.md, found in the workspace and user roots. Only the frontmatter is read
// at startup (name and description for the prompt); the body is read when the model asks for it.
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { basename, join } from "node:path";
import { capChars, decodeTextPrefix, readTextPrefix, stripInvisible } from "../tools/instruction-text.js";

/** Characters of a skill body given to the model; the rest is cut with `SKILL_BODY_CUT_NOTE`. */
export const MAX_SKILL_BODY = 20_000;
export const SKILL_BODY_CUT_NOTE = `[skill body cut at ${MAX_SKILL_BODY} characters]`;
/** Discovery reads this much of each SKILL.md; the frontmatter must close within it. */
export const SKILL_HEAD_BYTES = 8 * 1024;
/** Characters of a description shown in the prompt. */
export const MAX_PROMPT_DESCRIPTION = 300;
const SKILL_FILE = "SKILL.md";

export interface Skill {
  /** From the frontmatter, else the folder name. Used as-is (even if odd) for lookup. */
  name: string;
  /** One line: from the frontmatter, else the body's first non-empty line; may be "". */
  description: string;
  /** The skill folder (absolute when the roots are). */
  dir: string;
  /** Its SKILL.md. */
  file: string;
  /**
   * workspace: the project's `.nanohermes/skills`; user: `~/.nanohermes/skills`; external: another
   * tool's folder (`.agents/skills`, `.claude/skills`, in the workspace or the home folder), read
   * and loaded like the others, never changed by the agent or the curator.
   */
  source: "workspace" | "user" | "external";
}

export interface SkillRoots {
  workspace: string;
  /** The settings folder (~/.nanohermes). */
  home: string;
  /** The OS home folder (for ~/.agents/skills and ~/.claude/skills). */
  userHome: string;
  /** The workspace's skills folders (of EXTERNAL_SKILL_DIRS) that still hold what a command left there (issue 26.3): left out. */
  heldWorkspace?: readonly string[];
}

/** Other tools' skill folders, read where a workspace or the home folder has them. */
export const EXTERNAL_SKILL_DIRS = [".agents/skills", ".claude/skills"] as const;

/**
 * Where skills are looked for, most specific first (the workspace's before the home folder's, ours
 * before other tools'): the first skill of a name wins.
 */
export function skillRoots(opts: SkillRoots): { dir: string; source: Skill["source"] }[] {
  const external = (base: string, held: readonly string[] = []) =>
    EXTERNAL_SKILL_DIRS.filter((d) => !held.includes(d)).map((d) => ({
      dir: join(base, ...d.split("/")),
      source: "external" as const,
    }));
  return [
    { dir: join(opts.workspace, ".nanohermes", "skills"), source: "workspace" },
    ...external(opts.workspace, opts.heldWorkspace),
    { dir: join(opts.home, "skills"), source: "user" },
    ...external(opts.userHome),
  ];
}

/**
 * Contract: synchronous and never throws. Broken skills (unreadable, binary, not UTF-8, frontmatter
 * not closed in the first 8 KB) are skipped and described in `problems`; missing roots are fine.
 * A later skill with the name of an earlier one is dropped silently (that is how overriding works).
 */
export function discoverSkills(opts: SkillRoots): { skills: Skill[]; problems: string[] } {
  const skills: Skill[] = [];
  const problems: string[] = [];
  const names = new Set<string>();
  const folders = new Set<string>();
  for (const root of skillRoots(opts)) {
    for (const dir of skillDirs(root.dir, problems)) {
      // The same folder reached twice (a symlinked root or skill) is one skill.
      const real = realPath(dir);
      if (folders.has(real)) continue;
      folders.add(real);
      const skill = readSkillHead(dir, root.source, problems);
      if (!skill || names.has(skill.name)) continue;
      names.add(skill.name);
      skills.push(skill);
    }
  }
  return { skills, problems };
}

/** A root's skill folders in name order: direct subfolders with a SKILL.md, or one category level down. */
function skillDirs(root: string, problems: string[]): string[] {
  const out: string[] = [];
  const rootReal = realPath(root);
  for (const name of subdirs(root, problems)) {
    const dir = join(root, name);
    if (existsSync(join(dir, SKILL_FILE))) {
      out.push(dir);
      continue;
    }
    // A category folder: its subfolders are the skills. Only one level is looked at, so a symlink
    // loop cannot recurse; a link back to the root itself is skipped so its skills keep their paths.
    if (realPath(dir) === rootReal) continue;
    for (const child of subdirs(dir, problems)) {
      const skillDir = join(dir, child);
      if (existsSync(join(skillDir, SKILL_FILE))) out.push(skillDir);
    }
  }
  return out;
}

/** Names of the folders (symlinks followed) in `dir`, sorted, hidden ones left out. */
function subdirs(dir: string, problems: string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") problems.push(`cannot list skills in ${dir} (${code ?? String(err)})`);
    return [];
  }
  return names
    .filter((name) => !name.startsWith(".") && isDir(join(dir, name)))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // a dangling symlink or a vanished entry: not a skill
  }
}

function readSkillHead(dir: string, source: Skill["source"], problems: string[]): Skill | null {
  const file = join(dir, SKILL_FILE);
  const read = readTextPrefix(file, SKILL_HEAD_BYTES);
  if (!read.ok) {
    problems.push(`${file} ${read.reason}; skipped`);
    return null;
  }
  const split = splitFrontmatter(read.text);
  if (split.unclosed && !read.complete) {
    problems.push(`${file}: frontmatter does not end (---) within the first ${SKILL_HEAD_BYTES / 1024} KB; skipped`);
    return null;
  }
  const fields = split.frontmatter === null ? new Map<string, string>() : parseFrontmatter(split.frontmatter);
  const name = oneLine(fields.get("name") ?? "") || basename(dir);
  const description = oneLine(fields.get("description") ?? "") || oneLine(firstBodyLine(split.body));
  return { name, description, dir, file, source };
}

/** Hidden characters removed, whitespace runs (newlines included) collapsed, trimmed. */
function oneLine(text: string): string {
  return stripInvisible(text).text.replace(/\s+/g, " ").trim();
}

function firstBodyLine(body: string): string {
  for (const line of body.split("\n")) {
    const text = line.replace(/^\s*#+\s*/, "").trim();
    if (text !== "" && !/^[-=*_]{3,}$/.test(text)) return text;
  }
  return "";
}

/**
 * Splits leading YAML frontmatter (between a first line `---` and the next `---` or `...` line)
 * from the body. `unclosed` when the text opens frontmatter but never closes it: the caller decides
 * whether more text might close it; otherwise the whole text is body (a leading rule, say).
 */
export function splitFrontmatter(text: string): { frontmatter: string | null; body: string; unclosed: boolean } {
  const src = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const opening = /^---[ \t]*\n/.exec(src);
  if (!opening) return { frontmatter: null, body: src, unclosed: false };
  const rest = src.slice(opening[0].length);
  const close = /^(?:---|\.\.\.)[ \t]*$/m.exec(rest);
  if (!close) return { frontmatter: null, body: src, unclosed: true };
  const body = rest.slice(close.index + close[0].length).replace(/^\n/, "");
  return { frontmatter: rest.slice(0, close.index), body, unclosed: false };
}

/**
 * The top-level `key: value` pairs of a small YAML subset: plain values (folded over indented
 * continuation lines, ` #` comments dropped), single- and double-quoted values, and `|` / `>` block
 * scalars (chomping and indentation indicators accepted). Nested structures come back as rough text;
 * callers only read scalar keys.
 */
export function parseFrontmatter(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const m = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]+(.*))?$/.exec(line);
    if (!m) continue; // comments, blank lines, stray indented lines, unsupported syntax
    const cont: string[] = [];
    while (i + 1 < lines.length && /^(?:[ \t]|$)/.test(lines[i + 1]!)) cont.push(lines[++i]!);
    fields.set(m[1]!, scalar((m[2] ?? "").trim(), cont));
  }
  return fields;
}

function scalar(raw: string, cont: string[]): string {
  const block = /^([|>])([+-]?)([1-9]?)[+-]?[ \t]*(?:#.*)?$/.exec(raw);
  if (block) return blockScalar(block[1] === ">", block[3] ? Number(block[3]) : 0, cont);
  if (raw.startsWith('"') || raw.startsWith("'")) return quoted([raw, ...cont.map((l) => l.trim())].join(" "));
  // A plain scalar: lines fold into one, a blank line is a line break.
  const parts = [raw, ...cont.map((l) => l.trim())].map((l) => l.replace(/(?:^|[ \t]+)#.*$/, ""));
  return parts
    .reduce(
      (acc, part) => (part === "" ? `${acc}\n` : acc === "" || acc.endsWith("\n") ? acc + part : `${acc} ${part}`),
      "",
    )
    .trim();
}

function blockScalar(folded: boolean, indentIndicator: number, cont: string[]): string {
  const firstText = cont.find((l) => l.trim() !== "");
  if (firstText === undefined) return "";
  const indent = indentIndicator || /^[ \t]*/.exec(firstText)![0].length;
  const lines = cont.map((l) => (l.trim() === "" ? "" : l.slice(Math.min(indent, /^[ \t]*/.exec(l)![0].length))));
  while (lines.length && lines.at(-1) === "") lines.pop(); // chomping does not matter: values are trimmed
  if (!folded) return lines.join("\n");
  let out = "";
  let prev: string | null = null;
  for (const line of lines) {
    if (prev === null) out = line;
    else if (line === "") out += "\n";
    // Lines start a new line after a blank one, and more-indented lines keep their breaks.
    else if (prev === "" || /^[ \t]/.test(line) || /^[ \t]/.test(prev)) out += (prev === "" ? "" : "\n") + line;
    else out += ` ${line}`;
    prev = line;
  }
  return out;
}

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "0": "\0",
  '"': '"',
  "\\": "\\",
  "/": "/",
  " ": " ",
  e: "\x1b",
};

/** A single- or double-quoted value; anything after the closing quote (a comment) is dropped. */
function quoted(text: string): string {
  const q = text[0]!;
  let out = "";
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (q === "'") {
      if (c !== "'") {
        out += c;
      } else if (text[i + 1] === "'") {
        out += "'"; // '' is an escaped quote
        i++;
      } else return out;
    } else if (c === '"') {
      return out;
    } else if (c === "\\" && i + 1 < text.length) {
      const e = text[++i]!;
      const hex = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
      const code = hex ? Number.parseInt(text.slice(i + 1, i + 1 + hex), 16) : Number.NaN;
      if (hex && Number.isInteger(code) && code <= 0x10ffff) {
        out += String.fromCodePoint(code);
        i += hex;
      } else out += ESCAPES[e] ?? e;
    } else out += c;
  }
  return out; // no closing quote: take what there is rather than lose the value
}

/**
 * Contract: the SKILL.md body without its frontmatter, hidden characters removed, cut at
 * MAX_SKILL_BODY characters with SKILL_BODY_CUT_NOTE. Reads only what the cap needs, so a huge file
 * is cheap. Rejects with an Error (message names the file) when it cannot be read as text.
 */
export async function loadSkillBody(skill: Skill): Promise<string> {
  // Frontmatter fits in the head; then at most 4 bytes a character, +1 to see whether there is more.
  const limit = SKILL_HEAD_BYTES + MAX_SKILL_BODY * 4 + 4;
  const handle = await open(skill.file, "r");
  let got = 0;
  const buf = Buffer.alloc(limit + 1);
  try {
    while (got < buf.length) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
  } finally {
    await handle.close();
  }
  const read = decodeTextPrefix(buf.subarray(0, Math.min(got, limit)), got <= limit);
  if (!read.ok) throw new Error(`${skill.file} ${read.reason}`);
  const stripped = stripInvisible(splitFrontmatter(read.text).body);
  const body = stripped.text.replace(/^\s*\n/, "").trimEnd();
  let capped = capChars(body, MAX_SKILL_BODY, SKILL_BODY_CUT_NOTE).text;
  if (capped === body && !read.complete) capped = `${body}\n\n${SKILL_BODY_CUT_NOTE}`;
  if (stripped.removed > 0)
    capped += `\n\n[${stripped.removed} invisible characters (zero-width or bidi controls) were removed from this skill]`;
  return capped;
}

/**
 * The system prompt's list of skills: "" when there are none. Descriptions are capped at
 * MAX_PROMPT_DESCRIPTION characters; the model loads the rest with the skill tool.
 */
export function skillsPromptSection(skills: Skill[], budgetChars = Number.POSITIVE_INFINITY): string {
  if (skills.length === 0) return "";
  const cap = (text: string) =>
    text.length <= MAX_PROMPT_DESCRIPTION ? text : `${text.slice(0, MAX_PROMPT_DESCRIPTION - 1).trimEnd()}…`;
  const head = [
    "# Skills",
    "Skills are packs of instructions for particular kinds of task. Before doing a task that a skill below covers, call the skill tool with its name to load the full instructions, then follow them. A prompt may end with a line naming relevant skills.",
  ];
  // Within the budget, one line per skill; past it the rest are counted, not listed (the
  // per-prompt hint names them when they matter).
  let used = head.join("\n").length;
  const lines: string[] = [];
  for (const [i, s] of skills.entries()) {
    const entry = s.description ? `- ${s.name}: ${cap(s.description)}` : `- ${s.name}`;
    const more = skills.length - i;
    if (used + entry.length + 1 > budgetChars && more > 0) {
      lines.push(
        `- … and ${more} more skill${more === 1 ? "" : "s"}, named in a prompt's relevant-skills line when they apply`,
      );
      break;
    }
    lines.push(entry);
    used += entry.length + 1;
  }
  return [...head, ...lines].join("\n");
}

/** By exact name first, then ignoring case (the first such skill in discovery order). */
export function findSkill(skills: Skill[], name: string): Skill | undefined {
  const wanted = name.trim();
  const lower = wanted.toLowerCase();
  return skills.find((s) => s.name === wanted) ?? skills.find((s) => s.name.toLowerCase() === lower);
}

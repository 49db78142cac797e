// What skill_manage does: every action is planned first (all checks, nothing written: the gate's
// pre-check runs the same plan before anyone is asked), then applied. Changes to an existing skill
// snapshot what they replace into the ledger, so `nanohermes skills rollback` can undo them.
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { atomicWriteFile } from "../tools/fs-atomic.js";
import { ToolError, type SessionTools, type ToolContext, type ToolOutput } from "../tools/define.js";
import { appendEntry, snapshot } from "./ledger.js";
import { markRead, unreadReason } from "./read-marks.js";
import { closestSkill, DUPLICATE_THRESHOLD, type SkillDoc } from "./skill-rank.js";
import type { SkillManageArgs, SkillManageOptions } from "./skill-manage.js";
import {
  checkSkillText,
  filePathProblem,
  MAX_FILE_BYTES,
  nameProblem,
  safetyProblem,
  withAgentOrigin,
} from "./skill-rules.js";
import {
  agentRoot,
  archivedSkills,
  archiveFolder,
  ownedSkills,
  readSkillText,
  restoreFolder,
  SKILL_FILE,
  skillFiles,
  type OwnedSkill,
} from "./skill-store.js";
import { splitFrontmatter } from "./skills.js";

/** A checked change, ready to apply. */
interface Plan {
  skill: string;
  apply(session: SessionTools | undefined): Promise<ToolOutput>;
}

const need = (value: string | undefined, arg: string, action: string): string => {
  if (value === undefined) throw new ToolError(`${action} needs ${arg}`);
  return value;
};

/** Bodies are read up to this much for the duplicate check. */
const BODY_SAMPLE = 32 * 1024;

function docOf(owned: OwnedSkill): SkillDoc {
  const text = readSkillText(owned.skill.file) ?? "";
  return {
    name: owned.skill.name,
    description: owned.skill.description,
    body: splitFrontmatter(text.slice(0, BODY_SAMPLE)).body,
  };
}

/**
 * Why `candidate` may not be created beside the existing skills: a skill of that name (anywhere),
 * an archived one, or one so similar that it should be patched instead. Null when it may.
 */
export function createProblem(candidate: SkillDoc, existing: readonly OwnedSkill[], home: string): string | null {
  const clash = existing.find((o) => o.skill.name.toLowerCase() === candidate.name);
  if (clash)
    return `a skill named "${candidate.name}" already exists (${clash.skill.dir}${clash.readOnly ? ", read-only to you" : ""}); ${clash.readOnly ? "choose another name" : `patch "${candidate.name}" instead`}`;
  if (existsSync(join(agentRoot(home), candidate.name)))
    return `the folder ${join(agentRoot(home), candidate.name)} already exists; choose another name`;
  if (archivedSkills(home).some((a) => a.name === candidate.name))
    return `an archived skill is named "${candidate.name}": bring it back with restore, or choose another name`;
  const close = closestSkill(candidate, existing.map(docOf));
  if (close && close.similarity >= DUPLICATE_THRESHOLD) {
    // A skill the agent may not change (the user's, the project's, another tool's) is used as it is.
    if (existing.find((o) => o.skill.name === close.name)?.readOnly)
      return `\`${close.name}\` already covers this (similarity ${close.similarity.toFixed(2)}) and is read-only to you: load it with the skill tool and follow it instead of writing a copy`;
    return `patch \`${close.name}\` instead: it already covers this (similarity ${close.similarity.toFixed(2)}); load it with the skill tool, then patch or edit it`;
  }
  return null;
}

/** Plans `args` against the skills as they are now; throws a ToolError for the model when it cannot be done. */
export async function planSkillChange(
  args: SkillManageArgs,
  opts: SkillManageOptions,
  _signal: AbortSignal,
  session: SessionTools | undefined | null,
): Promise<Plan> {
  const home = opts.roots.home;
  const problem = nameProblem(args.name);
  if (problem) throw new ToolError(problem);
  const all = ownedSkills(opts.roots);
  if (args.action === "create") {
    const content = need(args.content, "content (the whole SKILL.md)", "create");
    const checked = checkSkillText(content, args.name);
    if ("problem" in checked) throw new ToolError(checked.problem);
    const dup = createProblem(
      { name: args.name, description: checked.description, body: splitFrontmatter(content).body },
      all,
      home,
    );
    if (dup) throw new ToolError(dup);
    return { skill: args.name, apply: (s) => create(args.name, withAgentOrigin(content), opts, s) };
  }
  if (args.action === "restore") {
    if (!archivedSkills(home).some((a) => a.name === args.name))
      throw new ToolError(`no archived skill "${args.name}"`);
    if (all.some((o) => o.skill.name === args.name))
      throw new ToolError(`a live skill is already named "${args.name}"; archive it first or leave the archived one`);
    return { skill: args.name, apply: (s) => restore(args.name, opts, s) };
  }
  const owned = all.find((o) => o.skill.name === args.name);
  if (!owned) {
    if (archivedSkills(home).some((a) => a.name === args.name))
      throw new ToolError(`skill "${args.name}" is archived; restore it first`);
    const mine = all.filter((o) => !o.readOnly).map((o) => o.skill.name);
    throw new ToolError(
      `no skill "${args.name}"${mine.length ? `; your skills: ${mine.join(", ")}` : "; you have written no skills yet (create one)"}`,
    );
  }
  if (owned.readOnly) throw new ToolError(owned.readOnly);
  const current = readSkillText(owned.skill.file);
  if (current === null) throw new ToolError(`cannot read ${owned.skill.file}`);
  const unread = session === null ? null : unreadReason(session, owned.skill.file, current, args.name);
  if (unread) throw new ToolError(unread);
  const dir = owned.skill.dir;
  switch (args.action) {
    case "edit": {
      const content = need(args.content, "content (the whole SKILL.md)", "edit");
      const checked = checkSkillText(content, args.name);
      if ("problem" in checked) throw new ToolError(checked.problem);
      return {
        skill: args.name,
        apply: (s) => writeSkillFile(owned, SKILL_FILE, withAgentOrigin(content), "edit", opts, s),
      };
    }
    case "patch": {
      const oldString = need(args.old_string, "old_string", "patch");
      const newString = need(args.new_string, "new_string", "patch");
      if (oldString === "") throw new ToolError("old_string is empty; give the exact text to replace");
      const rel = args.file_path === undefined || args.file_path === SKILL_FILE ? SKILL_FILE : args.file_path;
      if (rel !== SKILL_FILE) {
        const bad = filePathProblem(rel);
        if (bad) throw new ToolError(bad);
      }
      const before = rel === SKILL_FILE ? current : readSupporting(dir, rel);
      const count = before.split(oldString).length - 1;
      if (count === 0)
        throw new ToolError(
          `old_string is not in ${rel} of "${args.name}"; load the skill again and copy the text exactly`,
        );
      if (count > 1 && args.replace_all !== true)
        throw new ToolError(`old_string occurs ${count} times in ${rel}; include more context or set replace_all`);
      const after =
        args.replace_all === true
          ? before.split(oldString).join(newString)
          : before.replace(oldString, () => newString);
      if (rel === SKILL_FILE) {
        const checked = checkSkillText(after, args.name);
        if ("problem" in checked) throw new ToolError(`the patched SKILL.md would be invalid: ${checked.problem}`);
        return { skill: args.name, apply: (s) => writeSkillFile(owned, rel, withAgentOrigin(after), "patch", opts, s) };
      }
      checkSupporting(after, rel);
      return { skill: args.name, apply: (s) => writeSkillFile(owned, rel, after, "patch", opts, s) };
    }
    case "write_file": {
      const rel = need(args.file_path, "file_path", "write_file");
      const bad = filePathProblem(rel);
      if (bad) throw new ToolError(bad);
      const text = need(args.file_content, "file_content", "write_file");
      checkSupporting(text, rel);
      noLinksOnTheWay(dir, rel);
      return { skill: args.name, apply: (s) => writeSkillFile(owned, rel, text, "write_file", opts, s) };
    }
    case "remove_file": {
      const rel = need(args.file_path, "file_path", "remove_file");
      const bad = filePathProblem(rel);
      if (bad) throw new ToolError(bad);
      noLinksOnTheWay(dir, rel);
      if (!existsSync(join(dir, rel))) throw new ToolError(`"${args.name}" has no file ${rel}`);
      return { skill: args.name, apply: (s) => removeFile(owned, rel, opts, s) };
    }
    case "archive": {
      const into = args.absorbed_into?.trim();
      if (into !== undefined && into !== "") {
        if (into === args.name) throw new ToolError("absorbed_into names the skill being archived");
        if (!all.some((o) => o.skill.name === into))
          throw new ToolError(`absorbed_into: no live skill "${into}" to have absorbed "${args.name}"`);
      }
      return { skill: args.name, apply: (s) => archive(owned, into || undefined, opts, s) };
    }
  }
}

function readSupporting(dir: string, rel: string): string {
  noLinksOnTheWay(dir, rel);
  try {
    return readFileSync(join(dir, rel), "utf8");
  } catch {
    throw new ToolError(`the skill has no file ${rel}`);
  }
}

function checkSupporting(text: string, rel: string): void {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_FILE_BYTES)
    throw new ToolError(
      `${rel} would be ${bytes.toLocaleString("en-US")} bytes (limit ${MAX_FILE_BYTES.toLocaleString("en-US")})`,
    );
  const unsafe = safetyProblem(text, rel);
  if (unsafe) throw new ToolError(unsafe);
}

/** Refuses a path through a link or a non-folder inside the skill folder: writes stay in it. */
function noLinksOnTheWay(dir: string, rel: string): void {
  if (lstatSync(dir).isSymbolicLink()) throw new ToolError(`${dir} is a link; skills are written only in place`);
  let at = dir;
  for (const part of rel.split("/")) {
    at = join(at, part);
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(at);
    } catch {
      return; // the rest does not exist yet
    }
    if (st.isSymbolicLink()) throw new ToolError(`${rel} goes through a link (${at}); refused`);
  }
}

export async function runSkillManage(
  args: SkillManageArgs,
  opts: SkillManageOptions,
  ctx: ToolContext,
): Promise<ToolOutput> {
  const plan = await planSkillChange(args, opts, ctx.signal, ctx.session);
  const out = await plan.apply(ctx.session);
  opts.changed?.();
  return out;
}

function record(
  opts: SkillManageOptions,
  session: SessionTools | undefined,
  skill: string,
  event: "created" | "patched" | "archived" | "restored",
  detail?: string,
) {
  try {
    opts.record?.({
      skill,
      event,
      ...(session?.sessionId ? { sessionId: session.sessionId } : {}),
      ...(detail ? { detail } : {}),
    });
  } catch {
    // the evidence table is a record, not a precondition
  }
}

async function create(
  name: string,
  text: string,
  opts: SkillManageOptions,
  session: SessionTools | undefined,
): Promise<ToolOutput> {
  const dir = join(agentRoot(opts.roots.home), name);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const file = join(dir, SKILL_FILE);
  await atomicWriteFile(file, text, 0o644);
  markRead(session, file, text);
  const entry = await appendEntry(opts.roots.home, {
    actor: "agent",
    action: "create",
    skill: name,
    before: null,
    after: await snapshot(opts.roots.home, dir, [SKILL_FILE]),
  });
  record(opts, session, name, "created", entry.id);
  return {
    forModel: `created skill "${name}" in ${dir} (origin: agent; ledger entry ${entry.id}). It is live: load it with the skill tool by name.`,
    display: `created skill ${name}`,
  };
}

async function writeSkillFile(
  owned: OwnedSkill,
  rel: string,
  text: string,
  action: "edit" | "patch" | "write_file",
  opts: SkillManageOptions,
  session: SessionTools | undefined,
): Promise<ToolOutput> {
  const { dir, name } = owned.skill;
  const home = opts.roots.home;
  const existed = existsSync(join(dir, rel));
  const before = await snapshot(home, dir, existed ? [rel] : []);
  const file = join(dir, rel);
  mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
  await atomicWriteFile(file, text, 0o644);
  // Scripts run only through the sandboxed shell (bash scripts/x.sh), never as programs of their own.
  chmodSync(file, 0o644);
  if (rel === SKILL_FILE) markRead(session, file, text);
  const entry = await appendEntry(home, {
    actor: "agent",
    action: "change",
    skill: name,
    before,
    after: await snapshot(home, dir, [rel]),
    note: `${action} ${rel}`,
  });
  record(opts, session, name, "patched", `${action} ${rel} (${entry.id})`);
  return {
    forModel: `${action === "write_file" ? (existed ? "rewrote" : "wrote") : action === "edit" ? "rewrote" : "patched"} ${rel} of skill "${name}" (ledger entry ${entry.id})`,
    display: `${action} ${name}${rel === SKILL_FILE ? "" : ` ${rel}`}`,
  };
}

async function removeFile(
  owned: OwnedSkill,
  rel: string,
  opts: SkillManageOptions,
  session: SessionTools | undefined,
): Promise<ToolOutput> {
  const { dir, name } = owned.skill;
  const home = opts.roots.home;
  const before = await snapshot(home, dir, [rel]);
  // Set aside in the archive rather than deleted: the ledger's copy is the way back, this the visible one.
  const aside = join(home, "skills", ".archive", ".removed", `${name}-${Date.now()}`, rel);
  mkdirSync(dirname(aside), { recursive: true, mode: 0o700 });
  renameSync(join(dir, rel), aside);
  const entry = await appendEntry(home, {
    actor: "agent",
    action: "change",
    skill: name,
    before,
    after: { dir, files: {} },
    note: `remove_file ${rel}`,
  });
  record(opts, session, name, "patched", `remove_file ${rel} (${entry.id})`);
  return {
    forModel: `removed ${rel} from skill "${name}" (kept in ${aside}; ledger entry ${entry.id})`,
    display: `removed ${name} ${rel}`,
  };
}

async function archive(
  owned: OwnedSkill,
  into: string | undefined,
  opts: SkillManageOptions,
  session: SessionTools | undefined,
): Promise<ToolOutput> {
  const { dir, name } = owned.skill;
  const home = opts.roots.home;
  const before = await snapshot(home, dir, skillFiles(dir));
  const moved = archiveFolder(home, dir);
  const entry = await appendEntry(home, {
    actor: "agent",
    action: "archive",
    skill: name,
    before,
    after: { dir: moved, files: before.files },
    ...(into ? { note: `absorbed into ${into}` } : {}),
  });
  record(opts, session, name, "archived", into ? `absorbed into ${into}` : entry.id);
  return {
    forModel: `archived skill "${name}" (moved to ${moved}${into ? `, absorbed into "${into}"` : ""}; ledger entry ${entry.id}). Nothing was deleted: restore brings it back.`,
    display: `archived ${name}`,
  };
}

async function restore(name: string, opts: SkillManageOptions, session: SessionTools | undefined): Promise<ToolOutput> {
  const home = opts.roots.home;
  let dir: string;
  try {
    dir = restoreFolder(home, name);
  } catch (error) {
    throw new ToolError((error as Error).message);
  }
  const after = await snapshot(home, dir, skillFiles(dir));
  const entry = await appendEntry(home, { actor: "agent", action: "restore", skill: name, before: null, after });
  record(opts, session, name, "restored", entry.id);
  return { forModel: `restored skill "${name}" to ${dir} (ledger entry ${entry.id})`, display: `restored ${name}` };
}

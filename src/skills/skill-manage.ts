// The skill_manage tool's face: its name, arguments (Hermes's, so skills and prompts carry over) and
// description. What it does loads with its first call (skill-manage-run.ts), so a run that never
// changes a skill never loads it.
import * as z from "../protocol/zod.js";
import { defineTool, type AnyTool, type ToolContext } from "../tools/define.js";
import type { SkillRoots } from "./skills.js";

export const SKILL_ACTIONS = ["create", "patch", "edit", "write_file", "remove_file", "archive", "restore"] as const;
export type SkillAction = (typeof SKILL_ACTIONS)[number];

export const skillManageParams = z.object({
  action: z.enum(SKILL_ACTIONS).check(z.describe("What to do.")),
  name: z.string().check(z.describe("The skill's name: lower-case letters, digits, -, _ and . (at most 64).")),
  content: z
    .optional(z.string())
    .check(
      z.describe(
        "create / edit: the whole SKILL.md, starting with frontmatter (--- name: NAME, description: ONE LINE ---) then the instructions.",
      ),
    ),
  old_string: z.optional(z.string()).check(z.describe("patch: the exact text to replace (unique unless replace_all).")),
  new_string: z.optional(z.string()).check(z.describe("patch: the replacement.")),
  replace_all: z.optional(z.boolean()).check(z.describe("patch: replace every occurrence.")),
  file_path: z
    .optional(z.string())
    .check(
      z.describe(
        "write_file / remove_file (and patch of a supporting file): a path under references/, templates/, scripts/ or assets/.",
      ),
    ),
  file_content: z.optional(z.string()).check(z.describe("write_file: the file's whole text.")),
  absorbed_into: z.optional(z.string()).check(z.describe("archive: the skill this one was merged into, if any.")),
});
export type SkillManageArgs = z.infer<typeof skillManageParams>;

/** What a skill change is recorded as (skill_events). */
export type SkillChangeEvent = "created" | "patched" | "archived" | "restored";

export interface SkillManageOptions {
  roots: SkillRoots;
  /** A change, for the evidence table; absent: not recorded. Never throws into the tool. */
  record?(event: { skill: string; event: SkillChangeEvent; sessionId?: string; detail?: string }): void;
  /** After a change: the process's list of skills is read again. */
  changed?(): void;
}

type Runner = typeof import("./skill-manage-run.js");
let runner: Promise<Runner> | null = null;
const load = () => (runner ??= import("./skill-manage-run.js"));

export function skillManageTool(opts: SkillManageOptions): AnyTool {
  return defineTool({
    name: "skill_manage",
    kind: "edit",
    description:
      "Create and maintain your skills (procedural memory: how to do a kind of task, learned from work). " +
      "Actions: create {name, content} (the whole SKILL.md), patch {name, old_string, new_string} (exact text; " +
      "file_path to patch a supporting file), edit {name, content} (full rewrite), write_file {name, file_path, " +
      "file_content} / remove_file {name, file_path} (files under references/, templates/, scripts/, assets/), " +
      "archive {name, absorbed_into?} (moved aside, never deleted), restore {name} (back from the archive). " +
      "Load a skill with the skill tool before changing it. Only skills you wrote can change; the user's, the project's and other tools' (.agents/skills, .claude/skills) are read-only. " +
      "Create a skill only when the user asks or a procedure is clearly reusable; patch the closest skill rather than creating a near-duplicate.",
    params: skillManageParams,
    summarize: (a) => `${a.action} ${a.name}${a.file_path ? ` ${a.file_path}` : ""}`,
    async precheck(args, ctx) {
      await (await load()).planSkillChange(args, opts, ctx.signal, null);
    },
    async run(args, ctx: ToolContext) {
      return (await load()).runSkillManage(args, opts, ctx);
    },
  });
}

// The skill tool: loads a skill's full instructions by name, with a footer naming its folder and
// supporting files so the model can read them with read_file when the instructions point there.
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import * as z from "../protocol/zod.js";
import { defineTool, ToolError, type AnyTool } from "../tools/define.js";
import { byteLength, headBytes, MAX_RESULT_BYTES } from "../tools/truncate.js";
import { markRead } from "./read-marks.js";
import { findSkill, loadSkillBody, SKILL_BODY_CUT_NOTE, type Skill } from "./skills.js";

/** Supporting files listed in the footer. */
export const MAX_SKILL_FILES = 50;
/** How deep the footer looks into a skill folder. */
const MAX_DEPTH = 4;
const SKIP = new Set(["node_modules", "__pycache__"]);

/**
 * Files under a skill folder as "/"-separated relative paths, in name order, depth first, at most
 * `limit` (`more` when there were others). SKILL.md at the top, hidden entries and dependency folders
 * are left out; symlinks are followed, and a folder already visited (a loop) is not entered again.
 */
export async function supportingFiles(
  dir: string,
  limit = MAX_SKILL_FILES,
): Promise<{ files: string[]; more: boolean }> {
  const files: string[] = [];
  const visited = new Set<string>();
  let more = false;
  async function walk(abs: string, rel: string, depth: number): Promise<void> {
    const real = await realpath(abs).catch(() => null);
    if (real === null || visited.has(real)) return;
    visited.add(real);
    const names = (await readdir(abs).catch(() => [] as string[])).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      if (more) return;
      if (name.startsWith(".") || SKIP.has(name) || (rel === "" && name === "SKILL.md")) continue;
      const info = await stat(join(abs, name)).catch(() => null);
      if (!info) continue;
      const path = rel === "" ? name : `${rel}/${name}`;
      if (info.isDirectory()) {
        if (depth < MAX_DEPTH) await walk(join(abs, name), path, depth + 1);
      } else if (files.length < limit) {
        files.push(path);
      } else {
        more = true;
      }
    }
  }
  await walk(dir, "", 1);
  return { files, more };
}

function footer(skill: Skill, listing: { files: string[]; more: boolean }, cut: boolean): string {
  const lines = [
    "---",
    `Skill "${skill.name}" lives in ${skill.dir} (relative paths in its instructions are relative to this folder).`,
  ];
  if (cut) lines.push(`The instructions were cut: read the rest of ${skill.file} with read_file.`);
  if (listing.files.length === 0) {
    lines.push("It has no supporting files.");
  } else {
    lines.push("Supporting files (read them with read_file when the instructions call for them):");
    lines.push(...listing.files.map((f) => `- ${f}`));
    if (listing.more)
      lines.push(`- … more files not listed (only the first ${listing.files.length}); list the folder to see them`);
  }
  return lines.join("\n");
}

/**
 * Contract: `skills` is the list discovered at startup (the same one the prompt section shows).
 * The result always keeps its footer: a body too big for the registry's result cap is cut here,
 * before the footer, rather than by the registry after it.
 */
export interface SkillToolOptions {
  /** A skill was loaded (the `loaded` evidence); never throws into the tool. */
  onLoaded?(name: string, sessionId: string | undefined): void;
}

export function skillTool(list: Skill[] | (() => Skill[]), opts: SkillToolOptions = {}): AnyTool {
  const current = typeof list === "function" ? list : () => list;
  return defineTool({
    name: "skill",
    kind: "read",
    description:
      "Load a skill's full instructions by name (the skills are listed in the Skills section of the system prompt). " +
      "Call it before doing a task a skill covers, then follow the instructions. The result ends with the skill's folder " +
      "and its supporting files (references, scripts, templates), which you can read with read_file.",
    params: z.object({
      name: z.string().check(z.minLength(1), z.describe("The skill's name, as listed under Skills.")),
    }),
    summarize: (a) => a.name,
    async run(args, ctx) {
      const skills = current();
      const skill = findSkill(skills, args.name);
      if (!skill) {
        const names = skills.map((s) => s.name);
        throw new ToolError(
          names.length === 0
            ? `unknown skill "${args.name}": no skills are installed`
            : `unknown skill "${args.name}"; available skills: ${names.join(", ")}`,
        );
      }
      let body: string;
      try {
        body = await loadSkillBody(skill);
      } catch (err) {
        throw new ToolError(`cannot load skill "${skill.name}": ${err instanceof Error ? err.message : String(err)}`);
      }
      const listing = await supportingFiles(skill.dir);
      // What the model has now seen is what skill_manage may change (read before write).
      const whole = await readFile(skill.file, "utf8").catch(() => null);
      if (whole !== null) markRead(ctx.session, skill.file, whole);
      try {
        opts.onLoaded?.(skill.name, ctx.session?.sessionId);
      } catch {
        // evidence only
      }
      let text = body;
      let cut = body.includes(SKILL_BODY_CUT_NOTE);
      const fullFooter = footer(skill, listing, true);
      if (byteLength(`${body}\n\n${fullFooter}`) > MAX_RESULT_BYTES) {
        const note = `[skill body cut to fit the ${MAX_RESULT_BYTES}-byte result limit]`;
        const budget = MAX_RESULT_BYTES - byteLength(`\n\n${note}\n\n${fullFooter}`);
        text = `${headBytes(body, budget).trimEnd()}\n\n${note}`;
        cut = true;
      }
      return {
        forModel: `${text}\n\n${footer(skill, listing, cut)}`,
        display: `loaded skill ${skill.name} (${text.length} chars)`,
      };
    },
  });
}

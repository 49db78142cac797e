// The slash commands an ACP client offers (available_commands_update) and what a prompt that
// starts with one does: a session command (/compact, /undo, /clear), a custom command's prompt,
// or a skill named for the model to load.
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { expandCommand, type CustomCommand } from "../config/custom-commands.js";
import type { Skill } from "../skills/skills.js";

/** Session commands: run by the engine between turns, not by the model. */
const BUILT_IN = {
  compact: { description: "Fold older messages into a summary now", hint: "what to keep in focus" },
  undo: { description: "Drop the last turn (or the last N)", hint: "N" },
  clear: { description: "Empty the conversation", hint: null },
} as const;

export type SlashAction =
  | { kind: "compact"; focus?: string }
  | { kind: "undo"; n: number }
  | { kind: "clear" }
  | { kind: "prompt"; text: string; model?: string };

export function availableCommands(custom: readonly CustomCommand[], skills: readonly Skill[]): AvailableCommand[] {
  const out: AvailableCommand[] = Object.entries(BUILT_IN).map(([name, c]) => ({
    name,
    description: c.description,
    ...(c.hint ? { input: { hint: c.hint } } : {}),
  }));
  const taken = new Set(out.map((c) => c.name));
  for (const c of custom) {
    const name = c.name.replace(/^\//, "");
    if (taken.has(name)) continue;
    taken.add(name);
    out.push({
      name,
      description: c.description || `custom command (${c.scope})`,
      ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}),
    });
  }
  for (const s of skills) {
    if (taken.has(s.name) || /\s/.test(s.name)) continue;
    taken.add(s.name);
    out.push({ name: s.name, description: s.description || `skill (${s.source})`, input: { hint: "the task" } });
  }
  return out;
}

/** What `/name args` means here; null when the text is not one of our commands (it goes to the model as typed). */
export function parseSlash(
  text: string,
  custom: readonly CustomCommand[],
  skills: readonly Skill[],
): SlashAction | null {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return null;
  const name = m[1] ?? "";
  const args = (m[2] ?? "").trim();
  if (name === "compact") return args ? { kind: "compact", focus: args } : { kind: "compact" };
  if (name === "undo") {
    const n = args === "" ? 1 : Number(args);
    return Number.isInteger(n) && n > 0 ? { kind: "undo", n } : null;
  }
  if (name === "clear") return { kind: "clear" };
  const command = custom.find((c) => c.name === `/${name}`);
  if (command)
    return {
      kind: "prompt",
      text: expandCommand(command.body, args),
      ...(command.model ? { model: command.model } : {}),
    };
  const skill = skills.find((s) => s.name === name);
  if (skill)
    return {
      kind: "prompt",
      text: `Use the skill "${skill.name}" (load it with the skill tool first).${args ? `\n\n${args}` : ""}`,
    };
  return null;
}

// Custom slash commands: Markdown files in .nanohermes/commands/ and ~/.nanohermes/commands/ (and
// Claude Code's .claude/commands/ layout) become /name commands; a subfolder is a namespace
// (frontend/component.md is /frontend:component). The text is the prompt, with $ARGUMENTS and
// $1..$9 filled in; front matter may give a description, an argument hint and a model.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { byCodeUnit } from "../protocol/order.js";

export interface CustomCommand {
  /** "/review-pr", "/frontend:component". */
  name: string;
  description: string;
  argumentHint: string | null;
  /** The model for this command's turn only. */
  model: string | null;
  /** The prompt, front matter removed. */
  body: string;
  /** "workspace" or "user": shown in /help and completion. */
  scope: "workspace" | "user";
  file: string;
}

/** Bounds: a commands folder is a handful of small files; anything past these is left out. */
const MAX_FILES = 200;
const MAX_FILE_BYTES = 64 * 1024;
const MAX_DEPTH = 3;

/** `name: value` lines between `---` fences at the very top; the rest is the body. */
export function parseCommandFile(text: string): { meta: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { meta: {}, body: text.trim() };
  const meta: Record<string, string> = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (kv) meta[kv[1]!.toLowerCase()] = kv[2]!.trim().replace(/^(["'])(.*)\1$/, "$2");
  }
  return { meta, body: text.slice(match[0].length).trim() };
}

/**
 * The prompt for `/name ARGS`: $ARGUMENTS is the whole argument text, $1..$9 its words (quotes
 * group words: "two words"). A command without $ARGUMENTS or $N gets the arguments appended, so
 * nothing typed is lost.
 */
export function expandCommand(body: string, args: string): string {
  const words = [...args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
  const uses = /\$ARGUMENTS|\$[1-9]/.test(body);
  const filled = body.replace(/\$ARGUMENTS|\$([1-9])/g, (_all, n: string | undefined) =>
    n ? (words[Number(n) - 1] ?? "") : args,
  );
  return uses || !args.trim() ? filled : `${filled}\n\n${args}`;
}

/** Command names are what a slash can be followed by: letters, digits, - _ . and : for namespaces. */
const validName = (name: string) => /^[A-Za-z0-9][\w.-]*(:[A-Za-z0-9][\w.-]*)*$/.test(name);

function scan(
  dir: string,
  scope: CustomCommand["scope"],
  out: Map<string, CustomCommand>,
  budget: { files: number },
  prefix: string[] = [],
  depth = 0,
): void {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => byCodeUnit(a.name, b.name))) {
    if (budget.files >= MAX_FILES) return;
    const path = join(dir, e.name);
    if (e.isDirectory() && depth < MAX_DEPTH && !e.name.startsWith("."))
      scan(path, scope, out, budget, [...prefix, e.name], depth + 1);
    if (!e.isFile() || !e.name.endsWith(".md")) continue;
    const name = [...prefix, e.name.slice(0, -3)].join(":");
    if (!validName(name) || out.has(`/${name}`)) continue;
    try {
      if (statSync(path).size > MAX_FILE_BYTES) continue;
      budget.files++;
      const { meta, body } = parseCommandFile(readFileSync(path, "utf8"));
      const first =
        body
          .split("\n")
          .find((l) => l.trim() !== "")
          ?.trim() ?? "";
      out.set(`/${name}`, {
        name: `/${name}`,
        description: meta.description || (first.length > 60 ? `${first.slice(0, 59)}…` : first) || "custom command",
        argumentHint: meta["argument-hint"] || null,
        model: meta.model || null,
        body,
        scope,
        file: path,
      });
    } catch {
      // unreadable: left out
    }
  }
}

export interface CommandDirs {
  workspace: string;
  /** ~/.nanohermes */
  home: string;
  /** The user's home folder, for ~/.claude/commands. */
  userHome: string | null;
  /** A workspace's commands are prompts someone else wrote: only honoured in a trusted folder. */
  trusted: boolean;
}

/**
 * Every custom command, found in this order (the first of a name wins): the workspace's
 * .nanohermes/commands and .claude/commands (trusted folders only), then ~/.nanohermes/commands
 * and ~/.claude/commands. Built-in commands are not here: they win over any of these.
 */
export function loadCustomCommands(dirs: CommandDirs): CustomCommand[] {
  const out = new Map<string, CustomCommand>();
  const budget = { files: 0 };
  if (dirs.trusted) {
    scan(join(dirs.workspace, ".nanohermes", "commands"), "workspace", out, budget);
    scan(join(dirs.workspace, ".claude", "commands"), "workspace", out, budget);
  }
  scan(join(dirs.home, "commands"), "user", out, budget);
  if (dirs.userHome) scan(join(dirs.userHome, ".claude", "commands"), "user", out, budget);
  return [...out.values()];
}

/** Whether the workspace has commands of its own (to say why they are not offered when untrusted). */
export function workspaceHasCommands(workspace: string): boolean {
  return [join(workspace, ".nanohermes", "commands"), join(workspace, ".claude", "commands")].some((d) => {
    try {
      return readdirSync(d).some((f) => f.endsWith(".md"));
    } catch {
      return false;
    }
  });
}

// Slash commands: their names and descriptions (for completion, the palette and /help) and the
// parser that turns "/undo 2" into a command the controller carries out.
import { approvalPolicies, permissionModes, type ApprovalPolicy, type PermissionMode } from "../../protocol/enums.js";
import type { CommandCandidate } from "../input/complete.js";
import type { CustomCommand } from "../../config/custom-commands.js";

export const slashCommands: CommandCandidate[] = [
  { name: "/new", description: "start a new task" },
  { name: "/tasks", description: "show the task list" },
  { name: "/model", description: "show or set this task's model: /model NAME" },
  { name: "/status", description: "model, endpoint, policy, mode, sandbox, context used, MCP servers" },
  { name: "/init", description: "write or update AGENTS.md from a look at the repository (a model turn)" },
  { name: "/diff", description: "the working tree's changes (git diff HEAD)" },
  { name: "/review", description: "a review of the uncommitted change (a model turn): /review [FOCUS]" },
  { name: "/mode", description: "set the permission mode: default, accept-edits, plan, goal, debug" },
  { name: "/policy", description: "set the approval policy: never, on-request, untrusted" },
  { name: "/sandbox", description: "show the sandbox state" },
  { name: "/cost", description: "tokens (input, cached, output, reasoning) and cost of this task" },
  { name: "/undo", description: "drop the last n turns: /undo [n]" },
  { name: "/rewind", description: "go back to before a turn: its files, the conversation, or both" },
  { name: "/compact", description: "fold older messages into a summary: /compact [FOCUS]" },
  { name: "/resume", description: "pick a past session of this workspace (search them all)" },
  { name: "/memory", description: "long-term memories: read, edit, delete, add" },
  { name: "/clear", description: "empty the conversation" },
  { name: "/export", description: "export the task: /export [md|json] [PATH]" },
  { name: "/copy", description: "copy the last reply (OSC 52)" },
  { name: "/image", description: "attach an image to the next message: /image PATH (at most 4)" },
  { name: "/theme", description: "switch theme: /theme [dark|light|high-contrast|NAME]" },
  { name: "/mcp", description: "MCP servers, their state, tools and logs: /mcp restart [NAME] reconnects" },
  { name: "/skills", description: "the skills the agent can load" },
  { name: "/permissions", description: 'list and remove what "always" answers allow in this task' },
  { name: "/remote", description: "add a task on a daemon: /remote ADDRESS [TOKEN-FILE] [SESSION]" },
  { name: "/rename", description: "rename the task: /rename TITLE" },
  { name: "/pin", description: "pin or unpin the task" },
  { name: "/delete", description: "delete the task (asks first)" },
  { name: "/help", description: "keys and commands" },
  { name: "/trust", description: "trust this folder: its config, commands and instruction files apply" },
  { name: "/quit", description: "exit NanoHermes" },
];

export type Slash =
  | { kind: "new" }
  | { kind: "tasks" }
  | { kind: "model"; name: string | null }
  | { kind: "status" }
  | { kind: "init" }
  | { kind: "diff" }
  | { kind: "review"; focus: string | null }
  /** A Markdown command (custom-commands.ts): its prompt, arguments filled in, is sent as a turn. */
  | { kind: "custom"; command: CustomCommand; args: string }
  | { kind: "mode"; mode: PermissionMode | null }
  | { kind: "policy"; policy: ApprovalPolicy | null }
  | { kind: "sandbox" }
  | { kind: "cost" }
  | { kind: "undo"; n: number }
  | { kind: "rewind" }
  | { kind: "compact"; focus: string | null }
  | { kind: "resume" }
  | { kind: "memory" }
  | { kind: "clear" }
  | { kind: "export"; format: "markdown" | "json"; path: string | null }
  | { kind: "copy" }
  | { kind: "image"; path: string | null }
  | { kind: "theme"; name: string | null }
  | { kind: "rename"; title: string | null }
  | { kind: "permissions" }
  | { kind: "mcp"; restart: string | true | null }
  | { kind: "skills" }
  | { kind: "remote"; address: string; tokenFile: string | null; session: string | null }
  | { kind: "pin" }
  | { kind: "delete" }
  | { kind: "help" }
  | { kind: "trust" }
  | { kind: "quit" };

/** The names a custom command cannot take: built-in commands win (and /exit, /quit's other name). */
export const builtinNames: ReadonlySet<string> = new Set([...slashCommands.map((c) => c.name), "/exit"]);

/**
 * Parses a slash command; an error message for the user otherwise. Null: not a slash command.
 * `custom`: the Markdown commands, tried only for a name no built-in command has.
 */
export function parseSlash(input: string, custom: readonly CustomCommand[] = []): Slash | { error: string } | null {
  const text = input.trim();
  if (!text.startsWith("/") || text.startsWith("//")) return null;
  const [word = "", ...rest] = text.slice(1).split(/\s+/);
  const arg = rest.join(" ").trim();
  if (!builtinNames.has(`/${word}`)) {
    const command = custom.find((c) => c.name === `/${word}`);
    // The arguments as typed (newlines and spacing kept), after the name.
    if (command) return { kind: "custom", command, args: text.slice(1 + word.length).trim() };
  }
  switch (word) {
    case "new":
      return { kind: "new" };
    case "tasks":
      return { kind: "tasks" };
    case "model":
      return { kind: "model", name: arg || null };
    case "mode":
      if (arg && !(permissionModes as readonly string[]).includes(arg))
        return { error: `unknown mode "${arg}"; modes: ${permissionModes.join(", ")}` };
      return { kind: "mode", mode: (arg || null) as PermissionMode | null };
    case "policy":
      if (arg && !(approvalPolicies as readonly string[]).includes(arg))
        return { error: `unknown policy "${arg}"; policies: ${approvalPolicies.join(", ")}` };
      return { kind: "policy", policy: (arg || null) as ApprovalPolicy | null };
    case "sandbox":
      return { kind: "sandbox" };
    case "cost":
      return { kind: "cost" };
    case "status":
      return { kind: "status" };
    case "init":
      return { kind: "init" };
    case "diff":
      return { kind: "diff" };
    case "review":
      return { kind: "review", focus: arg || null };
    case "undo": {
      const n = arg ? Number(arg) : 1;
      if (!Number.isInteger(n) || n < 1) return { error: `/undo takes a positive number of turns, not "${arg}"` };
      return { kind: "undo", n };
    }
    case "rewind":
      return { kind: "rewind" };
    case "compact":
      return { kind: "compact", focus: arg || null };
    case "clear":
      return { kind: "clear" };
    case "resume":
      return { kind: "resume" };
    case "remote": {
      const [address, tokenFile, session, extra] = rest.filter(Boolean);
      if (!address || extra !== undefined)
        return {
          error:
            "usage: /remote ADDRESS [TOKEN-FILE] [SESSION] (ADDRESS: http://HOST:PORT, https://HOST or unix:/path; TOKEN-FILE - for none)",
        };
      return {
        kind: "remote",
        address,
        tokenFile: tokenFile && tokenFile !== "-" ? tokenFile : null,
        session: session ?? null,
      };
    }
    case "memory":
      return { kind: "memory" };
    case "export": {
      const [first = "", ...more] = rest;
      const format = first === "json" ? "json" : "markdown";
      const path = first === "json" || first === "md" || first === "markdown" ? more.join(" ") : rest.join(" ");
      return { kind: "export", format, path: path.trim() || null };
    }
    case "copy":
      return { kind: "copy" };
    case "image":
      return { kind: "image", path: arg || null };
    case "theme":
      return { kind: "theme", name: arg || null };
    case "rename":
      return { kind: "rename", title: arg || null };
    case "permissions":
      return { kind: "permissions" };
    case "pin":
      return { kind: "pin" };
    case "delete":
      return { kind: "delete" };
    case "help":
      return { kind: "help" };
    case "mcp": {
      const [sub, name] = rest;
      if (!sub) return { kind: "mcp", restart: null };
      if (sub !== "restart") return { error: `usage: /mcp, or /mcp restart [NAME]` };
      return { kind: "mcp", restart: name ?? true };
    }
    case "skills":
      return { kind: "skills" };
    case "trust":
      return { kind: "trust" };
    case "quit":
    case "exit":
      return { kind: "quit" };
    default:
      return { error: `unknown command /${word}; /help lists them` };
  }
}

// The stable system prompt: identity, environment and tool guidance. Built once per session so
// that provider prefix caches stay warm; per-turn material never goes in here.
import { platform, release } from "node:os";
import type { PermissionMode } from "../protocol/events.js";

export interface PromptInput {
  workspace: string;
  toolNames: string[];
  mode?: PermissionMode;
  date?: Date;
  /** The skills index section (names and descriptions only). */
  skills?: string;
  /** AGENTS.md contents, already capped. */
  agentsMd?: string;
  /** Configured MCP server names. */
  mcpServers?: string[];
}

/** One line per mode, so the model acts the way it was started instead of fighting the tool gates. */
export const modeGuidance: Record<PermissionMode, string | null> = {
  default: null,
  "accept-edits":
    "Mode: accept-edits. File edits are applied without asking; commands may still need the user's approval.",
  plan: "Mode: plan (read-only). Do not change files or run commands; investigate with the read tools and end with a concrete plan.",
  goal: "Mode: goal (unattended). Nobody is watching: keep going until the task is done and verified, without asking questions.",
  debug:
    "Mode: debug. Read files and run commands to reproduce and diagnose the problem, but never write files; report the fix.",
};

export function buildSystemPrompt({
  workspace,
  toolNames,
  mode = "default",
  date = new Date(),
  skills = "",
  agentsMd = "",
  mcpServers = [],
}: PromptInput): string {
  const has = (name: string) => toolNames.includes(name);
  const lines = [
    "You are NanoHermes, a coding agent working in the user's terminal. You help with software tasks by reading",
    "and changing files and running commands in the workspace, using the tools you are given.",
    "",
    "# Environment",
    `- Workspace: ${workspace} (relative paths resolve here)`,
    `- Platform: ${platform()} ${release()}`,
    `- Date: ${date.toISOString().slice(0, 10)}`,
    "",
    "# How to work",
    "- Look before you change: read the relevant files and search the code before editing.",
    "- Make the smallest change that does the job, in the style of the surrounding code.",
    "- Verify your work (build, tests, or running the code) when that is possible, and say what you verified.",
    "- Several independent tool calls may be made at once; they run in parallel.",
    "- Tool results are capped at 20 KB; when a result says it was cut, narrow the request (offset/limit, a narrower pattern).",
    "- When a tool fails, read the error and correct the call rather than repeating it unchanged.",
    "- Finish with a short answer: what you did, what you found, and anything left to do.",
  ];
  const guidance: string[] = [];
  if (has("edit_file"))
    guidance.push(
      "- Use edit_file for small exact replacements and apply_patch for multi-hunk or multi-file changes; write_file for new files.",
    );
  if (has("grep") || has("glob"))
    guidance.push("- Use grep and glob (they honour .gitignore) rather than shell find/grep.");
  if (has("run_command"))
    guidance.push(
      "- run_command runs bash non-interactively with empty stdin; avoid commands that wait for input or never exit.",
    );
  if (has("task_output"))
    guidance.push(
      "- Start servers and watchers with run_command background: true, then read them with task_output and stop them with task_kill.",
    );
  if (has("todo_write"))
    guidance.push(
      "- For work with several steps, keep a plan with todo_write (one item in_progress at a time) and update it as you go.",
    );
  if (has("git_status"))
    guidance.push(
      "- Use git_status, git_diff and git_log to inspect the repository; commit with git_commit only when asked.",
    );
  if (has("web_fetch"))
    guidance.push("- web_search finds pages and web_fetch reads one as text; quote what you rely on.");
  if (mcpServers.length > 0) {
    guidance.push(
      `- Tools named mcp__<server>__<tool> come from the MCP servers the user configured (${mcpServers.join(", ")}); servers may still be connecting, so their tools can appear later. mcp_list_resources, mcp_read_resource, mcp_list_prompts and mcp_get_prompt reach the servers' resources and prompts.`,
    );
  }
  if (guidance.length) lines.push("", "# Tools", ...guidance);
  if (skills) lines.push("", skills);
  if (agentsMd) lines.push("", agentsMd);
  const modeLine = modeGuidance[mode];
  if (modeLine) lines.push("", modeLine);
  return lines.join("\n");
}

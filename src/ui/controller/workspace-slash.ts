// The slash commands that look at the workspace or start a fixed model turn: /status, /diff,
// /init, /review and custom (Markdown) commands.
import type { Controller } from "./controller.js";
import { missingSetup, submitText } from "./submit.js";
import { expandCommand, type CustomCommand } from "../../config/custom-commands.js";
import { openWorktreeDiff } from "./worktree-diff.js";
import { INIT_PROMPT, reviewPrompt } from "../view/fixed-prompts.js";
import { builtinNames, type Slash } from "./slash.js";

type WorkspaceSlash = Extract<Slash, { kind: "status" | "diff" | "init" | "review" | "custom" }>;

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : "?");

/** What /status shows, one fact a line. */
export function statusLines(ctl: Controller): string[] {
  const task = ctl.currentTask();
  const ws = ctl.deps.workspace;
  const s = task?.snapshot;
  const remote = s?.location === "remote";
  const context = task && ws && !remote ? ws.context(task.id) : null;
  const row = (label: string, value: string) => `${label.padEnd(10)}${value}`;
  const lines = [
    row("model", s?.model ?? "?"),
    row("endpoint", remote ? "a daemon (this task runs there)" : (ws?.endpoint ?? "?")),
    ...(remote ? [] : [row("key", missingSetup(ctl) ?? "set")]),
    row("policy", s?.approval ?? "?"),
    row("mode", s?.mode ?? "?"),
    // The title bar's label says "sandbox workspace-write"; here the row's name says "sandbox".
    row("sandbox", ctl.deps.sandboxLabel().replace(/^sandbox /, "")),
    row(
      "context",
      context
        ? `${context.chars.toLocaleString("en-US")} of ${context.budget.toLocaleString("en-US")} characters (${percent(context.chars, context.budget)}; compacted at 100%), ${context.messages} messages`
        : remote
          ? "kept by the daemon"
          : "nothing loaded yet",
    ),
    row(
      "tokens",
      s
        ? `${s.usage.prompt.toLocaleString("en-US")} in, ${s.usage.completion.toLocaleString("en-US")} out in this task`
        : "?",
    ),
  ];
  const mcp = ctl.state.mcp;
  if (mcp.length === 0) lines.push(row("MCP", "no servers configured"));
  else
    mcp.forEach((m, i) =>
      lines.push(
        row(
          i === 0 ? "MCP" : "",
          `${m.name}: ${m.state}, ${m.tools} tool${m.tools === 1 ? "" : "s"}${m.error ? ` (${m.error})` : ""}`,
        ),
      ),
    );
  const custom = customCommands(ctl);
  lines.push(row("commands", custom.length ? custom.map((c) => c.name).join(" ") : "no custom commands"));
  if (ws?.untrustedCommands())
    lines.push("", "This workspace has commands of its own; they apply once you trust the folder.");
  if (ws) lines.push("", `workspace ${ws.root}`);
  return lines;
}

/** The custom commands, without any a built-in command's name hides. */
export function customCommands(ctl: Controller): CustomCommand[] {
  return (ctl.deps.workspace?.commands() ?? []).filter((c) => !builtinNames.has(c.name));
}

export function runWorkspaceSlash(ctl: Controller, slash: WorkspaceSlash, typed: string): void {
  const task = ctl.currentTask();
  const ws = ctl.deps.workspace;
  switch (slash.kind) {
    case "status":
      ctl.setUi((ui) => ({
        ...ui,
        dialog: { kind: "detail", title: "Status", lines: statusLines(ctl), offset: 0, words: true },
      }));
      return;
    case "init":
      submitText(ctl, INIT_PROMPT, { typed });
      return;
    case "custom":
      submitText(ctl, expandCommand(slash.command.body, slash.args), {
        typed,
        ...(slash.command.model ? { model: slash.command.model } : {}),
      });
      return;
    case "diff":
    case "review": {
      if (!ws || task?.snapshot.location === "remote") {
        ctl.status(`/${slash.kind} reads this machine's working tree: not for a remote task`, "warn");
        return;
      }
      if (slash.kind === "diff") return openWorktreeDiff(ctl);
      ctl.status("reading the working tree's changes…", "info", 10_000);
      void ws.diff().then((got) => {
        if (!got.ok) return ctl.status(`/${slash.kind}: ${got.error}`, "error", 8_000);
        if (got.text.startsWith("no "))
          ctl.status("nothing to review: the working tree has no uncommitted change", "warn");
        else {
          ctl.status("reviewing the uncommitted change");
          submitText(ctl, reviewPrompt(got.text, slash.focus), { typed });
        }
      });
      return;
    }
    default:
      slash satisfies never;
  }
}

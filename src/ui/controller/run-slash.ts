// Carries out a parsed slash command: bus commands for the engine, UI changes for the rest.
import { askExport } from "./export.js";
import { askTrust } from "./trust.js";
import { openModelPicker } from "./composer-keys.js";
import type { Controller } from "./controller.js";
import type { AreaHost } from "./host.js";
import { quit } from "./stop.js";
import type { Slash } from "./slash.js";
import type { McpServers } from "../state/store.js";
import { openMemory } from "./memory-dialog.js";
import { openRewind } from "./rewind.js";
import { openPicker } from "./session-picker.js";
import { showCost } from "./cost.js";
import { runWorkspaceSlash } from "./workspace-slash.js";

export function lastReply(ctl: Controller): string | null {
  const blocks = ctl.currentBlocks();
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i]!;
    if (b.kind === "assistant" && b.text.trim()) return b.text;
  }
  return null;
}

export function copyText(ctl: Pick<AreaHost, "copy" | "status">, text: string, what: string): void {
  const result = ctl.copy(text);
  if (result.ok && result.note)
    ctl.status(`copied ${what} (${text.length} characters): ${result.note}`, "warn", 10_000);
  else if (result.ok) ctl.status(`copied ${what} (${text.length} characters) to the clipboard`);
  else ctl.status(`copy failed: ${result.reason}`, "error");
}

/** Adds an image to the next message; the engine checks and shrinks it when the message is sent. */
export function attachImage(ctl: Controller, path: string): void {
  const clean = path
    .trim()
    .replace(/^'(.*)'$/, "$1")
    .replace(/^"(.*)"$/, "$1");
  if (ctl.ui.attachments.length >= 4) {
    ctl.status("at most 4 images per message", "error");
    return;
  }
  ctl.setUi((ui) => ({ ...ui, attachments: [...ui.attachments, clean] }));
  ctl.status(`attached ${clean} to the next message`);
}

/** What /mcp shows: one block per server. */
export function mcpLines(servers: McpServers): string[] {
  if (servers.length === 0)
    return [
      "No MCP servers are configured.",
      "",
      'Add them to ~/.nanohermes/config.json as "mcpServers" (the Claude Desktop format),',
      "or pass --mcp FILE.",
    ];
  const lines: string[] = [];
  for (const s of servers) {
    lines.push(
      `${s.name}  ${s.state}  ${s.transport}  ${s.tools} tool${s.tools === 1 ? "" : "s"}${s.restarts ? `  restarted ${s.restarts}x` : ""}`,
    );
    if (s.error) lines.push(`  ${s.error}`);
    if (s.logFile) lines.push(`  log: ${s.logFile}`);
  }
  lines.push("", "/mcp restart [NAME] reconnects now.");
  return lines;
}

/** What /skills shows. */
export function skillLines(skills: { name: string; description: string; file: string }[]): string[] {
  if (skills.length === 0)
    return [
      "No skills found.",
      "",
      "A skill is a folder with a SKILL.md in .nanohermes/skills/ or .agents/skills/",
      "(in the workspace or your home folder).",
    ];
  return skills.flatMap((s) => [`${s.name}: ${s.description}`, `  ${s.file}`]);
}

/** `typed`: the command as the user typed it (the history keeps it, not a prompt made from it). */
export function runSlash(ctl: Controller, slash: Slash, typed = ""): void {
  const task = ctl.currentTask();
  const taskId = task?.id ?? "";
  switch (slash.kind) {
    case "status":
    case "diff":
    case "init":
    case "review":
    case "custom":
      runWorkspaceSlash(ctl, slash, typed || (slash.kind === "custom" ? slash.command.name : `/${slash.kind}`));
      return;
    case "new":
      ctl.newTask();
      return;
    case "tasks":
      ctl.setUi((ui) => ({ ...ui, taskListOpen: true, focus: "tasks" }));
      return;
    case "model":
      if (!slash.name) {
        ctl.status(`model: ${task?.snapshot.model ?? "?"} (set it with /model NAME)`);
        openModelPicker(ctl);
      } else {
        ctl.send({ type: "config.update", taskId, model: slash.name });
        ctl.status(`model: ${slash.name}`);
      }
      return;
    case "mode":
      if (!slash.mode)
        ctl.status(`mode: ${task?.snapshot.mode ?? "?"} (default, accept-edits, plan, goal, debug; Shift-Tab cycles)`);
      else ctl.send({ type: "config.update", taskId, mode: slash.mode });
      return;
    case "policy":
      if (!slash.policy)
        ctl.status(`approval policy: ${task?.snapshot.approval ?? "?"} (never, on-request, untrusted)`);
      else ctl.send({ type: "config.update", taskId, approval: slash.policy });
      return;
    case "cost":
      return showCost(ctl);
    case "sandbox":
      ctl.status(`${ctl.deps.sandboxLabel()} (nanohermes sandbox status explains what it enforces)`);
      return;
    case "undo":
      ctl.deps.store.dispatch({ type: "ui.reloading", taskId });
      ctl.send({ type: "session.undo", taskId, n: slash.n });
      return;
    case "rewind":
      openRewind(ctl);
      return;
    case "compact":
      ctl.send({ type: "session.compact", taskId, ...(slash.focus ? { focus: slash.focus } : {}) });
      return;
    case "clear":
      ctl.deps.store.dispatch({ type: "ui.reloading", taskId });
      ctl.send({ type: "session.clear", taskId });
      return;
    case "resume":
      openPicker(ctl);
      return;
    case "memory":
      openMemory(ctl);
      return;
    case "export":
      if (slash.path) ctl.send({ type: "task.export", taskId, format: slash.format, path: slash.path });
      else askExport(ctl, taskId, slash.format);
      return;
    case "copy": {
      const text = lastReply(ctl);
      if (text) copyText(ctl, text, "the last reply");
      else ctl.status("nothing to copy yet", "warn");
      return;
    }
    case "image":
      if (!slash.path) ctl.status("usage: /image PATH (png, jpg, gif, webp; at most 4 per message)", "warn");
      else attachImage(ctl, slash.path);
      return;
    case "theme": {
      const names = ctl.deps.themes();
      if (!slash.name) ctl.status(`theme: ${ctl.ui.theme} (available: ${names.join(", ")})`);
      else if (!names.includes(slash.name))
        ctl.status(`no theme "${slash.name}"; available: ${names.join(", ")}`, "error");
      else ctl.setUi((ui) => ({ ...ui, theme: slash.name! }));
      return;
    }
    case "rename":
      if (slash.title) ctl.send({ type: "task.update", taskId, title: slash.title });
      else
        ctl.setUi((ui) => ({
          ...ui,
          dialog: {
            kind: "input",
            purpose: "rename",
            title: "Rename task",
            value: task?.snapshot.title ?? "",
            target: taskId,
            index: 0,
          },
        }));
      return;
    case "permissions":
      ctl.setUi((ui) => ({ ...ui, dialog: { kind: "permissions", index: 0 } }));
      return;
    case "pin":
      ctl.send({ type: "task.update", taskId, pinned: !(task?.snapshot.pinned ?? false) });
      return;
    case "delete":
      ctl.setUi((ui) => ({
        ...ui,
        dialog: {
          kind: "confirm",
          title: `Delete task "${task?.snapshot.title ?? ""}" and its session? (y/n)`,
          action: "delete",
          target: taskId,
        },
      }));
      return;
    case "help":
      ctl.setUi((ui) => ({ ...ui, dialog: { kind: "help", offset: 0 } }));
      return;
    case "trust":
      if (!askTrust(ctl)) ctl.status("nothing here waits for trust: this folder is trusted, or has nothing of its own");
      return;
    case "quit":
      quit(ctl);
      return;
    case "mcp":
      if (slash.restart !== null) {
        ctl.send({ type: "mcp.restart", taskId, ...(slash.restart === true ? {} : { server: slash.restart }) });
        ctl.status(`reconnecting ${slash.restart === true ? "every MCP server" : slash.restart}`);
      } else
        ctl.setUi((ui) => ({
          ...ui,
          dialog: { kind: "detail", title: "MCP servers", lines: mcpLines(ctl.state.mcp), offset: 0 },
        }));
      return;
    case "remote":
      ctl.status(`connecting to ${slash.address}…`, "info", 15_000);
      void ctl.deps.addRemote(slash).then(
        (id) => {
          ctl.selectTask(id);
          ctl.setUi((ui) => ({ ...ui, focus: "composer" }));
          ctl.status(`remote task on ${slash.address}: its turns run there, Ctrl-C stops them`);
        },
        (error: unknown) => ctl.status(`/remote: ${(error as Error).message}`, "error", 10_000),
      );
      return;
    case "skills":
      ctl.setUi((ui) => ({
        ...ui,
        dialog: { kind: "detail", title: "Skills", lines: skillLines(ctl.deps.skills()), offset: 0 },
      }));
      return;
    default:
      slash satisfies never;
  }
}

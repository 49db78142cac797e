// The composer: typing and pasting (a pasted block stays one message), Enter to send (or to steer
// a running turn), Tab to queue or complete, history, slash commands and $EDITOR.
import { applyCompletion, complete, type CommandCandidate } from "../input/complete.js";
import {
  applyEditorAction,
  createEditor,
  editorActions,
  editorText,
  insertText,
  isEmpty,
  type EditorState,
} from "../input/editor.js";
import { downOrHistory, upOrHistory } from "../input/history.js";
import type { InputEvent } from "../input/keys.js";
import { findAction } from "../input/keymap.js";
import type { Controller } from "./controller.js";
import { scrollTo } from "./scroll.js";
import { missingSetup, queueText, runShell, submitText } from "./submit.js";
import { existsSync } from "node:fs";
import { looksLikeImagePath } from "../../protocol/images.js";
import { attachImage, runSlash } from "./run-slash.js";
import { withAttachments } from "./attach-files.js";
import { parseSlash, slashCommands } from "./slash.js";
import { customCommands } from "./workspace-slash.js";

/** A paste larger than this is refused: it would not be a prompt anyone meant to send. */
export const MAX_PASTE_CHARS = 1_000_000;

function setComposer(ctl: Controller, composer: EditorState, keepCompletion = true): void {
  ctl.setUi((ui) => {
    const open = keepCompletion && ui.completion !== null;
    const list =
      open || /^[/@]|\s@/.test(editorText(composer))
        ? complete(composer, { commands: commandCandidates(ctl), paths: ctl.deps.paths(), models: ctl.modelNames })
        : null;
    return { ...ui, composer, completion: list && (open || autoOpen(composer)) ? { list, index: 0 } : null };
  });
}

/** Built-in commands, then the custom ones (a built-in name always means the built-in command). */
function commandCandidates(ctl: Controller): CommandCandidate[] {
  const custom = customCommands(ctl).map((c) => ({
    name: c.name,
    description: `${c.argumentHint ? `${c.argumentHint} · ` : ""}${c.description} (${c.scope})`,
  }));
  return custom.length ? [...slashCommands, ...custom] : slashCommands;
}

/** Whether the input's first word is a command's whole name (built-in or custom). */
function typedCommand(ctl: Controller): boolean {
  const word = editorText(ctl.ui.composer).trimStart().split(/\s/, 1)[0] ?? "";
  return commandCandidates(ctl).some((c) => `/${c.name.replace(/^\//, "")}` === word);
}

/** Completion opens by itself while typing a slash command or an @path. */
function autoOpen(s: EditorState): boolean {
  const line = s.lines[s.line] ?? "";
  const before = Array.from(line).slice(0, s.col).join("");
  return (s.line === 0 && /^\/(\S*|model \S*)$/.test(before)) || /(^|\s)@\S*$/.test(before);
}

/** `!command` (shell mode): the command to run; null for any other prompt. A lone `!` is a prompt. */
export function shellCommand(text: string): string | null {
  const trimmed = text.trim();
  return trimmed.startsWith("!") && trimmed.length > 1 ? trimmed.slice(1).trim() || null : null;
}

export function send(ctl: Controller): void {
  const text = editorText(ctl.ui.composer);
  if (text.trim() === "") {
    // A stop paused the queue: Enter on an empty input sends its next message on.
    const task = ctl.currentTask();
    if (task?.queuePaused && task.queue.length > 0 && !ctl.isRunning()) {
      ctl.send({ type: "user.submit", taskId: task.id, text: "", resume: true });
      scrollTo(ctl, "bottom");
    }
    return;
  }
  const slash = parseSlash(text, customCommands(ctl));
  // Nothing typed is lost: a prompt that cannot be sent (no key set) stays in the input.
  const missing = slash === null && shellCommand(text) === null ? missingSetup(ctl) : null;
  if (missing) {
    ctl.status(`not sent (your text is still in the input): ${missing}`, "error", 12_000);
    return;
  }
  // Nor one whose session another process holds (a second UI, the daemon): it would wait, then fail.
  const held = slash === null ? ctl.currentTask()?.snapshot.heldBy : undefined;
  if (held && !ctl.isRunning()) {
    ctl.status(`not sent (your text is still in the input): ${held.text}`, "error", 12_000);
    return;
  }
  ctl.setUi((ui) => ({ ...ui, composer: createEditor(), completion: null }));
  ctl.deps.history.reset();
  if (slash === null) {
    const shell = shellCommand(text);
    if (shell !== null) runShell(ctl, text, shell);
    else {
      // @path attaches the file (the history keeps what was typed).
      const sent = withAttachments(ctl, text);
      submitText(ctl, sent.text, sent.attached.length ? { typed: text } : {});
      if (sent.attached.length) ctl.deps.remember(text);
    }
    return;
  }
  if ("error" in slash) {
    const untrusted = slash.error.startsWith("unknown command") && ctl.deps.workspace?.untrustedCommands();
    ctl.status(
      untrusted ? `${slash.error} (this workspace's own commands apply once you trust the folder)` : slash.error,
      "error",
    );
    ctl.setUi((ui) => ({ ...ui, composer: createEditor(text) }));
    return;
  }
  ctl.deps.remember(text);
  runSlash(ctl, slash, text.trim());
}

/**
 * A prompt the engine did not run (another process holds the session) comes back to the input:
 * alone when the input is empty, above what was typed since.
 */
export function giveBack(ctl: Controller, text: string, reason: string): void {
  const now = editorText(ctl.ui.composer);
  setComposer(ctl, createEditor(now.trim() === "" ? text : `${text}\n${now}`), false);
  ctl.status(`not sent (your text is back in the input): ${reason}`, "error", 12_000);
}

/** `/model` alone: the provider's models, listed once, offered in the input as `/model NAME` completions. */
export function openModelPicker(ctl: Controller): void {
  const load = ctl.deps.models;
  const show = () => {
    setComposer(ctl, createEditor("/model "), false);
    const list = complete(ctl.ui.composer, { models: ctl.modelNames });
    if (list) ctl.setUi((ui) => ({ ...ui, completion: { list, index: 0 } }));
  };
  if (ctl.modelNames.length > 0 || !load) {
    show();
    return;
  }
  ctl.status("listing the provider's models…", "info", 10_000);
  void load().then(
    (names) => {
      ctl.modelNames = names;
      ctl.status(`model: ${ctl.currentTask()?.snapshot.model ?? "?"} · ${names.length} to choose from (↑↓, Enter)`);
      if (ctl.ui.dialog === null && isEmpty(ctl.ui.composer)) show();
    },
    (error: unknown) =>
      ctl.status(`could not list the models: ${(error as Error).message}; /model NAME sets one`, "warn"),
  );
}

export function handleComposerKey(ctl: Controller, event: InputEvent): boolean {
  const ui = ctl.ui;
  if (event.kind === "paste") {
    if (event.text.length > MAX_PASTE_CHARS || event.truncated) {
      ctl.status(
        `paste refused: ${event.text.length} characters is more than ${MAX_PASTE_CHARS}; attach a file with @path instead`,
        "error",
      );
      return true;
    }
    // A pasted (dragged-in) image path attaches the image instead of typing its name.
    if (
      looksLikeImagePath(event.text) &&
      existsSync(
        event.text
          .trim()
          .replace(/^'(.*)'$/, "$1")
          .replace(/^"(.*)"$/, "$1"),
      )
    ) {
      attachImage(ctl, event.text);
      return true;
    }
    setComposer(ctl, insertText(ui.composer, event.text), false);
    return true;
  }
  const key = event.key;
  const completion = ui.completion;
  if (completion) {
    if (key.name === "up" || key.name === "down") {
      const n = completion.list.items.length;
      const index = (completion.index + (key.name === "up" ? n - 1 : 1)) % n;
      ctl.setUi((u) => ({ ...u, completion: { ...completion, index } }));
      return true;
    }
    // Enter on text that names a command exactly runs what was typed: the list never overrides it
    // ("/mode" + Enter is /mode even while /model is highlighted).
    if (key.name === "enter" && !key.ctrl && !key.alt && completion.list.kind === "command" && typedCommand(ctl)) {
      send(ctl);
      return true;
    }
    if ((key.name === "tab" || key.name === "enter") && !key.ctrl && !key.alt) {
      const item = completion.list.items[completion.index];
      if (item) {
        const applied = applyCompletion(ui.composer, completion.list, item);
        const slashOnly =
          (completion.list.kind === "command" || completion.list.kind === "model") && key.name === "enter";
        setComposer(ctl, applied, false);
        // Enter on a command completion runs it when it needs no argument; on a model name, /model NAME.
        if (slashOnly && (completion.list.kind === "model" || !/\s/.test(editorText(applied).trim()))) send(ctl);
        return true;
      }
    }
  }
  const action = ctl.action(key, ["submit", "queue", "historySearch", "externalEditor", "editQueue"]);
  switch (action) {
    case "submit": {
      // `\` + Enter adds a line (Claude Code's habit, for terminals where Ctrl-J is awkward).
      const s = ui.composer;
      if (Array.from(s.lines[s.line] ?? "")[s.col - 1] === "\\") {
        setComposer(ctl, applyEditorAction(applyEditorAction(s, "backspace"), "newline"));
        return true;
      }
      send(ctl);
      return true;
    }
    case "queue": {
      const text = editorText(ui.composer);
      if (ctl.isRunning()) {
        if (text.trim() === "") return true;
        ctl.setUi((u) => ({ ...u, composer: createEditor(), completion: null }));
        queueText(ctl, text);
        ctl.status("queued: it runs as the next turn");
        return true;
      }
      const list = complete(ui.composer, {
        commands: commandCandidates(ctl),
        paths: ctl.deps.paths(),
        models: ctl.modelNames,
      });
      if (!list) return true;
      if (list.items.length === 1) setComposer(ctl, applyCompletion(ui.composer, list, list.items[0]!), false);
      else ctl.setUi((u) => ({ ...u, completion: { list, index: 0 } }));
      return true;
    }
    case "historySearch":
      ctl.setUi((u) => ({
        ...u,
        dialog: { kind: "input", purpose: "history", title: "Search history", value: "", index: 0 },
      }));
      return true;
    case "externalEditor": {
      const draft = editorText(ui.composer);
      void ctl.deps.openEditor(draft).then((text) => {
        if (text !== null) setComposer(ctl, createEditor(text.replace(/\n$/, "")), false);
      });
      return true;
    }
    case "editQueue": {
      const task = ctl.currentTask();
      if (!isEmpty(ui.composer) || !task || task.queue.length === 0) return false;
      ctl.setUi((u) => ({ ...u, dialog: { kind: "queue", index: 0 } }));
      return true;
    }
    default:
      break;
  }
  if (key.name === "up" && !key.ctrl && !key.alt) {
    setComposer(ctl, upOrHistory(ui.composer, ctl.deps.history));
    return true;
  }
  if (key.name === "down" && !key.ctrl && !key.alt) {
    setComposer(ctl, downOrHistory(ui.composer, ctl.deps.history));
    return true;
  }
  const edit = findAction(ctl.deps.editorKeys, key, editorActions);
  if (edit) {
    setComposer(ctl, applyEditorAction(ui.composer, edit));
    return true;
  }
  if (key.text !== undefined) {
    setComposer(ctl, insertText(ui.composer, key.text));
    return true;
  }
  return false;
}

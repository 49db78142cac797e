// One-line text fields inside dialogs (inputs, the session picker's search, the memory filter):
// the editor's keys minus newline and up/down, typed text, and pastes flattened to one line.
import { applyEditorAction, editorActions, insertText, type EditorState } from "../input/editor.js";
import type { InputEvent } from "../input/keys.js";
import { findAction } from "../input/keymap.js";
import type { Controller } from "./controller.js";

/** The field after `event`, or null when the key is not one that edits text. */
export function editField(ctl: Controller, value: EditorState, event: InputEvent): EditorState | null {
  if (event.kind === "paste") return insertText(value, event.text.replace(/\r?\n/g, " "));
  const edit = findAction(
    ctl.deps.editorKeys,
    event.key,
    editorActions.filter((a) => a !== "newline" && a !== "up" && a !== "down"),
  );
  if (edit) return applyEditorAction(value, edit);
  if (event.key.text !== undefined) return insertText(value, event.key.text);
  return null;
}

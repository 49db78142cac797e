// The transcript in browse mode: a cursor over blocks, expand, copy, search and jumps by kind.
// Typing a character goes back to the composer with it (`typing`). The shared pieces (what a block
// copies as, search matches, moving the cursor) stay in controller/browse.ts: dialogs use them too.
import { fixedPromptHeader } from "../view/fixed-prompt-view.js";
import { blockSource, codeBlocks, compactionDetail, gotoMatch, moveCursor } from "../controller/browse.js";
import type { Controller } from "../controller/controller.js";
import { handleComposerKey } from "../controller/composer-keys.js";
import { copyText } from "../controller/run-slash.js";
import type { InputEvent } from "../input/keys.js";
import type { Block } from "../state/transcript.js";
import type { FocusSpec } from "./focus.js";

export const browseFocus: FocusSpec = {
  keys: (ctl, event) => handleBrowseKey(ctl, event),
  typing: (ctl, event) => {
    if (event.kind === "key" && event.key.text) ctl.setUi((ui) => ({ ...ui, focus: "composer" }));
    handleComposerKey(ctl, event);
  },
};

const kinds: Record<string, (b: Block) => boolean> = {
  Prompt: (b) => b.kind === "user" || b.kind === "steer",
  Reply: (b) => b.kind === "assistant",
  Tool: (b) => b.kind === "tool",
  Error: (b) =>
    (b.kind === "notice" && b.level === "error") ||
    b.kind === "turn-end" ||
    (b.kind === "tool" && b.status === "error"),
  ApprovalCard: (b) => b.kind === "approval",
};

function jump(ctl: Controller, from: number, direction: 1 | -1, pred: (b: Block) => boolean, what: string): void {
  const blocks = ctl.currentBlocks();
  for (let i = from + direction; i >= 0 && i < blocks.length; i += direction) {
    if (pred(blocks[i]!)) return moveCursor(ctl, i);
  }
  ctl.status(`no ${direction > 0 ? "next" : "previous"} ${what}`);
}

export function handleBrowseKey(ctl: Controller, event: InputEvent): boolean {
  if (event.kind !== "key") return false;
  const id = ctl.state.current;
  const blocks = ctl.currentBlocks();
  if (!id) return false;
  const cursor = Math.min(ctl.ui.cursor[id] ?? blocks.length - 1, blocks.length - 1);
  const block = blocks[cursor];
  const action = ctl.action(event.key, [
    "cursorUp",
    "cursorDown",
    "toggleBlock",
    "copyBlock",
    "copyCode",
    "search",
    "searchNext",
    "searchPrev",
    "nextPrompt",
    "prevPrompt",
    "nextReply",
    "prevReply",
    "nextTool",
    "prevTool",
    "nextError",
    "prevError",
    "nextApprovalCard",
    "prevApprovalCard",
    "leaveBrowse",
  ]);
  switch (action) {
    case "cursorUp":
      moveCursor(ctl, cursor - 1);
      return true;
    case "cursorDown":
      moveCursor(ctl, cursor + 1);
      return true;
    case "toggleBlock":
      if (block?.kind === "tool" || block?.kind === "reasoning")
        ctl.deps.store.dispatch({ type: "ui.toggle", taskId: id, blockId: block.id });
      else if (block?.kind === "approval")
        ctl.setUi((ui) => ({
          ...ui,
          dialog: { kind: "detail", title: block.title, lines: block.detail.split("\n"), offset: 0 },
        }));
      else if (block?.kind === "user" && fixedPromptHeader(block.text))
        ctl.setUi((ui) => ({
          ...ui,
          dialog: { kind: "detail", title: "The prompt sent", lines: block.text.split("\n"), offset: 0 },
        }));
      else if (block?.kind === "compaction")
        ctl.setUi((ui) => ({ ...ui, dialog: { kind: "detail", ...compactionDetail(block), offset: 0, words: true } }));
      return true;
    case "copyBlock":
      if (block)
        copyText(
          ctl,
          blockSource(block),
          block.kind === "tool"
            ? "the command"
            : block.kind === "compaction"
              ? "the summary"
              : `the ${block.kind === "assistant" ? "reply" : block.kind}`,
        );
      return true;
    case "copyCode": {
      const code = block?.kind === "assistant" ? codeBlocks(block.text) : [];
      if (code.length === 0) {
        ctl.status("this block has no code block", "warn");
        return true;
      }
      const i = ctl.ui.codeIndex % code.length;
      copyText(ctl, code[i]!, `code block ${i + 1} of ${code.length}`);
      ctl.setUi((ui) => ({ ...ui, codeIndex: i + 1 }));
      return true;
    }
    case "search":
      ctl.setUi((ui) => ({
        ...ui,
        dialog: {
          kind: "input",
          purpose: "search",
          title: "Search the transcript",
          value: ui.search?.query ?? "",
          index: 0,
        },
      }));
      return true;
    case "searchNext":
      gotoMatch(ctl, 1);
      return true;
    case "searchPrev":
      gotoMatch(ctl, -1);
      return true;
    case "leaveBrowse":
      ctl.setUi((ui) => ({ ...ui, focus: "composer" }));
      return true;
    case undefined:
      return false;
    default: {
      const forward = action.startsWith("next");
      const kind = action.replace(/^(next|prev)/, "");
      jump(
        ctl,
        cursor,
        forward ? 1 : -1,
        kinds[kind] ?? (() => false),
        kind.replace("ApprovalCard", "approval").toLowerCase(),
      );
      return true;
    }
  }
}

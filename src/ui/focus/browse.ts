// The transcript in browse mode: a cursor over blocks, expand, copy, search and jumps by kind.
// Typing a character goes back to the composer with it (`typing`). The shared pieces (what a block
// copies as, search matches, moving the cursor) stay in controller/browse.ts: dialogs use them too.
import { fixedPromptHeader } from "../view/fixed-prompt-view.js";
import { blockSource, codeBlocks, compactionDetail, gotoMatch, moveCursor } from "../controller/browse.js";
import type { AreaHost } from "../controller/host.js";
import { copyText } from "../controller/run-slash.js";
import type { InputEvent } from "../input/keys.js";
import type { Block } from "../state/transcript.js";
import type { FocusSpec } from "./focus.js";

export const browseFocus: FocusSpec = {
  keys: (host, event) => handleBrowseKey(host, event),
  typing: (host, event) => {
    if (event.kind === "key" && event.key.text) host.setUi((ui) => ({ ...ui, focus: "composer" }));
    host.composerKey(event);
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

function jump(host: AreaHost, from: number, direction: 1 | -1, pred: (b: Block) => boolean, what: string): void {
  const blocks = host.currentBlocks();
  for (let i = from + direction; i >= 0 && i < blocks.length; i += direction) {
    if (pred(blocks[i]!)) return moveCursor(host, i);
  }
  host.status(`no ${direction > 0 ? "next" : "previous"} ${what}`);
}

export function handleBrowseKey(host: AreaHost, event: InputEvent): boolean {
  if (event.kind !== "key") return false;
  const id = host.state.current;
  const blocks = host.currentBlocks();
  if (!id) return false;
  const cursor = Math.min(host.ui.cursor[id] ?? blocks.length - 1, blocks.length - 1);
  const block = blocks[cursor];
  const action = host.action(event.key, [
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
      moveCursor(host, cursor - 1);
      return true;
    case "cursorDown":
      moveCursor(host, cursor + 1);
      return true;
    case "toggleBlock":
      if (block?.kind === "tool" || block?.kind === "reasoning")
        host.dispatch({ type: "ui.toggle", taskId: id, blockId: block.id });
      else if (block?.kind === "approval")
        host.setUi((ui) => ({
          ...ui,
          dialog: { kind: "detail", title: block.title, lines: block.detail.split("\n"), offset: 0 },
        }));
      else if (block?.kind === "user" && fixedPromptHeader(block.text))
        host.setUi((ui) => ({
          ...ui,
          dialog: { kind: "detail", title: "The prompt sent", lines: block.text.split("\n"), offset: 0 },
        }));
      else if (block?.kind === "compaction")
        host.setUi((ui) => ({ ...ui, dialog: { kind: "detail", ...compactionDetail(block), offset: 0, words: true } }));
      return true;
    case "copyBlock":
      if (block)
        copyText(
          host,
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
        host.status("this block has no code block", "warn");
        return true;
      }
      const i = host.ui.codeIndex % code.length;
      copyText(host, code[i]!, `code block ${i + 1} of ${code.length}`);
      host.setUi((ui) => ({ ...ui, codeIndex: i + 1 }));
      return true;
    }
    case "search":
      host.setUi((ui) => ({
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
      gotoMatch(host, 1);
      return true;
    case "searchPrev":
      gotoMatch(host, -1);
      return true;
    case "leaveBrowse":
      host.setUi((ui) => ({ ...ui, focus: "composer" }));
      return true;
    case undefined:
      return false;
    default: {
      const forward = action.startsWith("next");
      const kind = action.replace(/^(next|prev)/, "");
      jump(
        host,
        cursor,
        forward ? 1 : -1,
        kinds[kind] ?? (() => false),
        kind.replace("ApprovalCard", "approval").toLowerCase(),
      );
      return true;
    }
  }
}

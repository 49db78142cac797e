import type { InputEvent } from "../input/keys.js";
import type { Block } from "../state/transcript.js";
import type { Controller } from "./controller.js";
import { copyText } from "./run-slash.js";

/** The text a block stands for: what `y` copies and what search looks in. */
export function blockSource(block: Block): string {
  switch (block.kind) {
    case "user":
    case "steer":
    case "assistant":
    case "reasoning":
    case "notice":
    case "turn-end":
      return block.text;
    case "tool": {
      const args = block.args as Record<string, unknown> | null;
      if (args && typeof args.command === "string") return args.command;
      if (args && typeof args.path === "string") return args.path;
      if (args && typeof args.patch === "string") return args.patch;
      return typeof block.args === "string" ? block.args : JSON.stringify(block.args ?? {}, null, 2);
    }
    case "approval":
      return block.detail;
    case "compaction":
      return block.summary;
  }
}

/** The record of a compaction: what the model now sees in place of the folded messages. */
export function compactionDetail(block: Extract<Block, { kind: "compaction" }>): { title: string; lines: string[] } {
  const what =
    block.folded === null ? "earlier messages" : `${block.folded} earlier message${block.folded === 1 ? "" : "s"}`;
  const head = block.failed
    ? `The summary of ${what} failed${block.error ? `: ${block.error}` : ""}; this note stands in:`
    : `What the model now sees in place of ${what}${block.focus ? ` (focus: ${block.focus})` : ""}:`;
  return {
    title: block.failed ? "Compaction (the summary failed)" : "Compaction summary",
    lines: [head, "", ...block.summary.split("\n")],
  };
}

/** Fenced code blocks of a Markdown text, without their fences. */
export function codeBlocks(text: string): string[] {
  const out: string[] = [];
  const re = /^([ \t]*)(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^\1\2[ \t]*$/gm;
  for (const m of text.matchAll(re)) out.push((m[3] ?? "").replace(/\n$/, ""));
  return out;
}

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

export function findMatches(blocks: Block[], query: string): number[] {
  const q = query.toLowerCase();
  const out: number[] = [];
  blocks.forEach((b, i) => {
    if (blockSource(b).toLowerCase().includes(q)) out.push(i);
  });
  return out;
}

function moveCursor(ctl: Controller, index: number): void {
  const id = ctl.state.current;
  const blocks = ctl.currentBlocks();
  if (!id || blocks.length === 0) return;
  const clamped = Math.max(0, Math.min(blocks.length - 1, index));
  ctl.setUi((ui) => ({ ...ui, cursor: { ...ui.cursor, [id]: clamped }, codeIndex: 0 }));
  ctl.revealBlock(clamped);
}

function jump(ctl: Controller, from: number, direction: 1 | -1, pred: (b: Block) => boolean, what: string): void {
  const blocks = ctl.currentBlocks();
  for (let i = from + direction; i >= 0 && i < blocks.length; i += direction) {
    if (pred(blocks[i]!)) return moveCursor(ctl, i);
  }
  ctl.status(`no ${direction > 0 ? "next" : "previous"} ${what}`);
}

export function gotoMatch(ctl: Controller, direction: 1 | -1): void {
  const search = ctl.ui.search;
  if (!search || search.matches.length === 0) {
    ctl.status(search ? `no matches for "${search.query}"` : "no search: press / to search", "warn");
    return;
  }
  const n = search.matches.length;
  const index = (search.index + direction + n) % n;
  ctl.setUi((ui) => ({ ...ui, search: { ...search, index } }));
  moveCursor(ctl, search.matches[index]!);
  ctl.status(`match ${index + 1} of ${n} for "${search.query}"`);
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

// Browse mode's shared pieces: what a block copies as, search matches, moving the cursor. Its keys
// are in ../focus/browse.ts; the search dialog (dialogs/input.ts) uses these too.
import type { Block } from "../state/transcript.js";
import type { UiHost } from "./host.js";

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

export function findMatches(blocks: Block[], query: string): number[] {
  const q = query.toLowerCase();
  const out: number[] = [];
  blocks.forEach((b, i) => {
    if (blockSource(b).toLowerCase().includes(q)) out.push(i);
  });
  return out;
}

/** Puts browse mode's cursor on block `index` (clamped) and scrolls it into view. */
export function moveCursor(ctl: UiHost, index: number): void {
  const id = ctl.state.current;
  const blocks = ctl.currentBlocks();
  if (!id || blocks.length === 0) return;
  const clamped = Math.max(0, Math.min(blocks.length - 1, index));
  ctl.setUi((ui) => ({ ...ui, cursor: { ...ui.cursor, [id]: clamped }, codeIndex: 0 }));
  ctl.revealBlock(clamped);
}

export function gotoMatch(ctl: UiHost, direction: 1 | -1): void {
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

// Cuts streaming Markdown into finished blocks and the unfinished tail, so finished blocks can be
// rendered once and cached while only the tail is redrawn on each delta.
// Contract: decisions use complete lines only, so a block once stable stays stable as text grows.

/** The result of {@link splitStable}. */
export interface StableSplit {
  /** Finished blocks in order, without their separating blank lines. */
  stable: string[];
  /** The raw rest of the text after the last stable block (may start with newlines). */
  tail: string;
}

/** The result of {@link scanBlocks}: offsets let a caller resume where the last block ended. */
export interface BlockScan {
  blocks: string[];
  /** `ends[i]` is the offset just after `blocks[i]` in the text. */
  ends: number[];
  /** Where the unfinished tail starts: the end of the last block, or `from` when none. */
  tailStart: number;
}

interface Fence {
  char: "`" | "~";
  len: number;
}

const BLANK = /^[ \t]*\r?$/;
const OPENER = /^([ \t]*)(`{3,}|~{3,})(.*?)\r?$/;
// Only at column 0: an indented heading may belong to a list item above it.
const HEADING = /^#{1,6}(?:[ \t]|\r?$)/;

/** The fence a line opens, if any (a backtick fence's info string may not hold a backtick). */
export function fenceOpener(line: string): (Fence & { indent: number }) | null {
  const m = OPENER.exec(line);
  if (!m) return null;
  const marks = m[2] ?? "";
  const char = marks[0] === "~" ? "~" : "`";
  if (char === "`" && (m[3] ?? "").includes("`")) return null;
  return { char, len: marks.length, indent: (m[1] ?? "").length };
}

/** Whether `line` closes `fence`: the same character, at least as many, nothing after. */
export function closesFence(line: string, fence: Fence): boolean {
  const t = line.trim();
  if (t.length < fence.len) return false;
  for (let i = 0; i < t.length; i++) if (t[i] !== fence.char) return false;
  return true;
}

/**
 * Scans complete lines from `from` (0, or an offset from an earlier scan's `ends`/`tailStart`,
 * the text before it unchanged) and returns the blocks finished since. A block ends at a blank
 * line outside a code fence; a fence at column 0 is a block of its own, finished by its closing
 * fence; a heading at column 0 is a block as soon as its line ends.
 */
export function scanBlocks(text: string, from = 0): BlockScan {
  const blocks: string[] = [];
  const ends: number[] = [];
  let tailStart = from;
  let blockStart = -1;
  let blockEnd = -1;
  let fence: Fence | null = null;
  let fenceAlone = false; // the open fence started at column 0 and so is a block of its own
  const emit = (start: number, end: number): void => {
    blocks.push(text.slice(start, end));
    ends.push(end);
    tailStart = end;
    blockStart = -1;
  };
  // `from` is 0 or the end of a block's last line, which is followed by its newline.
  let ls = from === 0 ? 0 : from + 1;
  for (let le = text.indexOf("\n", ls); le >= 0; ls = le + 1, le = text.indexOf("\n", ls)) {
    const line = text.slice(ls, le);
    if (fence) {
      blockEnd = le;
      if (closesFence(line, fence)) {
        fence = null;
        if (fenceAlone && blockStart >= 0) emit(blockStart, le);
      }
      continue;
    }
    if (BLANK.test(line)) {
      if (blockStart >= 0) emit(blockStart, blockEnd);
      continue;
    }
    const opener = fenceOpener(line);
    if (opener) {
      // A fence at column 0 interrupts a paragraph or ends a list; an indented one may be part
      // of a list item, so it stays in the current block.
      fenceAlone = opener.indent === 0;
      if (fenceAlone && blockStart >= 0) emit(blockStart, blockEnd);
      if (blockStart < 0) blockStart = ls;
      blockEnd = le;
      fence = opener;
      continue;
    }
    if (HEADING.test(line)) {
      if (blockStart >= 0) emit(blockStart, blockEnd);
      emit(ls, le);
      continue;
    }
    if (blockStart < 0) blockStart = ls;
    blockEnd = le;
  }
  return { blocks, ends, tailStart };
}

/**
 * Splits streaming Markdown into finished blocks and the unfinished tail.
 * `stable.join("\n\n") + tail` renders like `text`, and for any prefix of `text` the stable
 * blocks are a prefix of these.
 */
export function splitStable(text: string): StableSplit {
  const { blocks, tailStart } = scanBlocks(text);
  return { stable: blocks, tail: text.slice(tailStart) };
}

/** The blocks of a complete message: the stable ones plus the tail, if it holds anything. */
export function splitAll(text: string): string[] {
  const { stable, tail } = splitStable(text);
  const rest = tail.replace(/^(?:[ \t]*\r?\n)+/, "").replace(/\s+$/, "");
  return rest === "" ? stable : [...stable, rest];
}

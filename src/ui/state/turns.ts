// A task's user turns as /rewind and the Turns tab show them: the transcript's prompts merged with
// the files each turn changed (checkpoints.updated), numbered the way the engine numbers turns.
import type { EventOf } from "../../protocol/events.js";
import type { Block, TranscriptState } from "./transcript.js";

/** One turn of checkpoints.updated. */
export type CheckpointTurn = EventOf<"checkpoints.updated">["turns"][number];
export type FileChange = CheckpointTurn["changes"][number];

export interface TurnRow {
  /** 1-based user turn of the session: what session.rewind and file.revert take. */
  turn: number;
  /** First line of its prompt; "" when neither the transcript nor the engine knows it. */
  prompt: string;
  changes: FileChange[];
  /** Folded into a compaction summary: only its files can be restored. */
  folded: boolean;
}

export interface Turns {
  /** Newest first. */
  rows: TurnRow[];
  /**
   * The transcript starts at a compaction summary and no prompt could be matched to a checkpointed
   * turn: its prompts cannot be numbered, so only turns that changed files are listed.
   */
  partial: boolean;
}

/** A prompt's first line as the engine reports it (checkpointing.ts promptsByTurn). */
export function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * The engine counts each prompt as a turn; a steer is part of the turn it steered (isPrompt in
 * agent/checkpointing.ts), and the engine's memory blocks are never in the transcript. Contract: `rebuilt` is true when the transcript starts at a compaction
 * summary, i.e. prompts folded before it are missing and the numbering has an unknown offset.
 */
function promptsOf(blocks: readonly Block[]): { prompts: string[]; rebuilt: boolean } {
  const prompts: string[] = [];
  let rebuilt = false;
  for (const b of blocks) {
    if (b.kind === "compaction" && prompts.length === 0) rebuilt = true;
    if (b.kind === "user") prompts.push(firstLine(b.text));
  }
  return { prompts, rebuilt };
}

/**
 * How many turns come before the transcript's first prompt: 0 unless the transcript was rebuilt
 * after a compaction; then the offset under which the most checkpointed prompts match, or null.
 */
function promptOffset(prompts: string[], rebuilt: boolean, checkpoints: readonly CheckpointTurn[]): number | null {
  if (!rebuilt) return 0;
  const anchors = checkpoints.filter((t) => t.prompt !== "");
  let best: number | null = null;
  let bestScore = 0;
  const maxTurn = Math.max(0, ...checkpoints.map((t) => t.turn));
  for (let o = 0; o <= maxTurn; o++) {
    const score = anchors.filter((t) => prompts[t.turn - 1 - o] === t.prompt).length;
    if (score > bestScore) (best = o), (bestScore = score);
  }
  return best;
}

export function mergeTurns(blocks: readonly Block[], checkpoints: readonly CheckpointTurn[]): Turns {
  const { prompts, rebuilt } = promptsOf(blocks);
  const offset = promptOffset(prompts, rebuilt, checkpoints);
  const byTurn = new Map<number, TurnRow>();
  if (offset !== null)
    prompts.forEach((prompt, i) =>
      byTurn.set(offset + i + 1, { turn: offset + i + 1, prompt, changes: [], folded: false }),
    );
  for (const t of checkpoints) {
    const known = byTurn.get(t.turn);
    const folded = offset !== null && t.turn <= offset;
    byTurn.set(t.turn, { turn: t.turn, prompt: known?.prompt || t.prompt, changes: t.changes, folded });
  }
  const rows = [...byTurn.values()].sort((a, b) => b.turn - a.turn);
  return { rows, partial: offset === null };
}

const cache = new WeakMap<readonly Block[], { checkpoints: readonly CheckpointTurn[]; turns: Turns }>();

/** {@link mergeTurns} of a task's transcript, cached while its blocks and checkpoints stay the same. */
export function turnsOf(t: TranscriptState | undefined): Turns {
  if (!t) return { rows: [], partial: false };
  const hit = cache.get(t.blocks);
  if (hit && hit.checkpoints === t.checkpoints) return hit.turns;
  const turns = mergeTurns(t.blocks, t.checkpoints);
  cache.set(t.blocks, { checkpoints: t.checkpoints, turns });
  return turns;
}

/**
 * The checkpointed turns that still exist once the transcript was rebuilt (undo, a conversation
 * rewind, clear): the engine forgets the turns it drops, without a new checkpoints.updated.
 */
export function keepExistingTurns(blocks: readonly Block[], checkpoints: CheckpointTurn[]): CheckpointTurn[] {
  const { prompts, rebuilt } = promptsOf(blocks);
  const offset = promptOffset(prompts, rebuilt, checkpoints);
  if (offset === null) return checkpoints;
  const last = offset + prompts.length;
  return checkpoints.every((t) => t.turn <= last) ? checkpoints : checkpoints.filter((t) => t.turn <= last);
}

/**
 * Replaces the list with one read from the checkpoint store (which does not keep prompts): the
 * prompts already known for the same turns stay.
 */
export function withPrompts(fresh: CheckpointTurn[], known: readonly CheckpointTurn[]): CheckpointTurn[] {
  const prompts = new Map(known.map((t) => [t.turn, t.prompt]));
  return fresh.map((t) => (t.prompt ? t : { ...t, prompt: prompts.get(t.turn) ?? "" }));
}

/** M modified, A added (was absent), D deleted (now absent), ~ created and removed again. */
export function changeMark(c: FileChange): "M" | "A" | "D" | "~" {
  if (c.before === "absent") return c.after === "present" ? "A" : "~";
  return c.after === "absent" ? "D" : "M";
}

/** The path relative to the workspace when it lies inside it; absolute otherwise. */
export function displayPath(path: string, workspace: string | null): string {
  if (workspace && path.startsWith(`${workspace.replace(/\/+$/, "")}/`))
    return path.slice(workspace.replace(/\/+$/, "").length + 1);
  return path;
}

/**
 * The files a rewind of `turn` puts back: those changed in it or a later turn, each once, with the
 * state it goes back to (the earliest record: "too-large" ones cannot be put back).
 */
export function filesFrom(rows: readonly TurnRow[], turn: number): FileChange[] {
  const out = new Map<string, FileChange>();
  for (const r of [...rows].sort((a, b) => a.turn - b.turn))
    if (r.turn >= turn) for (const c of r.changes) if (!out.has(c.path)) out.set(c.path, c);
  return [...out.values()];
}

/** A line of the Turns tab: a turn that changed files, then each of its files. */
export type TurnsTabRow = { kind: "turn"; row: TurnRow } | { kind: "file"; row: TurnRow; change: FileChange };

const tabCache = new WeakMap<Turns, TurnsTabRow[]>();

/** The Turns tab's lines, newest turn first; turns that changed no file are left out. */
export function turnsTabRows(t: TranscriptState | undefined): TurnsTabRow[] {
  const turns = turnsOf(t);
  let rows = tabCache.get(turns);
  if (!rows) {
    rows = turns.rows
      .filter((r) => r.changes.length > 0)
      .flatMap((row): TurnsTabRow[] => [
        { kind: "turn", row },
        ...row.changes.map((change) => ({ kind: "file" as const, row, change })),
      ]);
    tabCache.set(turns, rows);
  }
  return rows;
}

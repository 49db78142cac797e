// Lines of the results pane's Turns tab: each turn's files, or one file's diff from before its
// turn to now (/rewind draws itself: dialogs/rewind.ts).
import type { Look } from "../theme/look.js";
import type { ResultsMeasure } from "./measures.js";
import type { TurnDiff } from "../state/ui-state.js";
import { diffFile, renderDiff, type RenderedDiff } from "../render/diff.js";
import { truncateToWidth, wrapLine } from "../render/wrap.js";
import type { AppState, ShownFile } from "../state/store.js";
import type { TranscriptState } from "../state/transcript.js";
import { selector } from "../state/select.js";
import { changeMark, displayPath, turnsTabRows } from "../state/turns.js";
import { diffStyles, listLines } from "./panes.js";
import { truncatePath } from "./row-text.js";

const diffCache = new WeakMap<Look, { key: unknown[]; diff: RenderedDiff }>();

/** The Turns tab's open diff, drawn (and cached until the task's blocks or the loaded content change). */
/** What the diff views say for a remote task's file the daemon did not send. */
const REMOTE_FILES = "this task runs on a daemon: its files are there, and the daemon did not send this one";

/** The Changes tab diffs against this machine's files; a remote task's diffs are per turn. */
export const REMOTE_CHANGES =
  "this task runs on a daemon: its files are there; the Turns tab shows each turn's diff, read on the daemon";

/** What the Turns tab reads: the current task's turns, the open diff and the file it shows. */
export interface TurnsModel {
  current: string | null;
  transcript: TranscriptState | undefined;
  turnDiff: TurnDiff | null;
  index: number;
  /** The open diff's task runs on a daemon. */
  remote: boolean;
  /** The open diff's file as the settle step read it (AppState.shown). */
  file: ShownFile | undefined;
}

export const selectTurns = selector((s: AppState): TurnsModel => {
  const d = s.ui.turnDiff;
  return {
    current: s.current,
    transcript: s.current ? s.transcripts[s.current] : undefined,
    turnDiff: d,
    index: s.ui.resultsIndex,
    remote: Boolean(d && s.tasks[d.taskId]?.snapshot.location === "remote"),
    file: d ? s.shown[d.path] : undefined,
  };
});

/** `d` is the current task's (turnsTab checks): its transcript is the model's. */
function turnDiffLines(m: TurnsModel, sv: Look, d: TurnDiff, inner: number): RenderedDiff {
  const t = m.transcript;
  const key = [d.taskId, d.turn, d.path, d.before, d.now, d.loading, m.file, t?.checkpoints, inner, sv.palette];
  const hit = diffCache.get(sv);
  if (hit && hit.key.every((k, i) => k === key[i])) return hit.diff;
  const { palette: p } = sv;
  const name = displayPath(d.path, t?.workspace ?? null);
  const note = (text: string): RenderedDiff => ({
    lines: [truncateToWidth(p.title(name), inner), ...wrapLine(p.dim(text), inner, { words: true })],
    hunkStarts: [],
  });
  const change = t?.checkpoints.find((c) => c.turn === d.turn)?.changes.find((c) => c.path === d.path);
  // A remote task's file is read on the daemon, with its checkpoint (`now` comes with `before`).
  const remote = m.remote;
  const now = remote ? (d.now ?? null) : (m.file?.now ?? null);
  let diff: RenderedDiff;
  if (d.loading) diff = note(remote ? "reading the file on the daemon…" : "reading the checkpoint…");
  else if (remote && d.now === undefined) diff = note(REMOTE_FILES);
  else if (d.before === undefined)
    diff = note(
      `its content before turn ${d.turn} was not kept (too large, or the checkpoint is gone): no diff, and u cannot restore it`,
    );
  else if (now === null && change?.after === "present")
    diff = note("the file is too large (or unreadable) to show now");
  else diff = renderDiff(diffFile(d.before, now), { width: inner, styles: diffStyles(p), path: name });
  diffCache.set(sv, { key, diff });
  return diff;
}

/** The Turns tab's body (`height` rows) and what the controller needs to move in it. */
export function turnsTab(
  m: TurnsModel,
  sv: Look,
  inner: number,
  height: number,
  focused: boolean,
): { body: string[]; measure: ResultsMeasure } {
  const { palette: p, ascii } = sv;
  const t = m.transcript;
  const d = m.turnDiff;
  if (d && d.taskId === m.current) {
    const diff = turnDiffLines(m, sv, d, inner);
    const room = Math.max(1, height - 1);
    const offset = Math.max(0, Math.min(Math.max(0, diff.lines.length - room), d.offset));
    const head = `${p.accent(`Turn ${d.turn}`)} ${p.dim(`· before it ${ascii ? "->" : "→"} now`)}`;
    return {
      body: [truncateToWidth(head, inner), ...diff.lines.slice(offset, offset + room)],
      measure: {
        count: 0,
        hunks: diff.hunkStarts.length,
        lines: diff.lines.length,
        height: room,
        hunkStarts: diff.hunkStarts,
      },
    };
  }
  const rows = turnsTabRows(t);
  const workspace = t?.workspace ?? null;
  const items = rows.map((r) => {
    if (r.kind === "turn")
      return `${p.accent(`Turn ${r.row.turn}`)}${r.row.prompt ? ` ${p.dim("·")} ${r.row.prompt}` : ""}`;
    const tooLarge = r.change.before === "too-large" ? " (too large)" : "";
    const path = truncatePath(displayPath(r.change.path, workspace), Math.max(4, inner - 4 - tooLarge.length));
    return `  ${changeMark(r.change)} ${path}${p.dim(tooLarge)}`;
  });
  const body = listLines(p, items, m.index, focused, inner, height, "no turn of this task has changed files yet");
  return { body, measure: { count: rows.length, hunks: 0 } };
}

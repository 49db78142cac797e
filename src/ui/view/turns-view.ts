// Lines of /rewind (the turns newest first, then what to restore) and of the results pane's Turns
// tab (each turn's files, or one file's diff from before its turn to now).
import type { AppServices } from "../context/services.js";
import type { Controller } from "../controller/controller.js";
import type { ResultsMeasure } from "../controller/lists.js";
import { rewindChoices } from "../controller/rewind.js";
import type { RewindDialog, RewindWhat, TurnDiff } from "../controller/ui-state.js";
import { diffFile, renderDiff, type RenderedDiff } from "../render/diff.js";
import { padToWidth, truncateToWidth, visibleWidth, wrapLine } from "../render/wrap.js";
import type { AppState } from "../state/store.js";
import { changeMark, displayPath, filesFrom, turnsOf, turnsTabRows, type TurnRow } from "../state/turns.js";
import type { Palette } from "../theme/palette.js";
import { frame } from "./dialog-frame.js";
import { diffStyles, listLines, windowAround } from "./panes.js";
import { fitting, truncatePath } from "./picker-view.js";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "a.ts, b/c.ts +2 more", as many names as fit `width`. */
function nameList(paths: string[], workspace: string | null, width: number): string {
  const names = paths.map((p) => displayPath(p, workspace));
  let out = "";
  for (let i = 0; i < names.length; i++) {
    const next = out ? `${out}, ${names[i]}` : names[i]!;
    const rest = names.length - i - 1;
    const tail = rest > 0 ? ` +${rest} more` : "";
    if (visibleWidth(next + tail) > width) {
      if (!out) return truncatePath(names[i]!, Math.max(4, width - visibleWidth(tail))) + tail;
      return `${out} +${names.length - i} more`;
    }
    out = next;
  }
  return out;
}

function turnLines(
  p: Palette,
  row: TurnRow,
  selected: boolean,
  numWidth: number,
  inner: number,
  workspace: string | null,
): string[] {
  const count = row.changes.length ? plural(row.changes.length, "file") : "no files";
  const num = padToWidth(String(row.turn), numWidth, "right");
  const head = `${selected ? "›" : " "} ${num}  `;
  const prompt = row.prompt || p.dim("(prompt not known)");
  const left = truncateToWidth(
    `${head}${prompt}${row.folded ? p.dim(" · folded") : ""}`,
    Math.max(4, inner - count.length - 1),
  );
  const first = `${left}${" ".repeat(Math.max(1, inner - visibleWidth(left) - count.length))}${p.dim(count)}`;
  const lines = [first];
  const indent = " ".repeat(visibleWidth(head));
  if (row.changes.length)
    lines.push(
      `${indent}${p.dim(
        nameList(
          row.changes.map((c) => c.path),
          workspace,
          Math.max(4, inner - indent.length),
        ),
      )}`,
    );
  return lines.map((l) => (selected ? p.selectionStyle(padToWidth(truncateToWidth(l, inner), inner)) : l));
}

const choiceTitle: Record<RewindWhat, string> = {
  files: "Files only",
  conversation: "Conversation only",
  both: "Both",
};
const choiceKey: Record<RewindWhat, string> = { files: "f", conversation: "c", both: "b" };

function choiceText(
  rows: TurnRow[],
  row: TurnRow | undefined,
  turn: number,
  what: RewindWhat,
  workspace: string | null,
  inner: number,
): string {
  const newest = Math.max(turn, ...rows.map((r) => r.turn));
  const turns = newest > turn ? `turns ${turn}-${newest}` : `turn ${turn}`;
  const files = filesFrom(rows, turn);
  switch (what) {
    case "files": {
      if (files.length === 0) return `no file changed in ${turns}: nothing to put back`;
      const kept = files.filter((f) => f.before !== "too-large").map((f) => f.path);
      const large = files.filter((f) => f.before === "too-large").map((f) => f.path);
      // The names get what is left of two wrapped lines.
      const room = (text: string) => Math.max(10, 2 * (inner - 5) - text.length - 4);
      const text = kept.length
        ? `put back ${plural(kept.length, "file")} changed in ${turns}:`
        : `nothing to put back from ${turns}`;
      const note = large.length
        ? `; too large to put back: ${nameList(large, workspace, Math.max(10, inner - 30))}`
        : "";
      return `${text}${kept.length ? ` ${nameList(kept, workspace, room(text + note))}` : ""}${note}`;
    }
    case "conversation":
      if (row?.folded) return `turn ${turn} was folded into the summary: it cannot be dropped`;
      return `drop ${turns} from the conversation (files stay)`;
    case "both":
      return `files and conversation as before turn ${turn}`;
  }
}

export function rewindLines(ctl: Controller, p: Palette, d: RewindDialog, width: number, height: number): string[] {
  const inner = Math.max(4, width - 2);
  const t = ctl.state.transcripts[d.taskId];
  const workspace = t?.workspace ?? null;
  const { rows, partial } = turnsOf(t);
  if (d.pick) {
    const { turn, what } = d.pick;
    const row = rows.find((r) => r.turn === turn);
    const body: string[] = [];
    if (row?.prompt) body.push(...wrapLine(p.dim(`"${row.prompt}"`), inner, { words: true }).slice(0, 2));
    body.push("");
    for (const choice of rewindChoices) {
      const selected = choice === what;
      const title = `${selected ? "›" : " "} ${choiceKey[choice]}  ${choiceTitle[choice]}`;
      body.push(selected ? p.selectionStyle(padToWidth(title, inner)) : title);
      body.push(
        ...wrapLine(`     ${p.dim(choiceText(rows, row, turn, choice, workspace, inner))}`, inner, {
          words: true,
          indent: 5,
        }),
      );
    }
    const footer = fitting(
      [
        "f files · c conversation · b both · ↑↓ Enter the highlighted · Esc back",
        "f files · c conversation · b both · Esc back",
        "f · c · b · Enter · Esc back",
      ],
      width,
    );
    return frame(p, `Rewind to before turn ${turn}`, body, width, height, footer);
  }
  if (rows.length === 0) {
    const text = [
      "No turns yet: nothing to rewind.",
      "",
      "Each prompt you send starts a turn. Files that tools and commands change in it are saved first, so /rewind can put them back, drop the conversation from that turn on, or both.",
    ];
    return frame(
      p,
      "Rewind",
      text.flatMap((l) => wrapLine(l, inner, { words: true })),
      width,
      height,
      "Esc close",
    );
  }
  const index = Math.min(d.index, rows.length - 1);
  const numWidth = String(rows[0]!.turn).length;
  const info = p.dim(
    truncateToWidth(
      `${plural(rows.length, "turn")}, newest first${partial ? " (earlier ones folded into a summary)" : ""}`,
      inner,
    ),
  );
  const lines: string[] = [];
  let selectedAt = 0;
  rows.forEach((row, i) => {
    if (i === index) selectedAt = lines.length;
    lines.push(...turnLines(p, row, i === index, numWidth, inner, workspace));
  });
  // Keep the selected turn's second line in view too.
  const shown = windowAround(lines, selectedAt + 1, Math.max(1, height - 4)).lines;
  const footer = fitting(
    ["↑↓ choose a turn · Enter: what to restore · Esc close", "↑↓ · Enter choose · Esc close"],
    width,
  );
  return frame(p, "Rewind: go back to before a turn", [info, "", ...shown], width, height, footer);
}

const diffCache = new WeakMap<AppServices, { key: unknown[]; diff: RenderedDiff }>();

/** The Turns tab's open diff, drawn (and cached until the task's blocks or the loaded content change). */
/** What the diff views say for a remote task's file the daemon did not send. */
const REMOTE_FILES = "this task runs on a daemon: its files are there, and the daemon did not send this one";

/** The Changes tab diffs against this machine's files; a remote task's diffs are per turn. */
export const REMOTE_CHANGES =
  "this task runs on a daemon: its files are there; the Turns tab shows each turn's diff, read on the daemon";

function turnDiffLines(s: AppState, sv: AppServices, d: TurnDiff, inner: number): RenderedDiff {
  const t = s.transcripts[d.taskId];
  const key = [
    d.taskId,
    d.turn,
    d.path,
    d.before,
    d.now,
    d.loading,
    s.shown[d.path],
    t?.checkpoints,
    inner,
    sv.palette,
  ];
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
  const remote = s.tasks[d.taskId]?.snapshot.location === "remote";
  const now = remote ? (d.now ?? null) : (s.shown[d.path]?.now ?? null);
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
  s: AppState,
  sv: AppServices,
  inner: number,
  height: number,
  focused: boolean,
): { body: string[]; measure: ResultsMeasure } {
  const { palette: p, ascii } = sv;
  const t = s.current ? s.transcripts[s.current] : undefined;
  const d = s.ui.turnDiff;
  if (d && d.taskId === s.current) {
    const diff = turnDiffLines(s, sv, d, inner);
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
  const body = listLines(
    p,
    items,
    s.ui.resultsIndex,
    focused,
    inner,
    height,
    "no turn of this task has changed files yet",
  );
  return { body, measure: { count: rows.length, hunks: 0 } };
}

// /rewind: the task's turns newest first (each with the files it changed), then what to restore
// for the chosen one: files, conversation or both (f c b, or ↑↓ and Enter). What a rewind does:
// controller/rewind.ts.
import { closeRewind, defaultWhat, rewindChoices, rewindTo, updateRewind } from "../controller/rewind.js";
import { listStep, moveIndex } from "../input/list-nav.js";
import { padToWidth, truncateToWidth, visibleWidth, wrapLine } from "../render/wrap.js";
import { displayPath, filesFrom, turnsOf, type TurnRow } from "../state/turns.js";
import type { Palette } from "../theme/palette.js";
import type { DialogView } from "../view/dialog-frame.js";
import { fitting, truncatePath } from "../view/row-text.js";
import { listTextWidth } from "../view/select-list.js";
import { isKey, type DialogSpec } from "./dialog.js";
import type { RewindWhat, RewindDialog } from "../state/dialogs.js";

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

/** A turn's rows: its number, prompt and file count, then the files' names. */
function turnItem(p: Palette, row: TurnRow, numWidth: number, text: number, workspace: string | null): string[] {
  const count = row.changes.length ? plural(row.changes.length, "file") : "no files";
  const head = `${padToWidth(String(row.turn), numWidth, "right")}  `;
  const prompt = row.prompt || p.dim("(prompt not known)");
  const left = truncateToWidth(
    `${head}${prompt}${row.folded ? p.dim(" · folded") : ""}`,
    Math.max(4, text - count.length - 1),
  );
  const lines = [`${left}${" ".repeat(Math.max(1, text - visibleWidth(left) - count.length))}${p.dim(count)}`];
  const indent = " ".repeat(visibleWidth(head));
  if (row.changes.length)
    lines.push(
      `${indent}${p.dim(
        nameList(
          row.changes.map((c) => c.path),
          workspace,
          Math.max(4, text - indent.length),
        ),
      )}`,
    );
  return lines;
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

function pickView(
  p: Palette,
  rows: TurnRow[],
  d: RewindDialog,
  workspace: string | null,
  width: number,
  height: number,
): DialogView {
  const inner = Math.max(4, width - 2);
  const { turn, what } = d.pick!;
  const row = rows.find((r) => r.turn === turn);
  const text = listTextWidth(inner);
  const prompt = row?.prompt ? wrapLine(p.dim(`"${row.prompt}"`), inner, { words: true }).slice(0, 2) : [];
  const items = rewindChoices.map((choice) => [
    `${choiceKey[choice]}  ${choiceTitle[choice]}`,
    ...wrapLine(`   ${p.dim(choiceText(rows, row, turn, choice, workspace, inner))}`, text, { words: true, indent: 3 }),
  ]);
  const footer = fitting(
    [
      "f files · c conversation · b both · ↑↓ Enter the highlighted · Esc back",
      "f files · c conversation · b both · Esc back",
      "f · c · b · Enter · Esc back",
    ],
    width,
  );
  return {
    title: `Rewind to before turn ${turn}`,
    body: [
      { kind: "lines", lines: [...prompt, ""] },
      {
        kind: "list",
        list: { items, selected: rewindChoices.indexOf(what), height: Math.max(1, height - 3 - prompt.length) },
      },
    ],
    footer,
  };
}

export const rewindDialog: DialogSpec<RewindDialog> = {
  view(s, sv, d, width, height) {
    const p = sv.palette;
    const inner = Math.max(4, width - 2);
    const t = s.transcripts[d.taskId];
    const workspace = t?.workspace ?? null;
    const { rows, partial } = turnsOf(t);
    if (d.pick) return pickView(p, rows, d, workspace, width, height);
    if (rows.length === 0) {
      const text = [
        "No turns yet: nothing to rewind.",
        "",
        "Each prompt you send starts a turn. Files that tools and commands change in it are saved first, so /rewind can put them back, drop the conversation from that turn on, or both.",
      ];
      return {
        title: "Rewind",
        body: [{ kind: "lines", lines: text.flatMap((l) => wrapLine(l, inner, { words: true })) }],
        footer: "Esc close",
      };
    }
    const numWidth = String(rows[0]!.turn).length;
    const info = p.dim(
      truncateToWidth(
        `${plural(rows.length, "turn")}, newest first${partial ? " (earlier ones folded into a summary)" : ""}`,
        inner,
      ),
    );
    const items = rows.map((row) => turnItem(p, row, numWidth, listTextWidth(inner), workspace));
    return {
      title: "Rewind: go back to before a turn",
      body: [
        { kind: "lines", lines: [info, ""] },
        {
          kind: "list",
          list: { items, selected: Math.min(d.index, rows.length - 1), height: Math.max(1, height - 4) },
        },
      ],
      footer: fitting(
        ["↑↓ choose a turn · Enter: what to restore · Esc close", "↑↓ · Enter choose · Esc close"],
        width,
      ),
    };
  },
  keys(host, d, event) {
    if (event.kind !== "key") return false;
    const key = event.key;
    if (host.is("interrupt", key)) {
      closeRewind(host);
      return true;
    }
    const rows = turnsOf(host.state.transcripts[d.taskId]).rows;
    const move = host.action(key, ["listUp", "listDown"]);
    // j and k move as ↑↓ do (the list's keys); ← → and Tab go through the choices too.
    const step = move === "listUp" ? "up" : move === "listDown" ? "down" : listStep(key);
    if (d.pick) {
      const pick = d.pick;
      if (isKey(key, "escape")) {
        updateRewind(host, (x) => ({ ...x, pick: null }));
        return true;
      }
      const chosen = host.action(key, ["rewindFiles", "rewindConversation", "rewindBoth"]);
      if (chosen) {
        const what = chosen === "rewindFiles" ? "files" : chosen === "rewindConversation" ? "conversation" : "both";
        rewindTo(host, d, pick.turn, what);
        return true;
      }
      if (isKey(key, "enter")) {
        rewindTo(host, d, pick.turn, pick.what);
        return true;
      }
      const at = rewindChoices.indexOf(pick.what);
      const n = rewindChoices.length;
      const next =
        step === "up" || isKey(key, "left")
          ? (at + n - 1) % n
          : step === "down" || isKey(key, "right") || isKey(key, "tab")
            ? (at + 1) % n
            : step
              ? moveIndex(at, n, step)
              : -1;
      if (next < 0) return false;
      updateRewind(host, (x) => ({ ...x, pick: { turn: pick.turn, what: rewindChoices[next]! } }));
      return true;
    }
    if (isKey(key, "escape")) {
      closeRewind(host);
      return true;
    }
    if (rows.length === 0) return false;
    const index = Math.min(d.index, rows.length - 1);
    if (step) {
      updateRewind(host, (x) => ({ ...x, index: moveIndex(index, rows.length, step) }));
      return true;
    }
    if (isKey(key, "enter")) {
      const row = rows[index]!;
      updateRewind(host, (x) => ({ ...x, index, pick: { turn: row.turn, what: defaultWhat(row) } }));
      return true;
    }
    return false;
  },
};

// The engine's side of file checkpoints: which files a tool call may change, checkpointed before
// it runs (file tools: the paths they name; commands: a walk of the workspace before and after).
import { log } from "../config/log.js";
import type { BusEvent } from "../protocol/events.js";
import { contentText, type ChatMessage } from "../protocol/messages.js";
import type { CheckpointOptions, Checkpoints } from "../session/checkpoints.js";
import type { AnyTool } from "../tools/define.js";
import { resolvePath } from "../tools/paths.js";
import { parsePatch } from "../tools/patch-parse.js";
import { MEMORY_BLOCK_START } from "../memory/markers.js";

/** What the engine uses of a checkpoint store. */
export type CheckpointStore = Pick<
  Checkpoints,
  "beforeWrite" | "beforeCommand" | "afterCommand" | "turns" | "rewind" | "revertFile" | "forget" | "prune" | "coverage"
>;

/**
 * A store that loads the checkpoint code on its first use: most runs never change a file, and
 * one-shot start-up should not pay for it. Contract: the same as Checkpoints (nothing rejects).
 */
export function lazyCheckpoints(options: CheckpointOptions): CheckpointStore {
  let store: Promise<Checkpoints> | null = null;
  const get = () =>
    (store ??= import("../session/checkpoints.js").then(({ Checkpoints: Store }) => new Store(options)));
  return {
    beforeWrite: async (...a) => (await get()).beforeWrite(...a),
    beforeCommand: async (...a) => (await get()).beforeCommand(...a),
    afterCommand: async (...a) => (await get()).afterCommand(...a),
    turns: async () => (await get()).turns(),
    rewind: async (...a) => (await get()).rewind(...a),
    revertFile: async (...a) => (await get()).revertFile(...a),
    forget: async (...a) => (await get()).forget(...a),
    coverage: async () => (store ? (await store).coverage() : null),
    // Nothing to prune when nothing was ever checkpointed in this run.
    prune: async () => (store ? (await store).prune() : 0),
  };
}

/** The files an edit tool's arguments name (all of a patch's files, moves included). */
export function editedPaths(tool: AnyTool, args: Record<string, unknown>, workspace: string): string[] {
  if (tool.name === "apply_patch" && typeof args.patch === "string") {
    try {
      return parsePatch(args.patch)
        .flatMap((op) => [op.path, ...(op.type === "update" && op.moveTo ? [op.moveTo] : [])])
        .map((p) => resolvePath(workspace, p));
    } catch {
      return []; // the tool will refuse the patch itself
    }
  }
  return typeof args.path === "string" ? [resolvePath(workspace, args.path)] : [];
}

/** User prompts that start turns: not the engine's memory blocks, nor steering inside a turn. */
export const isPrompt = (m: ChatMessage) =>
  m.role === "user" && !m.steer && !(typeof m.content === "string" && m.content.startsWith(MEMORY_BLOCK_START));

/** The hooks the registry calls around a tool; contract: they never throw into the call. */
export interface CheckpointHooks {
  /** Null, or why the call must not run: what it would change could not be kept for /rewind. */
  before(tool: AnyTool, args: Record<string, unknown>): Promise<string | null>;
  after(tool: AnyTool, args: Record<string, unknown>): Promise<void>;
  /** Emits checkpoints.updated with every turn's changes (after a resume, rewind, revert, undo). */
  report(): Promise<void>;
}

export function checkpointHooks(opts: {
  checkpoints: CheckpointStore;
  workspace: string;
  /** The 1-based ordinal of the user turn running now. */
  turn(): number;
  /** First lines of the prompts by turn, for the event. */
  prompts(): Map<number, string>;
  emit(event: BusEvent): void;
}): CheckpointHooks {
  const { checkpoints } = opts;
  const isCommand = (tool: AnyTool, args: Record<string, unknown>) => tool.kind === "exec" && args.background !== true;
  let toldPartial = false;
  // Said once per session: commands' changes past the walk's file limit are not recorded.
  const tellPartial = async () => {
    const cover = await checkpoints.coverage();
    if (!cover || cover.complete || toldPartial) return;
    toldPartial = true;
    opts.emit({
      type: "notice",
      level: "warn",
      text: `file checkpoints see only the first ${cover.maxFiles.toLocaleString("en-US")} files of the workspace (walk order): changes that commands make past them cannot be rewound`,
    } as BusEvent);
  };
  const report = async () => {
    const prompts = opts.prompts();
    const turns = await checkpoints.turns();
    opts.emit({
      type: "checkpoints.updated",
      turns: turns.map((t) => ({
        turn: t.turn,
        prompt: prompts.get(t.turn) ?? "",
        changes: t.changes.map((c) => ({ path: c.path, before: c.before, after: c.after, by: c.by })),
      })),
    } as BusEvent);
  };
  return {
    async report() {
      try {
        await report();
      } catch (error) {
        log("warn", "reporting checkpoints", error);
      }
    },
    async before(tool, args) {
      try {
        if (tool.kind === "edit") {
          const paths = editedPaths(tool, args, opts.workspace);
          // The before-image is the disk's, also when the tool writes through the editor (ACP's
          // fs/write_text_file). Where the editor's buffer held unsaved edits, it differs from the
          // text the edit applied to: a rewind restores the file as saved, not those edits.
          const failed = paths.length > 0 ? await checkpoints.beforeWrite(opts.turn(), paths, tool.name) : null;
          if (failed) {
            // Refused, not done silently: an edit /rewind cannot undo is the user's call to make.
            const why = `${tool.name} was not run: the file checkpoint before it failed, so /rewind could not undo it: ${failed}`;
            opts.emit({ type: "notice", level: "warn", text: why } as BusEvent);
            return `${why}. Nothing was changed; tell the user (a full disk must be freed first).`;
          }
        } else if (isCommand(tool, args)) {
          await checkpoints.beforeCommand(opts.turn());
          await tellPartial();
        }
      } catch (error) {
        log("warn", "checkpoint before a tool call", error);
      }
      return null;
    },
    async after(tool, args) {
      try {
        if (tool.kind === "edit") {
          if (editedPaths(tool, args, opts.workspace).length > 0) await report();
        } else if (isCommand(tool, args)) {
          const changes = await checkpoints.afterCommand(opts.turn(), tool.name);
          if (changes.length > 0) await report();
        }
      } catch (error) {
        log("warn", "checkpoint after a tool call", error);
      }
    },
  };
}

/** First lines of the prompts, numbered as turns (archived ones first). */
export function promptsByTurn(archive: ChatMessage[], messages: ChatMessage[]): Map<number, string> {
  const map = new Map<number, string>();
  let n = 0;
  for (const m of [...archive, ...messages]) {
    if (!isPrompt(m)) continue;
    n++;
    const line = (typeof m.content === "string" ? m.content : contentText(m.content)).split("\n", 1)[0] ?? "";
    map.set(n, line.length > 80 ? `${line.slice(0, 79)}…` : line);
  }
  return map;
}

export interface RewindOutcome {
  files?: Awaited<ReturnType<Checkpoints["rewind"]>>;
  /** Turns dropped from the conversation. */
  dropped?: number;
  error?: string;
}

/**
 * Files: everything changed in `turn` or later goes back to how it was before it. Conversation:
 * the history is cut at that prompt (a turn already folded by compaction cannot be; its files can
 * still be restored), and the dropped turns' records are forgotten, since their numbers are used
 * again from here.
 */
export async function rewindSession(
  s: { messages: ChatMessage[]; archive: ChatMessage[]; checkpoints: CheckpointStore | null },
  turn: number,
  what: "files" | "conversation" | "both",
): Promise<RewindOutcome> {
  const out: RewindOutcome = {};
  if (what !== "conversation") {
    if (!s.checkpoints) out.error = "no file checkpoints in this session";
    else out.files = await s.checkpoints.rewind(turn);
  }
  if (what === "files") return out;
  const archived = s.archive.filter(isPrompt).length;
  const total = archived + s.messages.filter(isPrompt).length;
  let n = archived;
  const at = s.messages.findIndex((m) => isPrompt(m) && ++n === turn);
  if (turn <= archived) out.error = `turn ${turn} was folded into the summary; only its files can be restored`;
  else if (at < 0) out.error = `there is no turn ${turn}`;
  else {
    out.dropped = total - turn + 1;
    // The memory block placed for that prompt goes with it.
    const from = at > 0 && s.messages[at - 1]!.role === "user" && !isPrompt(s.messages[at - 1]!) ? at - 1 : at;
    s.messages.splice(from);
    await s.checkpoints?.forget(turn);
  }
  return out;
}

// memory_save and memory_search, and the per-turn block of retrieved memories the engine places
// next to the newest user message.
import * as z from "../protocol/zod.js";
import { defineTool, ToolError, type AnyTool } from "../tools/define.js";
import { MAX_MEMORY_TEXT, memoryKinds, type MemoryEntry, type MemoryKind, type MemoryStore } from "./store.js";

/** How many entries memory_search lists (the per-turn block uses the store's default, 5). */
export const SEARCH_TOOL_RESULTS = 10;

import { MEMORY_BLOCK_END, MEMORY_BLOCK_START } from "./markers.js";
export { MEMORY_BLOCK_END, MEMORY_BLOCK_START };

/** One entry's text on one line, with the block markers defused so an entry cannot end the block. */
function inline(text: string): string {
  return text
    .replace(/\s*\n\s*/g, " / ")
    .split(MEMORY_BLOCK_END)
    .join("</ memories>")
    .split(MEMORY_BLOCK_START)
    .join("< memories>");
}

/** The per-turn block placed next to the newest user message: "" when nothing matched. */
export function memoryBlock(results: { entry: MemoryEntry; score: number }[]): string {
  if (results.length === 0) return "";
  return [
    MEMORY_BLOCK_START,
    "Notes saved in earlier sessions that may bear on this message. They may be out of date: what the user says now and what the workspace shows take precedence.",
    ...results.map(({ entry }) => `- [${entry.kind}] ${inline(entry.text)}`),
    MEMORY_BLOCK_END,
  ].join("\n");
}

const kindHelp: Record<MemoryKind, string> = {
  lesson: "something learned the hard way that will matter again",
  preference: "how the user likes things done",
  correction: "the user corrected you: what to do instead",
  fact: "a lasting fact about the user, their machine or their projects",
};

const failed = (what: string, error: unknown) => new ToolError(`${what} failed: ${(error as Error).message}`);

/**
 * Contract: both tools are kind "read" for the policy: they touch only the memory file in the
 * NanoHermes home, never the workspace. The store's I/O failures reach the model as tool errors.
 */
export function memoryTools(store: MemoryStore, opts: { workspace: string }): AnyTool[] {
  const save = defineTool({
    name: "memory_save",
    kind: "read",
    description:
      "Remember something for future sessions (the memory is shared by all workspaces). Save only what will still matter later: " +
      memoryKinds.map((k) => `${k} (${kindHelp[k]})`).join("; ") +
      ". Not the current task's progress, and never secrets (keys, passwords, tokens). One short, self-contained sentence per memory.",
    params: z.object({
      kind: z.enum(memoryKinds),
      text: z
        .string()
        .check(
          z.minLength(1),
          z.maxLength(MAX_MEMORY_TEXT),
          z.describe(`The memory, self-contained (at most ${MAX_MEMORY_TEXT} characters).`),
        ),
    }),
    summarize: (a) => `${a.kind}: ${a.text.length > 60 ? `${a.text.slice(0, 59)}…` : a.text}`,
    async run(args) {
      if (args.text.trim() === "") throw new ToolError("text is empty: say what to remember");
      let saved: Awaited<ReturnType<MemoryStore["save"]>>;
      try {
        saved = await store.save(args.kind, args.text, opts.workspace);
      } catch (error) {
        throw failed("saving the memory", error);
      }
      const { entry, duplicate } = saved;
      return duplicate
        ? {
            forModel: `already remembered (id ${entry.id}, ${entry.kind}): ${entry.text}`,
            display: "already remembered",
          }
        : {
            forModel: `remembered (id ${entry.id}, ${entry.kind}): ${entry.text}`,
            display: `remembered ${entry.kind}`,
          };
    },
  });

  const search = defineTool({
    name: "memory_search",
    kind: "read",
    description:
      `Search the memories saved in earlier sessions (lessons, preferences, corrections, facts) by keywords, English or Chinese; lists up to ${SEARCH_TOOL_RESULTS} ` +
      'best matches. A kind name ("correction", "纠正", "preference", "偏好") finds entries of that kind.',
    params: z.object({
      query: z.string().check(z.minLength(1), z.describe("Keywords to look for.")),
    }),
    summarize: (a) => a.query,
    async run(args) {
      let results: Awaited<ReturnType<MemoryStore["search"]>>;
      try {
        results = await store.search(args.query, SEARCH_TOOL_RESULTS);
      } catch (error) {
        throw failed("searching memory", error);
      }
      if (results.length === 0) return { forModel: `no memories match "${args.query}"`, display: "no matches" };
      const lines = results.map(
        ({ entry, score }) => `${entry.id} [${entry.kind}] (score ${score.toFixed(2)}) ${entry.text}`,
      );
      return {
        forModel: lines.join("\n"),
        display: `${results.length} ${results.length === 1 ? "memory" : "memories"}`,
      };
    },
  });

  return [save, search];
}

// The session_search tool, apart from the index so that registering it loads neither SQLite nor
// the index code: both load on the first search.
import * as z from "../protocol/zod.js";
import { defineTool, type AnyTool } from "../tools/define.js";
import type { SessionHit, SessionIndex } from "./search.js";

/** One hit as the model reads it. */
function formatHit(hit: SessionHit, n: number): string {
  const date = hit.updatedAt ? hit.updatedAt.slice(0, 16).replace("T", " ") : "unknown date";
  return `${n}. ${hit.title} — ${date} — ${hit.workspace || "unknown workspace"} — session ${hit.sessionId}\n   ${hit.role}: ${hit.snippet}`;
}

/**
 * The session_search tool. Contract: `getIndex` opens the index once (the caller keeps it);
 * each call first syncs `sessionDir`, so sessions saved by other processes are found too.
 */
export function sessionSearchTool(getIndex: () => Promise<SessionIndex>, sessionDir: string): AnyTool {
  return defineTool({
    name: "session_search",
    kind: "read",
    description:
      "Full-text search over the user's past sessions with this agent (all workspaces): what was asked, answered, run and found. " +
      'Words must all match; "quoted words" match as a phrase; the last word also matches as a prefix; Chinese, Japanese and Korean work. ' +
      "Returns the best matching sessions with title, date, workspace, session id and a snippet ([ ] marks the match). " +
      "Use it when the user refers to earlier work you do not see in this conversation.",
    params: z.object({
      query: z.string().check(z.minLength(1), z.maxLength(500), z.describe("Words or a quoted phrase to look for.")),
      limit: z.optional(
        z.number().check(z.int(), z.minimum(1), z.maximum(50), z.describe("At most this many sessions (default 10).")),
      ),
    }),
    summarize: (a) => a.query,
    async run(args) {
      const index = await getIndex();
      await index.sync(sessionDir);
      const hits = index.search(args.query, { limit: args.limit ?? 10 });
      if (hits.length === 0)
        return { forModel: `no past session matches ${JSON.stringify(args.query)}`, display: "no matches" };
      const lines = hits.map((hit, i) => formatHit(hit, i + 1));
      lines.unshift(
        `${hits.length} past session${hits.length === 1 ? "" : "s"} match ${JSON.stringify(args.query)}, best first:`,
      );
      lines.push(
        "You cannot open these sessions yourself. To continue one, ask the user to resume it (`nanohermes --resume <session id>`, or pick it from the task list); otherwise use the snippets as context.",
      );
      return { forModel: lines.join("\n"), display: `${hits.length} session${hits.length === 1 ? "" : "s"}` };
    },
  });
}

// todo_write and todo_read: the session's plan, kept in the session store and shown live in the
// results pane. Both are kind "read": they change no file, so plan mode may use them unasked.
import * as z from "../protocol/zod.js";
import { defineTool, ToolError, type ToolContext, type ToolReport } from "./define.js";

export const MAX_TODO_ITEMS = 50;
/** One step is a line, not a document. */
export const MAX_TODO_CHARS = 500;
const STORE_KEY = "todo";

export type TodoItem = Extract<ToolReport, { kind: "todo" }>["items"][number];

const MARK: Record<TodoItem["status"], string> = { pending: "[ ]", in_progress: "[>]", completed: "[x]" };

/** The plan as the model reads it back: a progress line, then one line per item. */
export function formatPlan(items: TodoItem[]): string {
  if (items.length === 0) return "the plan is empty";
  const done = items.filter((item) => item.status === "completed").length;
  return [
    `${done}/${items.length} done`,
    ...items.map((item, i) => `${i + 1}. ${MARK[item.status]} ${item.content}`),
  ].join("\n");
}

function session(ctx: ToolContext) {
  if (!ctx.session) throw new ToolError("the plan needs a session and this run has none");
  return ctx.session;
}

export const todoWriteTool = defineTool({
  name: "todo_write",
  kind: "read",
  description:
    "Replace the plan for this task with the given list (send the whole list each time). Use it for work of three or more steps: " +
    "mark one item in_progress before starting it and completed as soon as it is done. " +
    `At most ${MAX_TODO_ITEMS} items and one in_progress at a time. The user sees the plan live.`,
  params: z.object({
    items: z
      .array(
        z.object({
          content: z
            .string()
            .check(
              z.minLength(1),
              z.maxLength(MAX_TODO_CHARS),
              z.describe("The step, as a short imperative sentence."),
            ),
          status: z.enum(["pending", "in_progress", "completed"]),
        }),
      )
      .check(
        z.maxLength(MAX_TODO_ITEMS),
        z.describe(`The whole plan, in order (at most ${MAX_TODO_ITEMS} items; empty clears it).`),
      ),
  }),
  summarize: (a) => `${a.items.filter((i) => i.status === "completed").length}/${a.items.length} done`,
  async run(args, ctx) {
    const items = args.items.map((item) => ({ content: item.content.trim(), status: item.status }));
    const blank = items.findIndex((item) => item.content === "");
    if (blank >= 0) throw new ToolError(`item ${blank + 1} has no content`);
    const active = items.flatMap((item, i) => (item.status === "in_progress" ? [i + 1] : []));
    if (active.length > 1) {
      throw new ToolError(
        `items ${active.join(", ")} are all in_progress: at most one item may be in_progress; mark the others pending or completed`,
      );
    }
    const s = session(ctx);
    s.store.set(STORE_KEY, items);
    s.report({ kind: "todo", items });
    const plan = formatPlan(items);
    return { forModel: `plan updated: ${plan}`, display: plan.split("\n", 1)[0]! };
  },
});

export const todoReadTool = defineTool({
  name: "todo_read",
  kind: "read",
  description: "Read the current plan for this task (as last written with todo_write), with progress.",
  params: z.object({}),
  summarize: () => "plan",
  async run(_args, ctx) {
    const items = (session(ctx).store.get(STORE_KEY) as TodoItem[] | undefined) ?? [];
    if (items.length === 0) return { forModel: "there is no plan yet: write one with todo_write", display: "no plan" };
    const plan = formatPlan(items);
    return { forModel: plan, display: plan.split("\n", 1)[0]! };
  },
});

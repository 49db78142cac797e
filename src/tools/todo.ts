// todo_write and todo_read: the session's plan, kept in the session store and shown live in the
// results pane. Both are kind "read": they change no file, so plan mode may use them unasked.
import { defineTool, ToolError, type ToolContext, type ToolReport } from "./define.js";
import { todoReadSpec, todoWriteSpec } from "./specs/todo.js";

export { MAX_TODO_CHARS, MAX_TODO_ITEMS } from "./specs/todo.js";

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
  ...todoWriteSpec,
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
  ...todoReadSpec,
  async run(_args, ctx) {
    const items = (session(ctx).store.get(STORE_KEY) as TodoItem[] | undefined) ?? [];
    if (items.length === 0) return { forModel: "there is no plan yet: write one with todo_write", display: "no plan" };
    const plan = formatPlan(items);
    return { forModel: plan, display: plan.split("\n", 1)[0]! };
  },
});

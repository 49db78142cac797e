// The specs of todo_write and todo_read (the implementations are src/tools/todo.ts).
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";

export const MAX_TODO_ITEMS = 50;
/** One step is a line, not a document. */
export const MAX_TODO_CHARS = 500;

export const todoWriteSpec = defineSpec({
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
});

export const todoReadSpec = defineSpec({
  name: "todo_read",
  kind: "read",
  description: "Read the current plan for this task (as last written with todo_write), with progress.",
  params: z.object({}),
  summarize: () => "plan",
});

// What every event carries (its task and, for a subagent's, the delegating task and call) and the
// token usage several events report: shared by the event families (events.ts, state-events.ts).
import * as z from "./zod.js";

/** Fields every event carries. `agentId` is set for events that come from a subagent. */
export const base = {
  taskId: z.string().check(z.describe("The task (session) the event belongs to.")),
  agentId: z.optional(z.string()).check(z.describe("Set when a subagent emitted the event (`agent-N`).")),
  parentTaskId: z
    .optional(z.string())
    .check(z.describe("On a subagent's events: the task whose agent (or subagent) delegated to it.")),
  parentCallId: z
    .optional(z.string())
    .check(
      z.describe("On a subagent's events: the `subagent` tool call that started it (its tool.completed ends it)."),
    ),
};

export const usage = z.object({
  prompt: z.int().check(z.nonnegative()),
  completion: z.int().check(z.nonnegative()),
  cachedPrompt: z
    .optional(z.int().check(z.nonnegative()))
    .check(z.describe("Of `prompt`, read from the provider's prompt cache.")),
  cacheWrite: z
    .optional(z.int().check(z.nonnegative()))
    .check(z.describe("Of `prompt`, written to the prompt cache (Anthropic).")),
  reasoning: z.optional(z.int().check(z.nonnegative())).check(z.describe("Of `completion`, spent on reasoning.")),
  costUsd: z
    .optional(z.number().check(z.nonnegative()))
    .check(
      z.describe(
        'USD at the model\'s list prices (src/agent/providers/models.ts, config "models"); absent when no price is known.',
      ),
    ),
  unpriced: z
    .optional(z.boolean())
    .check(z.describe("Some request's model has no known price: `costUsd` covers only the others.")),
});

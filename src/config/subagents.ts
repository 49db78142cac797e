// Subagent definitions: the `subagents` key of config.json or a `--subagents FILE`, shaped
// `{"agents": {"<name>": {"prompt", "model"?, "allowed_tools"?, "max_iterations"?}}}`.
import * as z from "../protocol/zod.js";
import { checked, readJson } from "./json-file.js";

/** The seed's fixed cap: a turn may fan out, but never into more than this many model streams. */
export const MAX_PARALLEL_SUBAGENTS = 4;
/** Children cannot spawn children unless configured (as Hermes). */
export const DEFAULT_MAX_DEPTH = 1;

export const SubagentDefSchema = z.strictObject({
  prompt: z
    .string()
    .check(z.minLength(1), z.describe("The child's role and instructions (added to its system prompt).")),
  description: z
    .optional(z.string())
    .check(z.describe("One line for the parent model: when to delegate to this agent.")),
  model: z
    .optional(z.string().check(z.minLength(1)))
    .check(z.describe("Model for this agent (default: the parent's).")),
  allowed_tools: z
    .optional(z.array(z.string().check(z.minLength(1))))
    .check(z.describe("Tool names the child may use (default: all).")),
  max_iterations: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
});

const NAME = /^[A-Za-z0-9_-]{1,48}$/;

export const SubagentsConfigSchema = z.strictObject({
  agents: z.record(z.string(), SubagentDefSchema).check(
    z.superRefine((agents, ctx) => {
      for (const name of Object.keys(agents)) {
        if (!NAME.test(name))
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: `"${name}" is not a valid agent name: use letters, digits, _ and - (at most 48)`,
            input: name,
          });
      }
    }),
  ),
  max_parallel: z
    .optional(z.int().check(z.minimum(1), z.maximum(MAX_PARALLEL_SUBAGENTS)))
    .check(z.describe(`Children running at once (1-${MAX_PARALLEL_SUBAGENTS}, default ${MAX_PARALLEL_SUBAGENTS}).`)),
  max_depth: z
    .optional(z.int().check(z.minimum(1), z.maximum(3)))
    .check(z.describe("How deep delegation may nest (default 1: children cannot delegate).")),
});

export type SubagentDef = z.infer<typeof SubagentDefSchema>;
export type SubagentsConfig = z.infer<typeof SubagentsConfigSchema>;

/** Reads a `--subagents FILE`; throws one line naming the file and the key. */
export function readSubagentsFile(file: string): SubagentsConfig {
  return checked(SubagentsConfigSchema, readJson(file, "subagents file"), "subagents file", file);
}

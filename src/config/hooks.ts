// The `hooks` value of config.json (its zod schema), its flattening into hook specs, and tool
// matching. Pure and free of process code, so the config schema can import it cheaply.
import * as z from "../protocol/zod.js";

/** When a hook runs: before a tool call (may block it) or after it (may add a warning). */
export type HookEvent = "PreToolUse" | "PostToolUse";
export const hookEvents = ["PreToolUse", "PostToolUse"] as const satisfies readonly HookEvent[];

/** A hook that does not set `timeout` is stopped after this long. */
export const HOOK_TIMEOUT_MS = 30_000;
const MAX_TIMEOUT_S = 600;

/** One hook, ready to run. */
export interface HookSpec {
  event: HookEvent;
  /** `*` (or blank) for every tool, else tool names separated by `,` or `|`. */
  matcher: string;
  /** Run as `sh -c COMMAND` in the workspace root. */
  command: string;
  timeoutMs: number;
}

const command = z.string().check(z.minLength(1), z.regex(/\S/, "must not be blank"));
const matcher = z
  .optional(z.string())
  .check(z.describe('Tool names separated by "," or "|", or "*" for all tools (default "*").'));
const timeout = z
  .optional(z.number().check(z.minimum(1), z.maximum(MAX_TIMEOUT_S)))
  .check(z.describe(`Seconds before the hook's process group is killed (default ${HOOK_TIMEOUT_MS / 1000}).`));

/** Our shape: `{ matcher?, command, timeout? }`. */
const FlatEntry = z.strictObject({ matcher, command, timeout });

/** Claude Code's shape: `{ matcher?, hooks: [{ type: "command", command, timeout? }] }`. */
const NestedEntry = z.strictObject({
  matcher,
  hooks: z.array(z.strictObject({ type: z.literal("command"), command, timeout })).check(z.minLength(1)),
});

const entries = z.optional(z.array(z.union([FlatEntry, NestedEntry])));

/**
 * The config.json `hooks` value. Unknown events are errors rather than hooks that silently never
 * run (Claude Code's Notification, Stop and others are not supported).
 */
export const HooksConfigSchema = z
  .strictObject({ PreToolUse: entries, PostToolUse: entries })
  .check(
    z.describe(
      "Shell commands run before (PreToolUse, non-zero blocks) or after (PostToolUse, non-zero warns) matching tool calls.",
    ),
  );

export type HooksConfig = z.infer<typeof HooksConfigSchema>;

/** Contract: one spec per command, events in a fixed order and entries in config order. */
export function hookSpecs(config: HooksConfig | undefined): HookSpec[] {
  const specs: HookSpec[] = [];
  if (!config) return specs;
  for (const event of hookEvents) {
    for (const entry of config[event] ?? []) {
      const commands = "hooks" in entry ? entry.hooks : [entry];
      for (const hook of commands) {
        specs.push({
          event,
          matcher: entry.matcher ?? "*",
          command: hook.command,
          timeoutMs: hook.timeout === undefined ? HOOK_TIMEOUT_MS : Math.round(hook.timeout * 1000),
        });
      }
    }
  }
  return specs;
}

/**
 * True when `matcher` selects `tool`: `*` or a blank matcher selects every tool; otherwise a list
 * of exact, case-sensitive tool names separated by `,` or `|` (spaces around names are ignored).
 * A `*` item inside a list also selects everything. Regular expressions are not supported.
 */
export function hookMatches(matcher: string, tool: string): boolean {
  const names = matcher
    .split(/[,|]/)
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (names.length === 0) return true;
  return names.some((name) => name === "*" || name === tool);
}

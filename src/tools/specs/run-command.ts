// run_command's spec: what the model sees of it (the implementation is src/tools/run-command.ts).
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;

const params = z.object({
  command: z.string().check(z.minLength(1), z.describe("Shell command (bash -c), run in the workspace directory.")),
  timeout_ms: z
    .optional(z.int().check(z.minimum(1), z.maximum(MAX_TIMEOUT_MS)))
    .check(
      z.describe(
        `Kill the command after this long (default ${DEFAULT_TIMEOUT_MS}; background jobs: no limit unless given).`,
      ),
    ),
  background: z
    .optional(z.boolean())
    .check(
      z.describe(
        "Start it as a background job and return its id at once (servers, watchers, long builds); read it with task_output.",
      ),
    ),
  network: z
    .optional(z.boolean())
    .check(
      z.describe(
        "Give this command the network (installs, fetches, tests against a server). Commands have none unless the user turned it on; asking for it needs the user's approval.",
      ),
    ),
});

export const runCommandSpec = defineSpec({
  name: "run_command",
  kind: "exec",
  description:
    "Run a shell command (bash -c) in the workspace directory and return its exit code, stdout and stderr. " +
    `Stdin is empty; commands time out after ${DEFAULT_TIMEOUT_MS / 1000} s unless timeout_ms is given (max ${MAX_TIMEOUT_MS / 1000} s). ` +
    "Long output keeps its start and end. Do not start interactive programs. For servers, watchers and long builds " +
    "use background: true and read the job with task_output, list jobs with task_list, stop one with task_kill.",
  params,
  truncate: "head-tail",
  moreHint: "Re-run with output redirected to a file and grep or read_file it.",
  summarize: (a) => a.command.split("\n", 1)[0]!.slice(0, 200),
  // The command's own timeout, plus the time to kill its process group and collect the output.
  deadlineMs: (a) => (a.background ? 30_000 : (a.timeout_ms ?? DEFAULT_TIMEOUT_MS) + 15_000),
});

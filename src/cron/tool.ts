// The cron tool's face: its name, arguments and description. What it does (the ledger, croner,
// the daemon's socket) loads with its first call (tool-run.ts), so a run that never schedules
// anything never loads it. Listing reads; every other action is scheduled work the gate asks about
// under every policy (ToolDef.effect). The daemon does not offer it inside a scheduled run.
import { approvalPolicies } from "../protocol/enums.js";
import * as z from "../protocol/zod.js";
import { defineTool, type AnyTool } from "../tools/define.js";
import { MISSED_POLICIES } from "./plan.js";

export const CRON_TOOL = "cron";
export const CRON_ACTIONS = ["list", "create", "update", "pause", "resume", "run", "remove"] as const;

export const cronParams = z.object({
  action: z.enum(CRON_ACTIONS).check(z.describe("What to do.")),
  name: z
    .optional(z.string())
    .check(
      z.describe(
        "The job's name (every action but list): a-z, 0-9, _ and -, at most 40, starting with a letter or digit.",
      ),
    ),
  schedule: z
    .optional(z.string())
    .check(
      z.describe(
        "create / update: 5-field cron (minute hour day month weekday, e.g. '0 9 * * 1-5'), 6 fields with seconds first, or '@every 30m' (s, m, h, d).",
      ),
    ),
  prompt: z.optional(z.string()).check(z.describe("create / update: what the scheduled run is asked to do.")),
  workspace: z
    .optional(z.string())
    .check(z.describe("create / update: the folder the run works in (default: this workspace; relative to it).")),
  tz: z
    .optional(z.string())
    .check(z.describe("create / update: the schedule's IANA time zone (default: the machine's).")),
  missed: z
    .optional(z.enum(MISSED_POLICIES as unknown as ["skip", "once", "all"]))
    .check(z.describe("create / update: runs missed while no daemon ran: skip them, run once, or run all (up to 10).")),
  approval: z
    .optional(z.enum(approvalPolicies))
    .check(z.describe("create / update: the run's approval policy (default never: dangerous calls are refused).")),
  model: z.optional(z.string()).check(z.describe("create / update: the model the run uses (default: the daemon's).")),
});
export type CronArgs = z.infer<typeof cronParams>;

export interface CronToolOptions {
  /** The NanoHermes home: its cron.db and daemon.sock. */
  home: string;
}

type Runner = typeof import("./tool-run.js");
let runner: Promise<Runner> | null = null;
const load = () => (runner ??= import("./tool-run.js"));

export function cronTool(opts: CronToolOptions): AnyTool {
  return defineTool({
    name: CRON_TOOL,
    kind: "edit",
    description:
      "Schedule prompts to run later, unattended, on the NanoHermes daemon (cron jobs; they run only while `nanohermes --daemon` runs). " +
      "Actions: list; create {name, schedule, prompt, workspace?, tz?, missed?, approval?, model?}; update {name, and the fields to change}; " +
      "pause, resume, run (now, on the daemon), remove {name}. Each run is a fresh task with nobody to answer: what would need approval is refused and kept for the user. " +
      "Every action but list asks the user first; create a job only when the user asks for a recurring task.",
    params: cronParams,
    summarize: (a) => `${a.action}${a.name ? ` ${a.name}` : ""}${a.schedule ? ` ${a.schedule}` : ""}`,
    effect: (a) => (a.action === "list" ? "reads" : "schedules"),
    async precheck(args, ctx) {
      await (await load()).checkCronCall(args, opts, ctx.workspace);
    },
    async run(args, ctx) {
      return (await load()).runCronCall(args, opts, ctx.workspace);
    },
  });
}

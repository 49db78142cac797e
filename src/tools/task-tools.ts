// task_output, task_list and task_kill: the model's view of the session's background jobs.
// All three are kind "read": they touch only jobs this session started, which were approved then.
import { existingJobs, JOB_BUFFER_BYTES, jobsOf, type Job } from "./background.js";
import { defineTool, ToolError } from "./define.js";
import { taskKillSpec, taskListSpec, taskOutputSpec, TASK_OUTPUT_BYTES } from "./specs/task-tools.js";

export { TASK_OUTPUT_BYTES };

const commandLine = (job: Job) => {
  const first = job.command.split("\n", 1)[0]!;
  const short = first.length > 120 ? `${first.slice(0, 119)}…` : first;
  return short === job.command ? short : `${short} …`;
};

export const taskOutputTool = defineTool({
  ...taskOutputSpec,
  async run(args, ctx) {
    const job = jobsOf(ctx).get(args.id);
    const start = args.since ?? job.cursor;
    const end = job.log.end;
    if (start > end)
      throw new ToolError(`since ${start} is past the end of ${job.id}'s output: it has written ${end} bytes so far`);
    const chunk = job.log.read(start, TASK_OUTPUT_BYTES);
    job.cursor = chunk.next;
    const parts = [`${job.id} ${job.describe()}: $ ${commandLine(job)}`];
    if (chunk.from > start) {
      parts.push(
        `[${chunk.from - start} bytes before offset ${chunk.from} were dropped: only the last ${JOB_BUFFER_BYTES / (1024 * 1024)} MB of output is kept]`,
      );
    }
    parts.push(chunk.text === "" ? "(no new output)" : chunk.text.replace(/\n$/, ""));
    const again = (since: number) => `task_output ${JSON.stringify({ id: job.id, since })}`;
    if (chunk.next < end)
      parts.push(
        `[offset ${chunk.next} of ${end}: ${end - chunk.next} more bytes, read them with ${again(chunk.next)}]`,
      );
    else if (job.state === "running")
      parts.push(`[offset ${chunk.next}: all output so far; still running, call ${again(chunk.next)} later for more]`);
    else parts.push(`[offset ${chunk.next}: end of output; the job ${job.describe()}]`);
    return { forModel: parts.join("\n"), display: `${job.id}: ${job.state}, ${chunk.next - chunk.from} bytes` };
  },
});

export const taskListTool = defineTool({
  ...taskListSpec,
  async run(_args, ctx) {
    const jobs = existingJobs(ctx)?.list() ?? [];
    if (jobs.length === 0)
      return {
        forModel: "no background jobs in this session (start one with run_command and background: true)",
        display: "no jobs",
      };
    const running = jobs.filter((job) => job.state === "running").length;
    const rows = jobs.map((job) => {
      const state = job.state === "exited" ? `exited ${job.exitCode}` : job.state;
      const last = job.lastLine ? ` | ${job.lastLine}` : "";
      return `${job.id}  ${state.padEnd(9)} ${job.runtimeSeconds.toFixed(1).padStart(7)} s  $ ${commandLine(job)}${last}`;
    });
    return {
      forModel: [`${jobs.length} job${jobs.length === 1 ? "" : "s"}, ${running} running:`, ...rows].join("\n"),
      display: `${jobs.length} jobs, ${running} running`,
    };
  },
});

export const taskKillTool = defineTool({
  ...taskKillSpec,
  async run(args, ctx) {
    const job = jobsOf(ctx).get(args.id);
    if (!job.stoppable)
      return { forModel: `${job.id} had already ended: it ${job.describe()}`, display: `${job.id} already ended` };
    const wasRunning = job.state === "running";
    await job.stop("stopped by task_kill");
    const line = wasRunning
      ? `${job.id} ${job.describe()}`
      : `${job.id} had already ended (${job.describe()}); the processes it left behind were killed`;
    const last = job.lastLine ? `\nlast line: ${job.lastLine}` : "";
    return { forModel: line + last, display: `${job.id} ${job.state}` };
  },
});
